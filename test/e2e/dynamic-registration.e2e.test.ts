import { readFileSync } from "node:fs";
import * as oidc from "openid-client";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { BrowserSession } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Dynamic client registration (RFC 7591) and its management (RFC 7592), with openid-client's
// dynamicClientRegistration as the registering relying party; the registration policy's refusals.
describe.each(targets())("dynamic client registration ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  const issuer = () => `${server.url}/realms/${realm}`;
  const endpoint = () => `${issuer()}/clients-registrations/openid-connect`;
  const insecure = { execute: [oidc.allowInsecureRequests] };
  const mint = async (body: Record<string, unknown> = {}) => {
    const res = await api.post(`/admin/realms/${realm}/clients-initial-access`, body);
    expect(res.status).toBe(201);
    return res.body.token as string;
  };
  const register = (token: string | undefined, metadata: unknown) =>
    http("POST", endpoint(), { body: metadata, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

  beforeAll(async () => {
    server = await target.start("dcr");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("dcr");
    expect((await api.post("/admin/realms", { name: realm, adminEventsEnabled: true, eventsEnabled: true, accessTokenLifespan: 120 })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("advertises the registration endpoint in discovery", async () => {
    const res = await http("GET", `${issuer()}/.well-known/openid-configuration`);
    expect(res.body.registration_endpoint).toBe(endpoint());
  });

  it("registers a client_credentials client with an initial access token, which then gets tokens", async () => {
    const token = await mint({ count: 1 });
    const config = await oidc.dynamicClientRegistration(new URL(issuer()), {
      client_name: "Agent", grant_types: ["client_credentials"], token_endpoint_auth_method: "client_secret_basic",
      contacts: ["ops@example.test"], logo_uri: "https://example.test/logo.png", scope: "profile",
    }, undefined, { ...insecure, initialAccessToken: token });
    const meta = config.clientMetadata();
    const clientId = meta.client_id;
    expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(meta).toEqual({
      client_id: clientId, client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), client_secret_expires_at: 0,
      client_id_issued_at: expect.any(Number), registration_access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      registration_client_uri: `${endpoint()}/${clientId}`, client_name: "Agent", grant_types: ["client_credentials"], redirect_uris: [],
      response_types: [], token_endpoint_auth_method: "client_secret_basic", require_pushed_authorization_requests: false,
      contacts: ["ops@example.test"], logo_uri: "https://example.test/logo.png", scope: "profile",
    });
    expect(Math.abs(Number(meta.client_id_issued_at) - Date.now() / 1000)).toBeLessThan(60);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: "profile" });
    expect(tokens.token_type).toBe("bearer");
    const claims = JSON.parse(Buffer.from(tokens.access_token.split(".")[1]!, "base64url").toString());
    expect(claims).toMatchObject({ azp: clientId, iss: issuer() });
    // The Admin API sees an ordinary confidential client.
    const admin = await api.get(`/admin/realms/${realm}/clients/${clientId}`);
    expect(admin.body).toMatchObject({ clientId, name: "Agent", clientType: "CONFIDENTIAL", grantTypes: ["client_credentials"] });
    // Its CREATE admin event, without the secret or the tokens.
    const events = await eventually(() => api.get(`/admin/realms/${realm}/admin-events?resourceType=CLIENT`),
      (r) => (r.body ?? []).some((e: { resourcePath: string }) => e.resourcePath === `clients/${admin.body.id}`));
    expect(events.text).not.toContain(String(meta.client_secret));
    expect(events.text).not.toContain(String(meta.registration_access_token));
    if (server.process) {
      const log = readFileSync(server.process.logFile, "utf8");
      for (const secret of [token, meta.client_secret, meta.registration_access_token]) expect(log).not.toContain(String(secret));
    }
  });

  it("registers a public client through openid-client that then logs a user in (code flow with PKCE)", async () => {
    const cb = "http://localhost:3998/cb";
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", password: "Correct-Horse-9" })).status).toBe(201);
    const config = await oidc.dynamicClientRegistration(new URL(issuer()), { redirect_uris: [cb], token_endpoint_auth_method: "none", client_name: "Native" },
      oidc.None(), { ...insecure, initialAccessToken: await mint() });
    const clientId = config.clientMetadata().client_id;
    const { start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), cb, "Correct-Horse-9").calls();
    const s = await start(config);
    const b = new BrowserSession(server.url);
    const tokens = await redeem(config, s, await login(b, await b.get(s.url.href)));
    expect(tokens.claims()).toMatchObject({ aud: clientId, azp: clientId, preferred_username: "alice" });
    expect(tokens.refresh_token).toBeUndefined();
  });

  it("registers a public authorization-code client; an initial access token used up is refused", async () => {
    const token = await mint({ count: 1 });
    const body = { redirect_uris: ["https://app.example.test/cb"], token_endpoint_auth_method: "none", client_name: "SPA", post_logout_redirect_uris: ["https://app.example.test/"] };
    const res = await register(token, body);
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).not.toHaveProperty("client_secret");
    expect(res.body).toMatchObject({ grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "none", post_logout_redirect_uris: ["https://app.example.test/"] });
    expect((await api.get(`/admin/realms/${realm}/clients/${res.body.client_id}`)).body).toMatchObject({ clientType: "PUBLIC", redirectUris: ["https://app.example.test/cb"] });
    const again = await register(token, body);
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ error: "invalid_token", error_description: "the initial access token has no registrations left" });
    expect(again.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("refuses metadata per RFC 7591 section 3.2.2, naming the member, without using the token", async () => {
    const token = await mint({ count: 1 });
    const cases: Array<[unknown, number, Record<string, string>]> = [
      [{ redirect_uris: ["https://a.example.test/cb#frag"] }, 400, { error: "invalid_redirect_uri", error_description: "redirect_uris[0] must not contain a fragment" }],
      [{ grant_types: ["authorization_code"] }, 400, { error: "invalid_redirect_uri", error_description: "redirect_uris is required for the authorization_code grant" }],
      [{ grant_types: ["implicit"], redirect_uris: ["https://a.example.test/cb"] }, 400, { error: "invalid_client_metadata", error_description: "grant_types: implicit is not supported (use authorization_code with PKCE)" }],
      [{ redirect_uris: ["https://a.example.test/cb"], response_types: ["token"] }, 400, { error: "invalid_client_metadata", error_description: "response_types: token is not supported; supported: code" }],
      [{ redirect_uris: ["https://a.example.test/cb"], token_endpoint_auth_method: "tls_client_auth" }, 400, { error: "invalid_client_metadata", error_description: "token_endpoint_auth_method must be one of client_secret_basic, client_secret_post, client_secret_jwt, private_key_jwt, none" }],
      [{ redirect_uris: ["https://a.example.test/cb"], client_name: 7 }, 400, { error: "invalid_client_metadata", error_description: "client_name must be a string" }],
      [{ grant_types: ["client_credentials"], token_endpoint_auth_method: "private_key_jwt" }, 400, { error: "invalid_client_metadata", error_description: "private_key_jwt needs the client's public keys in jwks or jwks_uri" }],
      [{ grant_types: ["client_credentials"], jwks: { keys: [] }, jwks_uri: "https://a.example.test/jwks" }, 400, { error: "invalid_client_metadata", error_description: "jwks and jwks_uri must not both be present (RFC 7591 section 2)" }],
      [["not", "an", "object"], 400, { error: "invalid_client_metadata", error_description: "the request body must be a JSON object of client metadata" }],
    ];
    for (const [metadata, status, body] of cases) {
      const res = await register(token, metadata);
      expect([res.status, res.body]).toEqual([status, body]);
    }
    // Each refusal is a CLIENT_REGISTER_ERROR realm event naming the error, newest first (a body
    // that is no object is refused by the gateway, before any registration is attempted).
    const attempted = cases.slice(0, -1);
    const errors = await eventually(() => api.get(`/admin/realms/${realm}/events?type=CLIENT_REGISTER_ERROR`), (r) => (r.body ?? []).length === attempted.length + 1);
    expect(errors.body.map((e: { error: string }) => e.error)).toEqual([...attempted.map(([, , b]) => b.error).reverse(), "invalid_token"]);
    const list = await api.get(`/admin/realms/${realm}/clients-initial-access`);
    expect(list.body.find((t: { count: number; remainingCount: number }) => t.count === 1 && t.remainingCount === 1)).toBeDefined();
  });

  it("applies the realm's policy: redirect hosts, grant types, and the client cap (403)", async () => {
    const policy = await api.put(`/admin/realms/${realm}/client-registration-policy`, { allowedRedirectUriHosts: ["app.example.test"], allowedGrantTypes: ["authorization_code", "refresh_token"] });
    expect(policy.status).toBe(200);
    expect(policy.body).toMatchObject({ anonymousRegistrationAllowed: false, allowedRedirectUriHosts: ["app.example.test"], allowedGrantTypes: ["authorization_code", "refresh_token"], maxClients: 200 });
    const token = await mint({ count: 5 });
    const host = await register(token, { redirect_uris: ["https://evil.example.test/cb"] });
    expect([host.status, host.body]).toEqual([400, { error: "invalid_redirect_uri", error_description: "redirect_uris[0]: host evil.example.test is not allowed by the realm's registration policy" }]);
    const grant = await register(token, { grant_types: ["client_credentials"] });
    expect([grant.status, grant.body]).toEqual([400, { error: "invalid_client_metadata", error_description: "grant_types: client_credentials is not allowed by the realm's registration policy" }]);
    const now = (await api.get(`/admin/realms/${realm}/client-registration-policy`)).body.registeredClients as number;
    expect((await api.put(`/admin/realms/${realm}/client-registration-policy`, { maxClients: now })).body.maxClients).toBe(now);
    const capped = await register(token, { redirect_uris: ["https://app.example.test/cb"] });
    expect([capped.status, capped.body]).toEqual([403, { error: "access_denied", error_description: `the realm allows at most ${now} dynamically registered clients` }]);
    const bad = await api.put(`/admin/realms/${realm}/client-registration-policy`, { allowedGrantTypes: ["implicit"] });
    expect([bad.status, bad.body]).toEqual([400, { error: "invalid_request", message: "allowedGrantTypes[0] must be one of authorization_code, client_credentials, password, refresh_token, urn:ietf:params:oauth:grant-type:device_code", field: "allowedGrantTypes[0]" }]);
    await api.put(`/admin/realms/${realm}/client-registration-policy`, { maxClients: 200, allowedRedirectUriHosts: [], allowedGrantTypes: ["authorization_code", "refresh_token", "client_credentials"] });
    const ok = await register(token, { redirect_uris: ["https://evil.example.test/cb"] });
    expect(ok.status).toBe(201);
  });

  it("reads, updates (rotating the token) and deletes through the registration access token", async () => {
    const token = await mint();
    const created = await register(token, { grant_types: ["client_credentials"], client_name: "Before" });
    expect(created.status).toBe(201);
    const { client_id: clientId, registration_client_uri: uri, registration_access_token: rat, client_secret: secret } = created.body;
    const read = await http("GET", uri, { headers: bearer(rat) });
    expect(read.status).toBe(200);
    const { client_secret: _s, ...withoutSecret } = created.body;
    expect(read.body).toEqual(withoutSecret);

    const update = { client_id: clientId, grant_types: ["client_credentials"], client_name: "After", contacts: ["a@example.test"] };
    // The client may send its current secret back (RFC 7592 section 2.2); it is kept.
    const put = await http("PUT", uri, { body: { ...update, client_secret: secret }, headers: bearer(rat) });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ client_id: clientId, client_name: "After", contacts: ["a@example.test"], registration_client_uri: uri });
    expect(put.body).not.toHaveProperty("client_secret");
    const rotated = put.body.registration_access_token as string;
    expect(rotated).not.toBe(rat);
    for (const [method, body] of [["GET", undefined], ["PUT", update], ["DELETE", undefined]] as const) {
      const old = await http(method, uri, { ...(body ? { body } : {}), headers: bearer(rat) });
      expect([old.status, old.body]).toEqual([401, { error: "invalid_token", error_description: "the registration access token is not valid for this client" }]);
    }
    expect((await http("GET", uri, { headers: bearer(rotated) })).body.client_name).toBe("After");
    const missing = await http("GET", uri);
    expect([missing.status, missing.body]).toEqual([401, { error: "invalid_token", error_description: "a registration access token is required" }]);
    const wrongId = await http("PUT", uri, { body: { ...update, client_id: "other" }, headers: bearer(rotated) });
    expect([wrongId.status, wrongId.body]).toEqual([400, { error: "invalid_client_metadata", error_description: "client_id must be sent and be the client's own (RFC 7592 section 2.2)" }]);
    const wrongSecret = await http("PUT", uri, { body: { ...update, client_secret: "guess" }, headers: bearer(rotated) });
    expect([wrongSecret.status, wrongSecret.body]).toEqual([400, { error: "invalid_client_metadata", error_description: "client_secret must be the client's current secret (RFC 7592 section 2.2)" }]);
    // The secret still works after the update.
    const config = await oidc.discovery(new URL(issuer()), clientId, secret, undefined, insecure);
    expect((await oidc.clientCredentialsGrant(config)).access_token).toBeTruthy();

    const del = await http("DELETE", uri, { headers: bearer(rotated) });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await api.get(`/admin/realms/${realm}/clients/${clientId}`)).status).toBe(404);
    const after = await http("GET", uri, { headers: bearer(rotated) });
    expect([after.status, after.body]).toEqual([401, { error: "invalid_token", error_description: "the registration access token is not valid for this client" }]);
    await expect(oidc.clientCredentialsGrant(config)).rejects.toMatchObject({ status: 401, code: "OAUTH_WWW_AUTHENTICATE_CHALLENGE" });
    // The realm's events, under Keycloak's names, newest first, with no token in them.
    const REGISTRATION = ["CLIENT_REGISTER", "CLIENT_INFO", "CLIENT_UPDATE", "CLIENT_DELETE"];
    const mine = (r: { body?: Array<{ type: string; details: Record<string, string> }> }) => (r.body ?? []).filter((e) => REGISTRATION.includes(e.type));
    const events = await eventually(() => api.get(`/admin/realms/${realm}/events?clientId=${clientId}`), (r) => mine(r).length === 5);
    expect(mine(events).map((e: { type: string; details: Record<string, string> }) => [e.type, e.details.auth_method])).toEqual([
      ["CLIENT_DELETE", "registration_access_token"], ["CLIENT_INFO", "registration_access_token"],
      ["CLIENT_UPDATE", "registration_access_token"], ["CLIENT_INFO", "registration_access_token"], ["CLIENT_REGISTER", "initial_access_token"],
    ]);
    for (const t of [rat, rotated, secret]) expect(events.text).not.toContain(t);
    const basic = `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`;
    const refused = await http("POST", `${issuer()}/protocol/openid-connect/token`, { form: { grant_type: "client_credentials" }, headers: { authorization: basic } });
    expect([refused.status, refused.body]).toEqual([401, { error: "invalid_client", error_description: "client authentication failed" }]);
  });

  it("lets one of concurrent updates with the same token through, and keeps the token when an update is refused", async () => {
    const created = await register(await mint(), { grant_types: ["client_credentials"] });
    const { client_id: clientId, registration_client_uri: uri, registration_access_token: rat } = created.body;
    const refused = await http("PUT", uri, { body: { client_id: clientId, grant_types: ["client_credentials"], token_endpoint_auth_method: "private_key_jwt" }, headers: bearer(rat) });
    expect([refused.status, refused.body]).toEqual([400, { error: "invalid_client_metadata", error_description: "private_key_jwt needs the client's public keys in jwks or jwks_uri" }]);
    const racing = await Promise.all([1, 2, 3, 4].map((i) => http("PUT", uri, { body: { client_id: clientId, grant_types: ["client_credentials"], client_name: `v${i}` }, headers: bearer(rat) })));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
    const winner = racing.find((r) => r.status === 200)!;
    const now = await http("GET", uri, { headers: bearer(winner.body.registration_access_token) });
    expect(now.body.client_name).toBe(winner.body.client_name);
    expect((await api.get(`/admin/realms/${realm}/clients/${clientId}`)).body.name).toBe(winner.body.client_name);
  });

  it("frees a slot under the cap when the Admin API deletes a registered client", async () => {
    const before = (await api.get(`/admin/realms/${realm}/client-registration-policy`)).body.registeredClients as number;
    const created = await register(await mint(), { grant_types: ["client_credentials"] });
    expect((await api.get(`/admin/realms/${realm}/client-registration-policy`)).body.registeredClients).toBe(before + 1);
    expect((await api.del(`/admin/realms/${realm}/clients/${created.body.client_id}`)).status).toBe(204);
    await eventually(() => api.get(`/admin/realms/${realm}/client-registration-policy`), (r) => r.body.registeredClients === before);
    const gone = await http("GET", created.body.registration_client_uri, { headers: bearer(created.body.registration_access_token) });
    expect(gone.status).toBe(401);
  });

  it("documents every response it received", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
