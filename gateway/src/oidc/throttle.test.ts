import type { RpcClients } from "../rpc-clients.js";
import { RateLimiter } from "../http/rate-limiter.js";
import { Throttle, type ThrottledRequest } from "./throttle.js";

/**
 * Which requests the realm's throttle counts and how it answers over the limit. The counting
 * itself is RateLimiter's (rate-limiter.test.ts); test/e2e/throttle.e2e.test.ts runs it end to end.
 */
describe("Throttle", () => {
  const limits = { rateLimitPerIp: 1, rateLimitPerClient: 0 };
  const rpc = { realms: { getRealm: async () => ({ realm: limits }) } } as unknown as RpcClients;
  const at = 600_000; // a window start: the sliding window's estimate is the plain count
  const fresh = () => new Throttle(rpc, new RateLimiter(() => at));
  const req = (path: string, ip = "10.0.0.1"): ThrottledRequest => ({ path, ip, headers: {}, body: {} });

  it("counts the POSTs that take a client's or a user's password, matched exactly as the router routes them", () => {
    const t = fresh();
    for (const path of [
      "/realms/acme/protocol/openid-connect/token", "/realms/acme/protocol/openid-connect/auth/device",
      // RFC 6749 section 2.3.1: every endpoint that takes the client's password.
      "/realms/acme/protocol/openid-connect/token/introspect", "/realms/acme/protocol/openid-connect/revoke",
      "/realms/acme/protocol/openid-connect/logout", "/realms/acme/protocol/openid-connect/ext/par/request",
      "/realms/acme/protocol/openid-connect/auth", "/realms/acme/protocol/saml", "/realms/acme/login-actions/registration",
      "/realms/acme/device",
    ]) expect([path, t.realmOf("POST", path)]).toEqual([path, "acme"]);
    // Case-sensitive and strict routing (DESIGN 7): these reach no route, so nothing to count.
    for (const path of [
      "/realms/acme/protocol/openid-connect/TOKEN", "/realms/acme/protocol/openid-connect/token/",
      "/realms/acme/protocol/openid-connect/token//", "/realms/acme/DEVICE",
    ]) expect([path, t.realmOf("POST", path)]).toEqual([path, undefined]);
    expect(t.realmOf("GET", "/realms/acme/protocol/openid-connect/token")).toBeUndefined();
    expect(t.realmOf("POST", "/realms/a%20b/protocol/openid-connect/token")).toBe("a b");
  });

  it("counts a GET or HEAD of the device page that carries a user code, not the empty form (RFC 8628 section 5.1)", () => {
    const t = fresh();
    for (const method of ["GET", "HEAD"]) {
      expect(t.realmOf(method, "/realms/acme/device", { user_code: "BCDF-GHJK" })).toBe("acme");
      expect(t.realmOf(method, "/realms/acme/Device/", { user_code: "x" })).toBeUndefined();
      expect(t.realmOf(method, "/realms/acme/device", { user_code: ["a", "b"] })).toBe("acme");
      expect(t.realmOf(method, "/realms/acme/device", {})).toBeUndefined();
      expect(t.realmOf(method, "/realms/acme/device", { user_code: "" })).toBeUndefined();
      expect(t.realmOf(method, "/realms/acme/device")).toBeUndefined();
    }
    // Other GETs stay uncounted, user_code or not.
    expect(t.realmOf("GET", "/realms/acme/protocol/openid-connect/auth", { user_code: "x" })).toBeUndefined();
    expect(t.realmOf("GET", "/realms/acme/login-actions/registration", { user_code: "x" })).toBeUndefined();
    expect(t.realmOf("PUT", "/realms/acme/device", { user_code: "x" })).toBeUndefined();
  });

  it("answers an OAuth endpoint's 429 in OAuth format (RFC 6749 section 5.2)", async () => {
    const t = fresh();
    expect(await t.check("acme", req("/realms/acme/protocol/openid-connect/token"))).toBeUndefined();
    const over = await t.check("acme", req("/realms/acme/protocol/openid-connect/token"));
    expect(over).toEqual({
      status: 429, headers: { "Retry-After": "60", "Cache-Control": "no-store", Pragma: "no-cache" },
      body: { error: "too_many_requests", error_description: "rate limit exceeded; retry after 60 s" },
    });
    for (const path of ["/realms/acme/protocol/openid-connect/token/introspect", "/realms/acme/protocol/openid-connect/revoke", "/realms/acme/protocol/openid-connect/ext/par/request"]) {
      expect(await t.check("acme", req(path))).toEqual(over);
    }
    // The client's logout (Basic or a refresh token) in OAuth format; the browser's as text for its page.
    const logout = "/realms/acme/protocol/openid-connect/logout";
    expect(await t.check("acme", { ...req(logout), headers: { authorization: "Basic eDp5" } })).toEqual(over);
    expect(await t.check("acme", { ...req(logout), body: { refresh_token: "r" } })).toEqual(over);
    expect(await t.check("acme", req(logout))).toMatchObject({ status: 429, body: "Too many requests. Try again in 60 seconds." });
    // The same per-IP count as the page paths, whose answer is text.
    expect(await t.check("acme", req("/realms/acme/device"))).toEqual({
      status: 429, headers: { "Retry-After": "60", "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" },
      body: "Too many requests. Try again in 60 seconds.",
    });
    expect(await t.check("acme", req("/realms/acme/device", "10.0.0.2"))).toBeUndefined();
  });

  it("counts a client on every endpoint that takes its password, whatever its address (RFC 6749 section 2.3.1)", async () => {
    const perClient = { rateLimitPerIp: 0, rateLimitPerClient: 2 };
    const t = new Throttle({ realms: { getRealm: async () => ({ realm: perClient }) } } as unknown as RpcClients, new RateLimiter(() => at));
    const basic = { authorization: `Basic ${Buffer.from("web:wrong").toString("base64")}` };
    const from = (path: string, ip: string): ThrottledRequest => ({ path, ip, headers: basic, body: {} });
    expect(await t.check("acme", from("/realms/acme/protocol/openid-connect/token/introspect", "10.0.0.1"))).toBeUndefined();
    expect(await t.check("acme", from("/realms/acme/protocol/openid-connect/revoke", "10.0.0.2"))).toBeUndefined();
    expect(await t.check("acme", from("/realms/acme/protocol/openid-connect/logout", "10.0.0.3"))).toMatchObject({ status: 429 });
    // Another client has its own count; the browser's pages are not counted per client.
    const other = { path: "/realms/acme/protocol/openid-connect/revoke", ip: "10.0.0.4", headers: {}, body: { client_id: "other" } };
    expect(await t.check("acme", other)).toBeUndefined();
    expect(await t.check("acme", { ...from("/realms/acme/protocol/openid-connect/auth", "10.0.0.5") })).toBeUndefined();
  });

  it("counts an IPv6 client by its /64 and an IPv4-mapped one as its IPv4 address", async () => {
    const t = fresh();
    const token = "/realms/acme/protocol/openid-connect/token";
    expect(await t.check("acme", req(token, "2001:db8:a:b::1"))).toBeUndefined();
    expect(await t.check("acme", req(token, "2001:db8:a:b:c0ff:ee::2"))).toMatchObject({ status: 429 });
    expect(await t.check("acme", req(token, "2001:db8:a:c::1"))).toBeUndefined();
    expect(await t.check("acme", req(token, "192.0.2.1"))).toBeUndefined();
    expect(await t.check("acme", req(token, "::ffff:192.0.2.1"))).toMatchObject({ status: 429 });
  });
});
