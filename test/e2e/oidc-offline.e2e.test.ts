import { decodeJwt } from "jose";
import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Offline tokens (spec 2.6, 4.2; OIDC Core 1.0 section 11) over HTTP: `offline_access` gives an
// offline token and session only to a client that can use it, one listing the refresh_token
// grant; another gets the scope left out (RFC 6749 section 3.3) and no page asks for it.
for (const target of targets()) describe(`offline tokens (${target.mode})`, () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let userId: string;
  const secrets: Record<string, string> = {};
  const CB = "http://localhost:3997/cb";
  const PASSWORD = "Correct-Horse-9";

  beforeAll(async () => {
    server = await target.start("oidc-offline");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("offline");
    expect((await api.post("/admin/realms", { name: realm, offlineTokenLifespan: 3600 })).status).toBe(201);
    for (const [clientId, grantTypes] of [["nodev", ["password"]], ["cli", ["password", "refresh_token"]]] as const) {
      const created = await api.post(`/admin/realms/${realm}/clients`, { clientId, grantTypes });
      expect(created.status).toBe(201);
      secrets[clientId] = created.body.secret;
    }
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "kiosk", name: "Kiosk", clientType: "PUBLIC", redirectUris: [CB], grantTypes: ["authorization_code"], requireConsent: true,
    })).status).toBe(201);
    const alice = await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", password: PASSWORD });
    expect(alice.status).toBe(201);
    userId = alice.body.id;
  }, 90_000);
  afterAll(async () => server?.stop());

  const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();
  const tokenUrl = () => `${server.url}/realms/${realm}/protocol/openid-connect/token`;
  const basic = (clientId: string) => `Basic ${Buffer.from(`${clientId}:${secrets[clientId]}`).toString("base64")}`;
  const passwordGrant = (clientId: string, scope: string) => http("POST", tokenUrl(), {
    form: { grant_type: "password", username: "alice", password: PASSWORD, scope }, headers: { authorization: basic(clientId) },
  });
  const offlineSessions = async (clientId: string) =>
    ((await api.get(`/admin/realms/${realm}/users/${userId}/offline-sessions`)).body as Array<{ clients: string[] }>).filter((s) => s.clients.includes(clientId));

  it("gives a client with the refresh_token grant an offline token and session", async () => {
    const res = await passwordGrant("cli", "openid offline_access");
    expect(res.status).toBe(200);
    expect(res.body.refresh_expires_in).toBe(3600);
    expect(res.body.scope.split(" ")).toContain("offline_access");
    expect(await offlineSessions("cli")).toHaveLength(1);
    const refreshed = await http("POST", tokenUrl(), { form: { grant_type: "refresh_token", refresh_token: res.body.refresh_token }, headers: { authorization: basic("cli") } });
    expect(refreshed.status).toBe(200);
  });

  it("gives a client without it no refresh token and no offline session, and leaves offline_access out of the scope", async () => {
    const res = await passwordGrant("nodev", "openid offline_access");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "expires_in", "id_token", "scope", "token_type"]);
    expect(res.body.scope.split(" ").sort()).toEqual(["acr", "basic", "email", "openid", "profile", "roles", "web-origins"]);
    expect(decodeJwt(res.body.access_token).scope).toBe(res.body.scope);
    expect(await offlineSessions("nodev")).toEqual([]);
    // The same as asking without it.
    const plain = await passwordGrant("nodev", "openid");
    expect([Object.keys(plain.body).sort(), plain.body.scope]).toEqual([Object.keys(res.body).sort(), res.body.scope]);
  });

  it("does not ask for offline access on the consent page of a client without the refresh_token grant, nor grant it", async () => {
    const b = new BrowserSession(server.url);
    const kiosk = await rp("kiosk");
    const s = await start(kiosk, { scope: "openid profile offline_access" });
    const consent = await login(b, await b.get(s.url.href));
    expect(consent.status).toBe(200);
    expect(consent.text).toContain("<strong>Kiosk</strong> wants to access your account (alice).");
    expect(consent.text).toContain("<li>User profile</li>");
    expect(consent.text).not.toContain("offline_access");
    const tokens = await redeem(kiosk, s, await b.submit(consent, { decision: "approve" }));
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope!.split(" ")).not.toContain("offline_access");
    expect(tokens.scope!.split(" ")).toEqual(expect.arrayContaining(["openid", "profile"]));
    expect(await offlineSessions("kiosk")).toEqual([]);
  });

  const refresh = (clientId: string, refreshToken: string, scope?: string) => http("POST", tokenUrl(), {
    form: { grant_type: "refresh_token", refresh_token: refreshToken, ...(scope ? { scope } : {}) }, headers: { authorization: basic(clientId) },
  });

  it("ends open sessions by a shortened refreshTokenLifespan, as Keycloak measures idle time against the setting now", async () => {
    const online = await passwordGrant("cli", "openid");
    expect(online.status).toBe(200);
    const offline = await passwordGrant("cli", "openid offline_access");
    expect((await api.put(`/admin/realms/${realm}`, { refreshTokenLifespan: 1 })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1200));
    const refused = await refresh("cli", online.body.refresh_token);
    expect([refused.status, refused.body]).toEqual([400, { error: "invalid_grant", error_description: "Invalid refresh token" }]);
    // An offline session follows offlineTokenLifespan, unchanged.
    expect((await refresh("cli", offline.body.refresh_token)).status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}`, { refreshTokenLifespan: 1800 })).status).toBe(200);
  });

  it("ends an offline session whose user may no longer have one, whatever scope the refresh asks for", async () => {
    const a = await passwordGrant("cli", "openid offline_access");
    const b = await passwordGrant("cli", "openid offline_access");
    expect([a.status, b.status]).toEqual([200, 200]);
    const listed = async () => (await offlineSessions("cli")).map((x) => (x as unknown as { id: string }).id);
    const familyIds = [a, b].map((t) => t.body.refresh_token.split(".")[0]);
    expect(await listed()).toEqual(expect.arrayContaining(familyIds));
    expect((await api.del(`/admin/realms/${realm}/roles/offline_access`)).status).toBe(204);
    const expected = [400, { error: "invalid_grant", error_description: "the user may no longer obtain offline tokens" }];
    const plain = await refresh("cli", a.body.refresh_token);
    expect([plain.status, plain.body]).toEqual(expected);
    // Narrowing the scope away from offline_access does not keep it either.
    const narrowed = await refresh("cli", b.body.refresh_token, "openid");
    expect([narrowed.status, narrowed.body]).toEqual(expected);
    const ids = await listed();
    for (const id of familyIds) expect(ids).not.toContain(id);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
