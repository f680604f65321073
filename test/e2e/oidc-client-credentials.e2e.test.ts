import * as oidc from "openid-client";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Token endpoint with client_credentials, introspection, revocation, userinfo and the OAuth error
// responses (spec 4.15-4.16; RFC 6749 section 4.4 and 5.2, RFC 7662, RFC 7009), with openid-client
// as the relying party; sessions admin (spec 4.7) and offline sessions (spec 4.2) reads.
describe.each(targets())("OIDC client_credentials ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  let otherSecret: string;
  const issuer = () => `${server.url}/realms/${realm}`;
  const endpoint = (p: string) => `${issuer()}/protocol/openid-connect/${p}`;
  const basic = (id: string, s: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(s)}`).toString("base64")}`;

  beforeAll(async () => {
    server = await target.start("oidc-cc");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("oidc-cc");
    expect((await api.post("/admin/realms", { name: realm, accessTokenLifespan: 120 })).status).toBe(201);
    const svc = await api.post(`/admin/realms/${realm}/clients`, { clientId: "svc", grantTypes: ["client_credentials"] });
    expect(svc.status).toBe(201);
    secret = svc.body.secret;
    const other = await api.post(`/admin/realms/${realm}/clients`, { clientId: "other", grantTypes: ["client_credentials"] });
    otherSecret = other.body.secret;
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", grantTypes: ["authorization_code"] })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "spa", clientType: "PUBLIC", grantTypes: ["authorization_code"] })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const rp = (id = "svc", s = secret) => oidc.discovery(new URL(issuer()), id, s, undefined, { execute: [oidc.allowInsecureRequests] });
  const post = (p: string, form: Record<string, string>, headers: Record<string, string> = {}) => http("POST", endpoint(p), { form, headers });

  it("issues an RS256 access token to the service account, verifiable against the JWKS, no refresh token", async () => {
    const config = await rp();
    const tokens = await oidc.clientCredentialsGrant(config, { scope: "profile" });
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.expires_in).toBe(120);
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.id_token).toBeUndefined();
    expect(decodeProtectedHeader(tokens.access_token).alg).toBe("RS256");
    const jwks = createRemoteJWKSet(new URL(endpoint("certs")));
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: issuer() });
    const sa = await api.get(`/admin/realms/${realm}/clients/svc/service-account-user`);
    expect(sa.status).toBe(200);
    expect(payload.sub).toBe(sa.body.id);
    expect(payload).toMatchObject({ azp: "svc", typ: "Bearer", aud: "svc" });
    expect(String(payload.scope).split(" ")).toContain("profile");
    expect(payload.exp! - payload.iat!).toBe(120);
    expect(typeof payload.jti).toBe("string");
    expect(payload.realm_access).toEqual({ roles: expect.arrayContaining(["offline_access"]) });
    expect(payload.resource_access).toBeDefined();
    expect(payload.sid).toBeUndefined();
  });

  it("answers the token endpoint with no-store, and with client_secret_post as well as Basic", async () => {
    const res = await post("token", { grant_type: "client_credentials", client_id: "svc", client_secret: secret });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "expires_in", "scope", "token_type"]);
    expect(res.body.token_type).toBe("Bearer");
  });

  it("refuses bad clients with 401 invalid_client and a Basic challenge", async () => {
    for (const headers of [{ authorization: basic("svc", "wrong") }, { authorization: basic("nobody", "x") }]) {
      const res = await post("token", { grant_type: "client_credentials" }, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "invalid_client", error_description: "client authentication failed" });
      expect(res.headers.get("www-authenticate")).toBe(`Basic realm="${realm}"`);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const none = await post("token", { grant_type: "client_credentials" });
    expect(none.status).toBe(401);
    expect(none.body.error).toBe("invalid_client");
    await expect(oidc.clientCredentialsGrant(await rp("svc", "wrong"))).rejects.toMatchObject({ status: 401 });
  });

  it("stops accepting a regenerated client's old secret once the client.updated event is delivered", async () => {
    // Issue 4, performance design: the token service checks secrets against a cached verifier,
    // dropped on iam.directory.v1.client.updated; the old secret must fail within delivery time.
    const clientId = uniqueName("rot");
    const created = await api.post(`/admin/realms/${realm}/clients`, { clientId, grantTypes: ["client_credentials"] });
    expect(created.status).toBe(201);
    const oldSecret = created.body.secret as string;
    const cc = (s: string) => post("token", { grant_type: "client_credentials" }, { authorization: basic(clientId, s) });
    expect((await cc(oldSecret)).status).toBe(200); // warms the cache
    expect((await cc("wrong")).status).toBe(401);
    const regen = await api.post(`/admin/realms/${realm}/clients/${clientId}/regenerate-secret`);
    expect(regen.status).toBe(200);
    const deadline = Date.now() + 2_000;
    let status = (await cc(oldSecret)).status;
    while (status !== 401 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await cc(oldSecret)).status;
    }
    expect(status).toBe(401);
    expect((await cc(regen.body.secret as string)).status).toBe(200);
    // Disabling the client takes effect the same way.
    expect((await api.put(`/admin/realms/${realm}/clients/${clientId}`, { enabled: false })).status).toBe(200);
    const until = Date.now() + 2_000;
    let after = (await cc(regen.body.secret as string)).status;
    while (after !== 401 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      after = (await cc(regen.body.secret as string)).status;
    }
    expect(after).toBe(401);
  });

  it("puts a service account's new roles, groups and profile into the next token at once, not after the 10 s cache age", async () => {
    const created = await api.post(`/admin/realms/${realm}/clients`, { clientId: "svc-roles", grantTypes: ["client_credentials"] });
    expect(created.status).toBe(201);
    for (const name of ["reports-reader", "auditor"]) expect((await api.post(`/admin/realms/${realm}/roles`, { name })).status).toBe(201);
    const group = await api.post(`/admin/realms/${realm}/groups`, { name: "audit-team" });
    expect(group.status).toBe(201);
    const saId: string = (await api.get(`/admin/realms/${realm}/clients/svc-roles/service-account-user`)).body.id;
    const claims = async () => {
      const res = await post("token", { grant_type: "client_credentials", scope: "email" }, { authorization: basic("svc-roles", created.body.secret) });
      expect(res.status).toBe(200);
      return JSON.parse(Buffer.from(String(res.body.access_token).split(".")[1] ?? "", "base64url").toString()) as { realm_access: { roles: string[] }; email?: string };
    };
    const roles = async () => (await claims()).realm_access.roles;
    expect(await roles()).not.toContain("reports-reader"); // the grant is cached from here on

    const direct = `/admin/realms/${realm}/users/${saId}/role-mappings/realm`;
    expect((await api.post(direct, { roleNames: ["reports-reader"] })).status).toBe(200);
    expect(await roles()).toContain("reports-reader");
    expect((await api.del(direct, { roleNames: ["reports-reader"] })).status).toBe(200);
    expect(await roles()).not.toContain("reports-reader");

    const groupRoles = `/admin/realms/${realm}/groups/${group.body.id}/role-mappings`;
    expect((await api.post(groupRoles, { roleNames: ["auditor"] })).status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}/users/${saId}/groups/${group.body.id}`)).status).toBe(200);
    expect(await roles()).toContain("auditor"); // membership
    expect((await api.del(groupRoles, { roleNames: ["auditor"] })).status).toBe(200);
    expect(await roles()).not.toContain("auditor"); // the group's mappings
    expect((await api.post(groupRoles, { roleNames: ["auditor"] })).status).toBe(200);
    expect(await roles()).toContain("auditor");
    expect((await api.del(`/admin/realms/${realm}/users/${saId}/groups/${group.body.id}`)).status).toBe(200);
    expect(await roles()).not.toContain("auditor"); // membership removed
    expect((await api.put(`/admin/realms/${realm}/users/${saId}/groups/${group.body.id}`)).status).toBe(200);
    expect(await roles()).toContain("auditor");
    expect((await api.del(`/admin/realms/${realm}/groups/${group.body.id}`)).status).toBe(200);
    expect(await roles()).not.toContain("auditor"); // group deleted

    expect((await claims()).email).toBeUndefined();
    expect((await api.put(`/admin/realms/${realm}/users/${saId}`, { email: "robot@example.com" })).status).toBe(200);
    expect((await claims()).email).toBe("robot@example.com"); // profile
  });

  it("answers every other error per RFC 6749 section 5.2", async () => {
    const auth = { authorization: basic("svc", secret) };
    const cases: Array<[Record<string, string>, Record<string, string>, number, string]> = [
      [{}, auth, 400, "invalid_request"],
      [{ grant_type: "urn:example:nope" }, auth, 400, "unsupported_grant_type"],
      [{ grant_type: "password", username: "a", password: "b" }, auth, 400, "unauthorized_client"],
      [{ grant_type: "authorization_code", code: "x" }, auth, 400, "unauthorized_client"],
      [{ grant_type: "client_credentials", scope: "no-such-scope" }, auth, 400, "invalid_scope"],
      [{ grant_type: "client_credentials", scope: "offline_access" }, auth, 400, "invalid_scope"],
      [{ grant_type: "client_credentials", client_secret: secret }, auth, 400, "invalid_request"],
      [{ grant_type: "client_credentials" }, { authorization: basic("web", "") }, 401, "invalid_client"],
      [{ grant_type: "client_credentials", client_id: "spa" }, {}, 400, "unauthorized_client"],
      [{ grant_type: "refresh_token" }, { authorization: basic("svc", secret) }, 400, "unauthorized_client"],
    ];
    for (const [form, headers, status, error] of cases) {
      const res = await post("token", form, headers);
      expect({ form, status: res.status, error: res.body?.error }).toEqual({ form, status, error });
      expect(typeof res.body.error_description).toBe("string");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const dup = await http("POST", endpoint("token"), {
      body: "grant_type=client_credentials&grant_type=client_credentials",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic("svc", secret) },
    });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toBe("invalid_request");
    const unknownRealm = await http("POST", `${server.url}/realms/no-such-realm-q/protocol/openid-connect/token`, { form: { grant_type: "client_credentials" } });
    expect(unknownRealm.status).toBe(404);
    expect(unknownRealm.body).toEqual({ error: "realm_not_found", error_description: "realm not found" });
  });

  it("introspects: active for a valid token, inactive for revoked, garbage, foreign-realm tokens", async () => {
    const config = await rp();
    const { access_token } = await oidc.clientCredentialsGrant(config);
    const info = await oidc.tokenIntrospection(config, access_token);
    expect(info).toMatchObject({ active: true, client_id: "svc", token_type: "Bearer", iss: issuer() });
    // Another confidential client of the realm may introspect it (RFC 7662 section 2.1).
    expect((await oidc.tokenIntrospection(await rp("other", otherSecret), access_token)).active).toBe(true);
    for (const junk of ["not-a-token", `${access_token.slice(0, -4)}AAAA`, "a.b.c"]) {
      expect(await oidc.tokenIntrospection(config, junk)).toEqual({ active: false });
    }
    // A token of another realm is not active here.
    const realm2 = uniqueName("oidc-cc2");
    expect((await api.post("/admin/realms", { name: realm2 })).status).toBe(201);
    const c2 = await api.post(`/admin/realms/${realm2}/clients`, { clientId: "svc", grantTypes: ["client_credentials"] });
    const foreign = await http("POST", `${server.url}/realms/${realm2}/protocol/openid-connect/token`, {
      form: { grant_type: "client_credentials" }, headers: { authorization: basic("svc", c2.body.secret) },
    });
    expect(foreign.status).toBe(200);
    expect(await oidc.tokenIntrospection(config, foreign.body.access_token)).toEqual({ active: false });
    // Introspection needs client authentication.
    const anon = await post("token/introspect", { token: access_token });
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toBe(`Basic realm="${realm}"`);
    // RFC 7662 sections 2.1 and 4: a PUBLIC client's client_id is no authorization (token scanning).
    const forms: Array<Record<string, string>> = [{ token: access_token, client_id: "spa" }, { token: access_token, client_id: "spa", client_secret: "" }];
    for (const form of forms) {
      const pub = await post("token/introspect", form);
      expect(pub.status).toBe(401);
      expect(pub.body).toEqual({ error: "invalid_client", error_description: "public clients may not introspect tokens" });
      expect(pub.headers.get("www-authenticate")).toBe(`Basic realm="${realm}"`);
    }
    const missing = await post("token/introspect", {}, { authorization: basic("svc", secret) });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_request");
  });

  it("revokes (RFC 7009): 200 also for unknown tokens, the revoked token turns inactive, other clients may not revoke", async () => {
    const config = await rp();
    const { access_token } = await oidc.clientCredentialsGrant(config);
    const byOther = await post("revoke", { token: access_token }, { authorization: basic("other", otherSecret) });
    expect(byOther.status).toBe(400);
    expect(byOther.body.error).toBe("invalid_request");
    expect((await oidc.tokenIntrospection(config, access_token)).active).toBe(true);
    await oidc.tokenRevocation(config, access_token, { token_type_hint: "access_token" });
    expect(await oidc.tokenIntrospection(config, access_token)).toEqual({ active: false });
    const unknown = await post("revoke", { token: "unknown-token" }, { authorization: basic("svc", secret) });
    expect(unknown.status).toBe(200);
    const again = await post("revoke", { token: access_token }, { authorization: basic("svc", secret) });
    expect(again.status).toBe(200);
    expect((await post("revoke", { token: access_token })).status).toBe(401);
  });

  it("serves userinfo for GET and POST with a Bearer token, 401 invalid_token for a bad one", async () => {
    const config = await rp();
    // OIDC Core 1.0 section 5.3: userinfo serves tokens of an OpenID request, so this one asks for openid.
    const { access_token } = await oidc.clientCredentialsGrant(config, { scope: "openid profile" });
    const sa = await api.get(`/admin/realms/${realm}/clients/svc/service-account-user`);
    const get = await http("GET", endpoint("userinfo"), { headers: { authorization: `Bearer ${access_token}` } });
    expect(get.status).toBe(200);
    expect(get.body.sub).toBe(sa.body.id);
    expect(get.body.preferred_username).toBe(sa.body.username);
    const viaRp = await oidc.fetchUserInfo(config, access_token, sa.body.id);
    expect(viaRp.sub).toBe(sa.body.id);
    const postForm = await http("POST", endpoint("userinfo"), { form: { access_token } });
    expect(postForm.status).toBe(200);
    for (const headers of [{ authorization: "Bearer nope" }, { authorization: "Bearer two words" }] as Array<Record<string, string>>) {
      const res = await http("GET", endpoint("userinfo"), { headers });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("invalid_token");
      expect(res.headers.get("www-authenticate")).toMatch(new RegExp(`^Bearer realm="${realm}", error="invalid_token", error_description="[^"]+"$`));
    }
    await oidc.tokenRevocation(config, access_token);
    expect((await http("GET", endpoint("userinfo"), { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(401);
  });

  it("answers a userinfo request without credentials with the bare Bearer challenge (RFC 6750 section 3.1)", async () => {
    for (const [method, headers] of [["GET", {}], ["POST", { "content-type": "application/x-www-form-urlencoded" }], ["GET", { authorization: "Basic eDp5" }]] as Array<[string, Record<string, string>]>) {
      const res = await http(method, endpoint("userinfo"), { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe(`Bearer realm="${realm}"`);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("pragma")).toBe("no-cache");
      expect(res.text).toBe("");
    }
  });

  it("refuses a userinfo request carrying the token in both the header and the body (RFC 6750 section 2)", async () => {
    const config = await rp();
    const { access_token } = await oidc.clientCredentialsGrant(config, { scope: "openid profile" });
    const res = await http("POST", endpoint("userinfo"), { form: { access_token }, headers: { authorization: `Bearer ${access_token}` } });
    const description = "send the access token in the Authorization header or the form body, not both";
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_request", error_description: description });
    expect(res.headers.get("www-authenticate")).toBe(`Bearer realm="${realm}", error="invalid_request", error_description="${description}"`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    // Either method alone still works.
    expect((await http("POST", endpoint("userinfo"), { form: { access_token } })).status).toBe(200);
    expect((await http("POST", endpoint("userinfo"), { form: {}, headers: { authorization: `Bearer ${access_token}` } })).status).toBe(200);
  });

  it("answers userinfo 403 insufficient_scope for an active token without openid (OIDC Core 5.3, RFC 6750 3.1)", async () => {
    const config = await rp();
    for (const scope of [undefined, "profile"]) {
      const { access_token } = await oidc.clientCredentialsGrant(config, scope ? { scope } : {});
      expect((await oidc.tokenIntrospection(config, access_token)).active).toBe(true);
      for (const res of [
        await http("GET", endpoint("userinfo"), { headers: { authorization: `Bearer ${access_token}` } }),
        await http("POST", endpoint("userinfo"), { form: { access_token } }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: "insufficient_scope", error_description: "Missing openid scope" });
        expect(res.headers.get("www-authenticate")).toBe(`Bearer realm="${realm}", error="insufficient_scope", error_description="Missing openid scope"`);
        expect(res.headers.get("cache-control")).toBe("no-store");
      }
    }
  });

  it("switches to ES256 after rotation; tokens signed before still verify and introspect active", async () => {
    const config = await rp();
    const before = (await oidc.clientCredentialsGrant(config)).access_token;
    expect(decodeProtectedHeader(before).alg).toBe("RS256");
    const rotated = await api.post(`/admin/realms/${realm}/keys/rotate`, { alg: "ES256" });
    expect(rotated.status).toBe(200);
    const after = (await oidc.clientCredentialsGrant(config)).access_token;
    expect(decodeProtectedHeader(after).alg).toBe("ES256");
    const jwks = createRemoteJWKSet(new URL(endpoint("certs")));
    for (const t of [before, after]) {
      await jwtVerify(t, jwks, { issuer: issuer() });
      expect((await oidc.tokenIntrospection(config, t)).active).toBe(true);
    }
    // RS256 rotated while a token is in flight: the old key stays published, the token stays active.
    const rs = await api.post(`/admin/realms/${realm}/keys/rotate`, { alg: "RS256" });
    expect(rs.status).toBe(200);
    await jwtVerify(before, createRemoteJWKSet(new URL(endpoint("certs"))), { issuer: issuer() });
    expect((await oidc.tokenIntrospection(config, before)).active).toBe(true);
    expect(decodeProtectedHeader((await oidc.clientCredentialsGrant(config)).access_token).alg).toBe("RS256");
  });

  it("logout needs a refresh token; an unknown one is invalid_grant", async () => {
    const res = await post("logout", {}, { authorization: basic("svc", secret) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    const bad = await post("logout", { refresh_token: "x" }, { authorization: basic("svc", secret) });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_grant");
  });

  it("sessions admin: client_credentials leaves no session; unknown sessions and users are 404", async () => {
    await oidc.clientCredentialsGrant(await rp());
    const list = await api.get(`/admin/realms/${realm}/sessions`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    const sa = await api.get(`/admin/realms/${realm}/clients/svc/service-account-user`);
    const userId = sa.body.id;
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/sessions`)).body).toEqual([]);
    const all = await api.del(`/admin/realms/${realm}/users/${userId}/sessions`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ count: 0 });
    const missing = "00000000-0000-4000-8000-000000000000";
    for (const type of ["oauth", "sso"]) {
      const res = await api.del(`/admin/realms/${realm}/sessions/${missing}?type=${type}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("session_not_found");
    }
    expect((await api.del(`/admin/realms/${realm}/sessions/${missing}?type=bogus`)).status).toBe(400);
    // A repeated type is refused, not read as the default (oauth).
    const twice = await api.del(`/admin/realms/${realm}/sessions/${missing}?type=sso&type=bogus`);
    expect([twice.status, twice.body.error, twice.body.field]).toEqual([400, "invalid_request", "type"]);
    // Paging parameters are checked as the event listings check them.
    for (const [query, field] of [["max=abc", "max"], ["first=-1", "first"], ["max=1&max=2", "max"]] as const) {
      const paged = await api.get(`/admin/realms/${realm}/sessions?${query}`);
      expect([paged.status, paged.body.error, paged.body.field]).toEqual([400, "invalid_request", field]);
    }
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/offline-sessions?max=x`)).status).toBe(400);
    expect((await api.get(`/admin/realms/${realm}/sessions?first=5&max=10`)).body).toEqual([]);
    expect((await api.get(`/admin/realms/${realm}/users/${missing}/sessions`)).status).toBe(404);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/offline-sessions`)).body).toEqual([]);
    const off = await api.del(`/admin/realms/${realm}/users/${userId}/offline-sessions/${missing}`);
    expect(off.status).toBe(404);
    expect(off.body.error).toBe("offline_session_not_found");
    expect((await http("GET", `${server.url}/admin/realms/${realm}/sessions`)).status).toBe(401);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
