import * as oidc from "openid-client";
import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms } from "./support/browser-session.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { OidcRp, type Started } from "./support/oidc-rp.js";
import { unsigned } from "./support/unsigned-jwt.js";

const recorded = recordResponses();

/**
 * Pushed authorization requests (RFC 9126) with openid-client as the relying party: pushed and
 * used once, required per client and per realm, and the endpoint's errors in RFC 6749 format.
 */
for (const target of targets()) describe(`OIDC pushed authorization requests (${target.mode})`, () => {
  let server: TestServer;
  let realm: string;
  let strictRealm: string;
  let api: ReturnType<typeof adminApi>;
  const secrets: Record<string, string> = {};
  const CB = "http://localhost:3998/cb";
  const PASSWORD = "Correct-Horse-9";

  beforeAll(async () => {
    server = await target.start("oidc-par");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("par");
    strictRealm = uniqueName("par-required");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const strict = await api.post("/admin/realms", { name: strictRealm, requirePushedAuthorizationRequests: true });
    expect([strict.status, strict.body.requirePushedAuthorizationRequests]).toEqual([201, true]);
    for (const [r, clientId, extra] of [[realm, "web", {}], [realm, "other", {}], [realm, "must-push", { requirePushedAuthorizationRequests: true }], [strictRealm, "web", {}]] as const) {
      const res = await api.post(`/admin/realms/${r}/clients`, { clientId, redirectUris: [CB], ...extra });
      expect(res.status).toBe(201);
      secrets[`${r}/${clientId}`] = res.body.secret;
    }
    for (const r of [realm, strictRealm]) {
      expect((await api.post(`/admin/realms/${r}/users`, { username: "alice", email: "alice@example.com", password: PASSWORD })).status).toBe(201);
    }
  }, 90_000);
  afterAll(async () => server?.stop());

  const issuer = (r = realm) => `${server.url}/realms/${r}`;
  const parUrl = (r = realm) => `${issuer(r)}/protocol/openid-connect/ext/par/request`;
  const rpOf = (r: string, clientId: string) =>
    oidc.discovery(new URL(issuer(r)), clientId, secrets[`${r}/${clientId}`], oidc.ClientSecretPost(secrets[`${r}/${clientId}`]), { execute: [oidc.allowInsecureRequests] });
  const calls = (r: string) => new OidcRp(() => ({ serverUrl: server.url, realm: r }), CB, PASSWORD).calls();

  /** A pushed request through openid-client: the URL it redirects the browser to. */
  async function pushed(config: oidc.Configuration): Promise<Started> {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = await oidc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: CB, scope: "openid", state, nonce, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
    });
    return { url, verifier, state, nonce };
  }

  it("advertises the endpoint and each realm's requirement", async () => {
    const open = await http("GET", `${issuer()}/.well-known/openid-configuration`);
    expect([open.body.pushed_authorization_request_endpoint, open.body.require_pushed_authorization_requests]).toEqual([parUrl(), false]);
    const strict = await http("GET", `${issuer(strictRealm)}/.well-known/openid-configuration`);
    expect([strict.body.pushed_authorization_request_endpoint, strict.body.require_pushed_authorization_requests]).toEqual([parUrl(strictRealm), true]);
  });

  it("logs in through a pushed request where PAR is not required, and without one", async () => {
    const { login, redeem, start } = calls(realm);
    const config = await rpOf(realm, "web");
    const s = await pushed(config);
    expect([...s.url.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    expect(s.url.searchParams.get("request_uri")).toMatch(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/);
    const b = new BrowserSession(server.url);
    const tokens = await redeem(config, s, await login(b, await b.get(s.url.href)));
    expect(tokens.claims()!.aud).toBe("web");
    // Not required: a plain authorization request still reaches the login page.
    const plain = await start(config);
    const page = await new BrowserSession(server.url).get(plain.url.href);
    expect(parseForms(page.text)[0]!.fields.step).toBe("login");
  });

  it("refuses a request_uri used twice", async () => {
    const s = await pushed(await rpOf(realm, "web"));
    const b = new BrowserSession(server.url);
    expect(parseForms((await b.get(s.url.href)).text)[0]!.fields.step).toBe("login");
    const again = await new BrowserSession(server.url).get(s.url.href);
    expect(again.status).toBe(400);
    expect(again.text).toContain("The request_uri is unknown, expired or already used.");
  });

  it("binds the request_uri to the client that pushed it", async () => {
    const s = await pushed(await rpOf(realm, "web"));
    const stolen = new URL(s.url);
    stolen.searchParams.set("client_id", "other");
    const refused = await new BrowserSession(server.url).get(stolen.href);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("The request_uri is unknown, expired or already used.");
    // The other client's attempt did not use it up.
    expect(parseForms((await new BrowserSession(server.url).get(s.url.href)).text)[0]!.fields.step).toBe("login");
  });

  it.each([
    ["the client", () => realm, "must-push"],
    ["the realm", () => strictRealm, "web"],
  ])("refuses an unpushed request where %s requires PAR, and logs in with a pushed one", async (_who, realmOf, clientId) => {
    const r = realmOf();
    const { login, redeem, start } = calls(r);
    const config = await rpOf(r, clientId);
    const plain = await start(config);
    const refused = await new BrowserSession(server.url).get(plain.url.href);
    expect(refused.status).toBe(302);
    expect(refused.location).toBe(`${CB}?${new URLSearchParams({
      error: "invalid_request", error_description: "Pushed authorization requests are required: push the request and send its request_uri.",
      state: plain.state, iss: issuer(r),
    })}`);
    const s = await pushed(config);
    const b = new BrowserSession(server.url);
    expect((await redeem(config, s, await login(b, await b.get(s.url.href)))).claims()!.aud).toBe(clientId);
  });

  it("lifts the realm's requirement on update, and a client's", async () => {
    const other = uniqueName("par-toggle");
    expect((await api.post("/admin/realms", { name: other, requirePushedAuthorizationRequests: true })).status).toBe(201);
    const put = await api.put(`/admin/realms/${other}`, { requirePushedAuthorizationRequests: false });
    expect([put.status, put.body.requirePushedAuthorizationRequests]).toEqual([200, false]);
    const doc = await eventually(() => http("GET", `${issuer(other)}/.well-known/openid-configuration`), (r) => r.body.require_pushed_authorization_requests === false);
    expect(doc.body.require_pushed_authorization_requests).toBe(false);
    const client = await api.put(`/admin/realms/${realm}/clients/other`, { requirePushedAuthorizationRequests: true });
    expect([client.status, client.body.requirePushedAuthorizationRequests]).toEqual([200, true]);
    expect((await api.put(`/admin/realms/${realm}/clients/other`, { requirePushedAuthorizationRequests: false })).status).toBe(200);
  });

  it("records PUSHED_AUTHORIZATION_REQUEST and its _ERROR where the realm keeps events", async () => {
    const r = uniqueName("par-events");
    expect((await api.post("/admin/realms", { name: r, eventsEnabled: true })).status).toBe(201);
    const c = await api.post(`/admin/realms/${r}/clients`, { clientId: "web", redirectUris: [CB] });
    const form = { client_id: "web", response_type: "code", scope: "openid", redirect_uri: CB };
    expect((await http("POST", parUrl(r), { form: { ...form, client_secret: c.body.secret } })).status).toBe(201);
    expect((await http("POST", parUrl(r), { form: { ...form, client_secret: c.body.secret, redirect_uri: "http://evil.example/cb" } })).status).toBe(400);
    expect((await http("POST", parUrl(r), { form: { ...form, client_secret: "wrong" } })).status).toBe(401);
    const all = await eventually(async () => (await api.get(`/admin/realms/${r}/events`)).body as any[], (e) => e.length >= 3);
    expect(all.map((e) => `${e.type}:${e.clientId}:${e.error ?? ""}`).sort()).toEqual([
      "PUSHED_AUTHORIZATION_REQUEST:web:",
      "PUSHED_AUTHORIZATION_REQUEST_ERROR:web:invalid_client",
      "PUSHED_AUTHORIZATION_REQUEST_ERROR:web:invalid_request",
    ]);
    expect(JSON.stringify(all)).not.toContain(c.body.secret);
  });

  it("answers the endpoint's refusals in RFC 6749 format (RFC 9126 section 2.3)", async () => {
    const base = { client_id: "web", client_secret: secrets[`${realm}/web`]!, response_type: "code", scope: "openid", redirect_uri: CB, code_challenge: "a".repeat(43), code_challenge_method: "S256" };
    const post = (form: Record<string, string>) => http("POST", parUrl(), { form });
    const ok = await post(base);
    expect([ok.status, ok.body.expires_in, ok.headers.get("cache-control")]).toEqual([201, 60, "no-store"]);
    expect((await post({ ...base, client_secret: "wrong" })).body).toEqual({ error: "invalid_client", error_description: "client authentication failed" });
    expect((await post({ ...base, client_secret: "wrong" })).status).toBe(401);
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ redirect_uri: "http://evil.example/cb" }, "invalid_request", "The redirect_uri is not registered for this application."],
      [{ request_uri: "urn:ietf:params:oauth:request_uri:x" }, "invalid_request", "request_uri must not be sent to the pushed authorization request endpoint."],
      [{ response_type: "token" }, "unsupported_response_type", "Only response_type=code is supported."],
      [{ state: "s".repeat(4097) }, "invalid_request", "The state parameter is too long."],
      [{ request: unsigned({ client_id: "web", response_type: "code", redirect_uri: CB }) }, "invalid_request_object", "The client does not allow unsigned request objects."],
    ];
    for (const [extra, error, description] of cases) {
      const res = await post({ ...base, ...extra });
      expect([res.status, res.body]).toEqual([400, { error, error_description: description }]);
    }
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
