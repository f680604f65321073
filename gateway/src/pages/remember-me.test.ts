import type { Request } from "express";
import { rememberMeField, rememberMeTicked } from "./remember-me.js";

/** A request as express and cookie-parser leave it: method, parsed form body, parsed cookies. */
const request = (method: string, body: Record<string, string>, cookies: Record<string, string> = {}) => ({ method, body, cookies }) as unknown as Request;

describe("the login page's Remember me", () => {
  it("is ticked by the field \"on\" in any case, as Keycloak reads it, and by nothing else", () => {
    expect([{ rememberMe: "on" }, { rememberMe: "ON" }, { rememberMe: "" }, { rememberMe: "true" }, {}].map(rememberMeTicked)).toEqual([true, true, false, false, false]);
  });

  it("keeps what a posted login form ticked and typed, whatever the browser remembers", () => {
    const remembered = { TESSERA_REMEMBER_ME: "carol" };
    expect(rememberMeField(request("POST", { step: "login", rememberMe: "on", username: "alice" }, remembered), { username: "alice" }))
      .toEqual({ checked: true, username: "alice" });
    expect(rememberMeField(request("POST", { step: "login", username: "alice" }, remembered), { username: "alice" }))
      .toEqual({ checked: false, username: "alice" });
  });

  it("fills a fresh page with the remembered username, ticked, unless the request named a user", () => {
    expect(rememberMeField(request("GET", {}, { TESSERA_REMEMBER_ME: "<b>o'brien</b>" }), { username: "" }))
      .toEqual({ checked: true, username: "<b>o'brien</b>" });
    // login_hint wins over the remembered username (Keycloak's UsernamePasswordForm).
    expect(rememberMeField(request("GET", {}, { TESSERA_REMEMBER_ME: "carol" }), { username: "dave" })).toEqual({ checked: false, username: "dave" });
    expect(rememberMeField(request("GET", {}), { username: "" })).toEqual({ checked: false, username: "" });
    // A page after another form (a brokered login's failure, say) is a fresh page too.
    expect(rememberMeField(request("POST", { step: "consent" }, { TESSERA_REMEMBER_ME: "carol" }), { username: "" })).toEqual({ checked: true, username: "carol" });
    expect(rememberMeField(undefined, { username: "" })).toEqual({ checked: false, username: "" });
  });
});
