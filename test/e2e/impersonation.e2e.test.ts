import { decodeJwt } from "jose";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";

// Keycloak's impersonation: a signed-in administrator gets an SSO session as the user; the
// realm's identity cookie then logs in without a page (prompt=none), and the tokens name the
// administrator in Keycloak's `impersonator` claim.
describe("impersonation (embedded)", () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let admin: { Authorization: string };
  let adminId: string;
  const CB = "http://localhost:3993/cb";
  const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
  const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

  beforeAll(async () => {
    server = await startEmbeddedServer("impersonation");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("imp");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true, adminEventsEnabled: true })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "spa", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    const login = await http("POST", `${server.url}/admin/auth/login`, { body: { username: server.adminUsername, password: server.adminPassword } });
    expect(login.status).toBe(200);
    admin = { Authorization: `Bearer ${login.body.accessToken}` };
    adminId = login.body.user.id;
  }, 90_000);
  afterAll(async () => server?.stop());

  const user = async (username: string, extra: Record<string, unknown> = {}) => {
    const res = await api.post(`/admin/realms/${realm}/users`, { username, password: "Start-Pass-1", ...extra });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const impersonate = (id: string, headers: Record<string, string> = admin) =>
    http("POST", `${server.url}/admin/realms/${realm}/users/${id}/impersonation`, { body: {}, headers });
  const authorize = (cookie: string) => fetch(`${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "spa", redirect_uri: CB, response_type: "code", scope: "openid", state: "st", prompt: "none", code_challenge: CHALLENGE, code_challenge_method: "S256",
  })}`, { headers: { cookie }, redirect: "manual" });

  it("starts an SSO session as the user whose tokens carry the impersonator, and records it", async () => {
    const id = await user("ivy");
    const res = await impersonate(id);
    expect([res.status, res.body]).toEqual([200, { redirect: `${server.url}/realms/${realm}/account/`, sameRealm: false }]);
    const setCookie = res.headers.get("set-cookie") ?? "";
    const cookie = /^(TESSERA_SESSION=[^;]+)/.exec(setCookie)?.[1];
    expect(cookie).toMatch(/^TESSERA_SESSION=[A-Za-z0-9_-]{20,}$/);
    expect(setCookie).toContain(`Path=/realms/${realm}`);
    expect(setCookie).toContain("HttpOnly");

    const noCookie = await fetch(`${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
      client_id: "spa", redirect_uri: CB, response_type: "code", scope: "openid", state: "st", prompt: "none", code_challenge: CHALLENGE, code_challenge_method: "S256",
    })}`, { redirect: "manual" });
    expect(new URL(noCookie.headers.get("location")!).searchParams.get("error")).toBe("login_required");
    const answered = await authorize(cookie!);
    expect(answered.status).toBe(302);
    const location = new URL(answered.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(CB);
    const code = location.searchParams.get("code");
    expect(code).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const tokens = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "authorization_code", client_id: "spa", code: code!, redirect_uri: CB, code_verifier: VERIFIER },
    });
    expect(tokens.status).toBe(200);
    const idToken = decodeJwt(tokens.body.id_token);
    const access = decodeJwt(tokens.body.access_token);
    for (const t of [idToken, access]) {
      expect(t.sub).toBe(id);
      expect(t.impersonator).toEqual({ id: adminId, username: server.adminUsername });
    }
    const refreshed = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "refresh_token", client_id: "spa", refresh_token: tokens.body.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.access_token).impersonator).toEqual({ id: adminId, username: server.adminUsername });

    const event = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=IMPERSONATE`)).body as any[], (e) => e.length > 0);
    expect(event[0]).toMatchObject({
      type: "IMPERSONATE", userId: id, sessionId: idToken.sid,
      details: { username: "ivy", impersonator: server.adminUsername, impersonator_id: adminId },
    });
    const adminEvents = await eventually(async () => (await api.get(`/admin/realms/${realm}/admin-events?operationTypes=ACTION`)).body as any[],
      (l) => l.some((e) => e.resourcePath === `users/${id}/impersonation`));
    expect(adminEvents.find((e) => e.resourcePath === `users/${id}/impersonation`)).toMatchObject({
      operationType: "ACTION", resourceType: "USER", authDetails: { type: "admin", adminId, username: server.adminUsername },
    });
  }, 60_000);

  it("refuses a disabled user (400), an unknown one (404), a service account (400) and an API key (403)", async () => {
    const off = await user("otto", { enabled: false });
    const disabled = await impersonate(off);
    expect([disabled.status, disabled.body]).toEqual([400, { error: "user_disabled", message: "User is disabled", field: "enabled" }]);
    expect(disabled.headers.get("set-cookie")).toBeNull();
    const unknown = await impersonate("00000000-0000-4000-8000-000000000000");
    expect([unknown.status, unknown.body.error]).toEqual([404, "user_not_found"]);
    const svc = await api.post(`/admin/realms/${realm}/clients`, { clientId: "svc", grantTypes: ["client_credentials"] });
    expect(svc.status).toBe(201);
    const svcUser = await api.get(`/admin/realms/${realm}/clients/svc/service-account-user`);
    expect([svcUser.status, svcUser.body.username]).toEqual([200, "service-account-svc"]);
    const svcId = svcUser.body.id as string;
    const account = await impersonate(svcId);
    expect([account.status, account.body]).toEqual([400, { error: "service_account", message: "Service accounts cannot be impersonated", field: "userId" }]);
    const ok = await user("una");
    const byKey = await impersonate(ok, { "X-Admin-API-Key": server.apiKey });
    expect([byKey.status, byKey.body]).toEqual([403, {
      error: "impersonator_required", message: "impersonation needs a signed-in administrator: an API key has no identity to record",
    }]);
    expect(byKey.headers.get("set-cookie")).toBeNull();
  }, 30_000);
});
