import { withIntrospectionClaims } from "./introspected-claims.js";

const token = {
  iss: "https://id.example.test/realms/acme", sub: "u-1", aud: ["app", "https://api.example.test"], exp: 1_700_000_300, iat: 1_700_000_000,
  jti: "j-1", azp: "app", typ: "Bearer", scope: "openid profile", sid: "s-1", acr: "2", cnf: { jkt: "thumb" },
  email: "old@example.test", dept: "eng", realm_access: { roles: ["r"] },
};

describe("withIntrospectionClaims", () => {
  it("takes the mappers' access claims out and their introspection claims in, computed now", () => {
    const out = withIntrospectionClaims(token, {
      access: { email: "new@example.test", dept: "eng" },
      introspection: { email: "new@example.test", only_here: 7 },
    });
    expect(out).toEqual({ ...token, dept: undefined, email: "new@example.test", only_here: 7 });
    expect("dept" in out).toBe(false);
    // Claims no mapper wrote (the token service's defaults) stay as the token has them.
    expect(out.realm_access).toEqual({ roles: ["r"] });
  });

  it("keeps the token's own claims whatever the mappers say of them, and the login's acr", () => {
    const out = withIntrospectionClaims(token, {
      access: { aud: "https://api.example.test", sid: "x", acr: "1" },
      introspection: { iss: "forged", scope: "admin", cnf: null, acr: "1" },
    });
    expect([out.aud, out.sid, out.iss, out.scope, out.cnf, out.acr]).toEqual([token.aud, "s-1", token.iss, "openid profile", { jkt: "thumb" }, "2"]);
    // An acr the mappers write to the access token only is not introspected.
    expect("acr" in withIntrospectionClaims(token, { access: { acr: "1" }, introspection: {} })).toBe(false);
  });

  it("writes a claim named __proto__ as a claim, never as the object's prototype", () => {
    const out = withIntrospectionClaims(token, { access: {}, introspection: JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown> });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({ polluted: true });
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
