import * as oidc from "openid-client";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

const recorded = recordResponses();

const EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS = "urn:ietf:params:oauth:token-type:access_token";
const REFRESH = "urn:ietf:params:oauth:token-type:refresh_token";
const PW = "Exchange-Pass-1";

// Standard token exchange (RFC 8693; Keycloak's internal-to-internal exchange), with openid-client
// as the exchanging client: "web" signs the user in (its tokens are aimed at "gateway" by an
// audience mapper), "gateway" trades them for tokens aimed at "backend", which the user holds a
// role of (the roles scope's audience resolve makes it an available audience).
describe.each(targets())("token exchange ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let userId: string;
  const secrets: Record<string, string> = {};
  const issuer = () => `${server.url}/realms/${realm}`;
  const endpoint = (p: string) => `${issuer()}/protocol/openid-connect/${p}`;
  const token = (clientId: string, form: Record<string, string>) =>
    http("POST", endpoint("token"), { form: { client_id: clientId, client_secret: secrets[clientId]!, ...form } });
  const exchange = (clientId: string, subject: string, form: Record<string, string> = {}) =>
    token(clientId, { grant_type: EXCHANGE, subject_token: subject, subject_token_type: ACCESS, ...form });
  /** A fresh login of the user at "web" (password grant): its access and refresh token. */
  const login = async (clientId = "web") => {
    const res = await token(clientId, { grant_type: "password", username: "ines", password: PW, scope: "openid" });
    expect(res.status).toBe(200);
    return res.body as { access_token: string; refresh_token: string; scope: string };
  };
  const rp = (clientId: string) => oidc.discovery(new URL(issuer()), clientId, secrets[clientId], undefined, { execute: [oidc.allowInsecureRequests] });

  beforeAll(async () => {
    server = await target.start("token-exchange");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("tx");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true, accessTokenLifespan: 300 })).status).toBe(201);
    const clients: Array<[string, Record<string, unknown>]> = [
      ["web", { grantTypes: ["password", "refresh_token"] }],
      ["other", { grantTypes: ["password"] }],
      ["gateway", { grantTypes: ["authorization_code", "refresh_token"], standardTokenExchangeEnabled: true }],
      ["lean", { grantTypes: ["authorization_code"], standardTokenExchangeEnabled: true }],
      ["plain", { grantTypes: ["authorization_code"] }],
      ["backend", { grantTypes: ["authorization_code"] }],
    ];
    for (const [clientId, body] of clients) {
      const res = await api.post(`/admin/realms/${realm}/clients`, { clientId, ...body });
      expect(res.status).toBe(201);
      secrets[clientId] = res.body.secret;
    }
    const scope = await api.post(`/admin/realms/${realm}/client-scopes`, { name: "gateway-audience" });
    expect((await api.post(`/admin/realms/${realm}/client-scopes/${scope.body.id}/protocol-mappers`, {
      name: "gateway", mapperType: "oidc-audience-mapper", config: { "included.client.audience": "gateway", "access.token.claim": "true" },
    })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients/web/default-client-scopes`, { clientScopeId: scope.body.id })).status).toBe(200);
    expect((await api.post(`/admin/realms/${realm}/clients/backend/roles`, { name: "reader" })).status).toBe(201);
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "ines", email: "ines@example.com", firstName: "Ines", password: PW });
    expect(user.status).toBe(201);
    userId = user.body.id;
    expect((await api.post(`/admin/realms/${realm}/users/${userId}/role-mappings/clients/backend`, { roleNames: ["reader"] })).status).toBe(200);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    expectResponsesDocumented(recorded);
  });

  it("shows the permission on the client, off by default, and refuses it on a PUBLIC client", async () => {
    expect((await api.get(`/admin/realms/${realm}/clients/gateway`)).body.standardTokenExchangeEnabled).toBe(true);
    expect((await api.get(`/admin/realms/${realm}/clients/plain`)).body.standardTokenExchangeEnabled).toBe(false);
    const pub = await api.post(`/admin/realms/${realm}/clients`, { clientId: uniqueName("spa"), clientType: "PUBLIC", standardTokenExchangeEnabled: true });
    expect(pub.status).toBe(400);
    expect(pub.body).toEqual({ error: "invalid_request", message: "a PUBLIC client cannot use token exchange", field: "standardTokenExchangeEnabled" });
    const spa = uniqueName("spa");
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: spa, clientType: "PUBLIC" })).status).toBe(201);
    const upd = await api.put(`/admin/realms/${realm}/clients/${spa}`, { standardTokenExchangeEnabled: true });
    expect([upd.status, upd.body.field]).toEqual([400, "standardTokenExchangeEnabled"]);
    const bad = await api.put(`/admin/realms/${realm}/clients/plain`, { standardTokenExchangeEnabled: "yes" });
    expect([bad.status, bad.body.error, bad.body.field]).toEqual([400, "invalid_field", "standardTokenExchangeEnabled"]);
  });

  it("advertises the grant type in discovery", async () => {
    const res = await http("GET", `${issuer()}/.well-known/openid-configuration`);
    expect(res.body.grant_types_supported).toContain(EXCHANGE);
  });

  it("switches the audience to another client and narrows the scope (openid-client)", async () => {
    const subject = await login();
    const subjectClaims = decodeJwt(subject.access_token);
    expect([...(subjectClaims.aud as string[])].sort()).toEqual(["backend", "gateway"]);
    expect(subject.scope.split(" ")).toEqual(expect.arrayContaining(["openid", "profile", "email", "roles", "gateway-audience"]));
    const config = await rp("gateway");
    const res = await oidc.genericGrantRequest(config, EXCHANGE, {
      subject_token: subject.access_token, subject_token_type: ACCESS, audience: "backend", scope: "openid roles",
    });
    expect(res.issued_token_type).toBe(ACCESS);
    expect(res.token_type).toBe("bearer");
    expect(res.scope).toBe("openid roles");
    expect(res.refresh_token).toBeUndefined();
    expect(res.id_token).toBeUndefined();
    const { payload } = await jwtVerify(res.access_token, createRemoteJWKSet(new URL(endpoint("certs"))), { issuer: issuer(), audience: "backend" });
    expect(payload).toEqual({
      iss: issuer(), sub: userId, aud: "backend", azp: "gateway", typ: "Bearer", scope: "openid roles",
      exp: expect.any(Number), iat: expect.any(Number), jti: expect.any(String), sid: subjectClaims.sid, fid: subjectClaims.fid,
      realm_access: { roles: ["offline_access"] }, resource_access: { backend: { roles: ["reader"] } },
    });
    // Never past the subject token; narrowed: no profile or email claims.
    expect(payload.exp).toBeLessThanOrEqual(subjectClaims.exp!);
    // The target client sees an active token aimed at it.
    const seen = await http("POST", endpoint("token/introspect"), { form: { client_id: "backend", client_secret: secrets.backend!, token: res.access_token } });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ active: true, aud: "backend", client_id: "gateway", sub: userId, scope: "openid roles" });
  });

  it("answers RFC 8693 section 2.2.1's body; without scope the subject token's scopes the client has", async () => {
    const subject = await login();
    const res = await exchange("gateway", subject.access_token, { audience: "backend" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "expires_in", "issued_token_type", "scope", "session_state", "token_type"]);
    expect(res.body).toMatchObject({ token_type: "Bearer", issued_token_type: ACCESS, session_state: decodeJwt(subject.access_token).sid });
    // "gateway-audience" is web's scope, not gateway's: left out.
    expect(res.body.scope.split(" ").sort()).toEqual(subject.scope.split(" ").filter((s) => s !== "gateway-audience").sort());
    const claims = decodeJwt(res.body.access_token);
    expect(claims).toMatchObject({ aud: "backend", azp: "gateway", email: "ines@example.com", given_name: "Ines" });
    // Without audience: the audiences the client's own mappers give.
    const plainAud = await exchange("gateway", subject.access_token, { scope: "roles" });
    expect(plainAud.status).toBe(200);
    expect(decodeJwt(plainAud.body.access_token).aud).toBe("backend");
  });

  it("refuses a client without the exchange permission", async () => {
    const subject = await login();
    const res = await exchange("plain", subject.access_token, { audience: "backend" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "unauthorized_client", error_description: `the client may not use the ${EXCHANGE} grant` });
    // openid-client reports the same refusal.
    await expect(oidc.genericGrantRequest(await rp("plain"), EXCHANGE, { subject_token: subject.access_token, subject_token_type: ACCESS }))
      .rejects.toMatchObject({ error: "unauthorized_client", status: 400 });
    const unauth = await http("POST", endpoint("token"), { form: { grant_type: EXCHANGE, client_id: "gateway", client_secret: "wrong", subject_token: subject.access_token, subject_token_type: ACCESS } });
    expect([unauth.status, unauth.body.error]).toEqual([401, "invalid_client"]);
  });

  it("refuses an unknown or unavailable audience with invalid_target", async () => {
    const subject = await login();
    const unknown = await exchange("gateway", subject.access_token, { audience: "nobody" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: "invalid_target", error_description: 'audience "nobody" is not a client of this realm' });
    // A client of the realm the user's tokens at gateway are never aimed at.
    const unavailable = await exchange("gateway", subject.access_token, { audience: "plain" });
    expect(unavailable.body).toEqual({ error: "invalid_target", error_description: 'audience "plain" is not available to the client' });
    // Narrowing away the scope that makes backend available makes it unavailable.
    const narrowed = await exchange("gateway", subject.access_token, { audience: "backend", scope: "openid profile" });
    expect(narrowed.body).toEqual({ error: "invalid_target", error_description: 'audience "backend" is not available to the client' });
    // The client itself is available where no mapper names an audience (its tokens' default aud).
    const itself = await exchange("gateway", subject.access_token, { audience: "gateway", scope: "openid profile" });
    expect([itself.status, decodeJwt(itself.body.access_token).aud]).toEqual([200, "gateway"]);
    const notItself = await exchange("gateway", subject.access_token, { audience: "gateway", scope: "roles" });
    expect(notItself.body).toEqual({ error: "invalid_target", error_description: 'audience "gateway" is not available to the client' });
    const resource = await exchange("gateway", subject.access_token, { resource: "https://api.example.test" });
    expect(resource.body).toEqual({ error: "invalid_target", error_description: "resource is not supported: name the target client in audience" });
  });

  it("refuses a widened scope with invalid_scope", async () => {
    const subject = await login();
    const res = await exchange("gateway", subject.access_token, { audience: "backend", scope: "openid roles phone" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_scope", error_description: 'scope "phone" exceeds the subject token\'s scope' });
    const offline = await exchange("gateway", subject.access_token, { scope: "offline_access" });
    expect(offline.body).toEqual({ error: "invalid_scope", error_description: "offline_access cannot be obtained by token exchange" });
  });

  it("refuses malformed requests and a subject token not aimed at the client", async () => {
    const subject = await login();
    const cases: Array<[Record<string, string>, string]> = [
      [{ subject_token: "" }, "subject_token is required"],
      [{ subject_token_type: "" }, "subject_token_type is required"],
      [{ subject_token_type: "urn:ietf:params:oauth:token-type:id_token" }, `subject_token_type must be ${ACCESS}`],
      [{ requested_token_type: "urn:ietf:params:oauth:token-type:jwt" }, `requested_token_type must be ${ACCESS} or ${REFRESH}`],
      [{ actor_token: subject.access_token, actor_token_type: ACCESS }, "actor_token (delegation) is not supported"],
    ];
    for (const [form, description] of cases) {
      const res = await exchange("gateway", subject.access_token, form);
      expect([res.status, res.body]).toEqual([400, { error: "invalid_request", error_description: description }]);
    }
    const foreign = await login("other");
    const res = await exchange("gateway", foreign.access_token, { audience: "backend" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "access_denied", error_description: "the client is not within the subject token's audience" });
  });

  it("refuses a revoked, ended or forged subject token with invalid_grant; the exchanged token ends with the login", async () => {
    const inactive = { error: "invalid_grant", error_description: "subject_token is not active" };
    const revokedOne = await login();
    expect((await http("POST", endpoint("revoke"), { form: { client_id: "web", client_secret: secrets.web!, token: revokedOne.access_token } })).status).toBe(200);
    const r1 = await exchange("gateway", revokedOne.access_token, { audience: "backend" });
    expect([r1.status, r1.body]).toEqual([400, inactive]);
    const ended = await login();
    const exchanged = await exchange("gateway", ended.access_token, { audience: "backend" });
    expect(exchanged.status).toBe(200);
    expect((await http("POST", endpoint("revoke"), { form: { client_id: "web", client_secret: secrets.web!, token: ended.refresh_token } })).status).toBe(200);
    const r2 = await exchange("gateway", ended.access_token, { audience: "backend" });
    expect([r2.status, r2.body]).toEqual([400, inactive]);
    const seen = await http("POST", endpoint("token/introspect"), { form: { client_id: "backend", client_secret: secrets.backend!, token: exchanged.body.access_token } });
    expect(seen.body).toEqual({ active: false });
    const parts = (await login()).access_token.split(".");
    const forged = `${parts[0]}.${Buffer.from(JSON.stringify({ ...decodeJwt(parts.join(".")), aud: "gateway" })).toString("base64url")}.${parts[2]}`;
    const r3 = await exchange("gateway", forged, { audience: "backend" });
    expect([r3.status, r3.body]).toEqual([400, inactive]);
  });

  it("issues a refresh token only to a client that uses them; its refreshes keep the audience", async () => {
    const subject = await login();
    const res = await exchange("gateway", subject.access_token, { audience: "backend", scope: "openid roles", requested_token_type: REFRESH });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ issued_token_type: REFRESH, scope: "openid roles", token_type: "Bearer" });
    expect(res.body.id_token).toBeUndefined();
    expect(typeof res.body.refresh_token).toBe("string");
    expect(decodeJwt(res.body.access_token).aud).toBe("backend");
    const refreshed = await token("gateway", { grant_type: "refresh_token", refresh_token: res.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.access_token)).toMatchObject({ aud: "backend", azp: "gateway", sub: userId });
    expect(refreshed.body.scope).toBe("openid roles");
    const lean = await exchange("lean", subject.access_token, { requested_token_type: REFRESH });
    expect([lean.status, lean.body]).toEqual([400, {
      error: "invalid_request", error_description: "the client does not use refresh tokens: requested_token_type refresh_token is not allowed",
    }]);
  });

  it("records TOKEN_EXCHANGE and TOKEN_EXCHANGE_ERROR events, never a token", async () => {
    const subject = await login();
    const ok = await exchange("gateway", subject.access_token, { audience: "backend", scope: "openid roles" });
    expect(ok.status).toBe(200);
    expect((await exchange("gateway", subject.access_token, { audience: "nobody" })).status).toBe(400);
    const events = await eventually(
      async () => (await api.get(`/admin/realms/${realm}/events?clientId=gateway`)).body as any[],
      (e) => e.filter((x) => x.type === "TOKEN_EXCHANGE" && x.details.audience === "backend" && x.details.scope === "openid roles").length >= 1
        && e.some((x) => x.type === "TOKEN_EXCHANGE_ERROR" && x.error === "invalid_target"),
    );
    const success = events.find((e) => e.type === "TOKEN_EXCHANGE" && e.details.scope === "openid roles" && e.details.requested_token_type === ACCESS);
    expect(success).toMatchObject({
      realm, clientId: "gateway", userId, error: "",
      details: { grant_type: EXCHANGE, scope: "openid roles", audience: "backend", subject_token_client_id: "web", requested_token_type: ACCESS },
    });
    const failure = events.find((e) => e.type === "TOKEN_EXCHANGE_ERROR" && e.error === "invalid_target");
    expect(failure).toMatchObject({ clientId: "gateway", details: { grant_type: EXCHANGE } });
    const refused = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?clientId=plain&type=TOKEN_EXCHANGE_ERROR`)).body as any[], (e) => e.length > 0);
    expect(refused[0]).toMatchObject({ error: "unauthorized_client", details: { grant_type: EXCHANGE } });
    const text = JSON.stringify(events);
    expect(text).not.toContain(subject.access_token);
    expect(text).not.toContain(ok.body.access_token);
  });

  it("refuses an expired subject token with invalid_grant", async () => {
    expect((await api.put(`/admin/realms/${realm}`, { accessTokenLifespan: 1 })).status).toBe(200);
    // The token service hears of the realm update over the bus: wait for a token of the new lifespan.
    const subject = await eventually(() => login(), (t) => { const c = decodeJwt(t.access_token); return c.exp! - c.iat! === 1; });
    const c = decodeJwt(subject.access_token);
    expect(c.exp! - c.iat!).toBe(1);
    await new Promise((r) => setTimeout(r, Math.max(0, c.exp! * 1000 - Date.now()) + 1100));
    const res = await exchange("gateway", subject.access_token, { audience: "backend" });
    expect([res.status, res.body]).toEqual([400, { error: "invalid_grant", error_description: "subject_token is not active" }]);
    expect((await api.put(`/admin/realms/${realm}`, { accessTokenLifespan: 300 })).status).toBe(200);
  }, 30_000);
});
