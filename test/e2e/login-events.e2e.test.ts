import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Login events (spec 2.7, 4.8, 6.1; README "Login events"): which flow records which type, the
// filters (type, userId, clientId, dateFrom/dateTo), no secret in any event, nothing when the
// realm's eventsEnabled is false.
describe.each(targets())("login events ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let quiet: string;
  const CB = "http://localhost:3995/cb";
  const PW = "Event-Pass-77";
  const secrets: Record<string, string> = {};
  const userIds: Record<string, string> = {};
  const leaked: string[] = [PW, "wrong-Pass-1"];

  beforeAll(async () => {
    server = await target.start("login-events");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("events");
    quiet = uniqueName("quiet");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true })).status).toBe(201);
    expect((await api.post("/admin/realms", { name: quiet, eventsEnabled: false })).status).toBe(201);
    for (const r of [realm, quiet]) {
      const c = await api.post(`/admin/realms/${r}/clients`, {
        clientId: "web", clientType: "CONFIDENTIAL", redirectUris: [CB],
        grantTypes: ["authorization_code", "password", "refresh_token", "client_credentials"],
      });
      expect(c.status).toBe(201);
      secrets[r] = c.body.secret;
      leaked.push(c.body.secret);
      const u = await api.post(`/admin/realms/${r}/users`, { username: "gina", email: "gina@example.com", password: PW });
      expect(u.status).toBe(201);
      userIds[r] = u.body.id;
    }
  }, 90_000);
  afterAll(async () => server?.stop());

  const tokenUrl = (r: string) => `${server.url}/realms/${r}/protocol/openid-connect/token`;
  const token = (r: string, form: Record<string, string>) =>
    http("POST", tokenUrl(r), { form: { client_id: "web", client_secret: secrets[r]!, ...form } });
  const authUrl = (r: string) => `${server.url}/realms/${r}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "web", redirect_uri: CB, response_type: "code", scope: "openid", state: "st",
  })}`;
  const events = (r: string, q = "") => api.get(`/admin/realms/${r}/events${q}`);

  /** Every flow once: browser login errors and success, code exchange, refresh, introspect, revoke, logouts. */
  async function runFlows(r: string): Promise<{ passwordGrantScope: string }> {
    const b = new BrowserSession(server.url);
    const login = await b.get(authUrl(r));
    const wrong = await b.submit(login, { username: "gina", password: "wrong-Pass-1" });
    expect(wrong.status).toBe(200);
    const unknown = await b.submit(wrong, { username: "nobody", password: "wrong-Pass-1" });
    const done = await b.submit(unknown, { username: "gina", password: PW });
    expect(done.status).toBe(302);
    const code = new URL(done.location).searchParams.get("code")!;
    leaked.push(code);
    const tokens = await token(r, { grant_type: "authorization_code", code, redirect_uri: CB });
    expect(tokens.status).toBe(200);
    leaked.push(tokens.body.access_token, tokens.body.refresh_token, tokens.body.id_token);
    const refreshed = await token(r, { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token });
    expect(refreshed.status).toBe(200);
    leaked.push(refreshed.body.access_token, refreshed.body.refresh_token);
    expect((await http("POST", `${tokenUrl(r)}/introspect`, { form: { client_id: "web", client_secret: secrets[r]!, token: refreshed.body.access_token } })).status).toBe(200);
    // Password grant: success, failure; client credentials: success, wrong secret.
    const pg = await token(r, { grant_type: "password", username: "gina", password: PW, scope: "openid" });
    expect(pg.status).toBe(200);
    leaked.push(pg.body.access_token, pg.body.refresh_token);
    expect((await token(r, { grant_type: "password", username: "gina", password: "wrong-Pass-1" })).status).toBe(400);
    expect((await token(r, { grant_type: "password", username: " nobody ", password: "wrong-Pass-1" })).status).toBe(400);
    expect((await token(r, { grant_type: "client_credentials" })).status).toBe(200);
    expect((await http("POST", tokenUrl(r), { form: { grant_type: "client_credentials", client_id: "web", client_secret: "not-the-secret" } })).status).toBe(401);
    expect((await http("POST", `${server.url}/realms/${r}/protocol/openid-connect/revoke`, { form: { client_id: "web", client_secret: secrets[r]!, token: pg.body.refresh_token } })).status).toBe(200);
    // API logout with the refresh token, then the browser's RP-initiated logout (confirmation page).
    expect((await http("POST", `${server.url}/realms/${r}/protocol/openid-connect/logout`, { form: { client_id: "web", client_secret: secrets[r]!, refresh_token: refreshed.body.refresh_token } })).status).toBe(204);
    const b2 = new BrowserSession(server.url);
    expect((await b2.submit(await b2.get(authUrl(r)), { username: "gina", password: PW })).status).toBe(302);
    const confirm = await b2.get(`${server.url}/realms/${r}/protocol/openid-connect/logout`);
    expect(confirm.status).toBe(200);
    const out = await b2.submit(confirm, { confirm: "yes" });
    expect(out.status).toBe(200);
    return { passwordGrantScope: pg.body.scope };
  }

  it("records each flow's types with client, user, session, IP and details, never a secret", async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const { passwordGrantScope } = await runFlows(realm);
    const all = await eventually(async () => (await events(realm)).body as any[], (e) => e.filter((x) => x.type === "LOGOUT").length >= 2);
    const got = all.map((e) => `${e.type}${e.error ? `:${e.error}` : ""}`).sort();
    expect(got).toEqual([
      "CLIENT_LOGIN", "CLIENT_LOGIN_ERROR:invalid_client", "CODE_TO_TOKEN", "INTROSPECT_TOKEN", "LOGIN", "LOGIN", "LOGIN", "LOGIN_ERROR:invalid_user_credentials",
      "LOGIN_ERROR:invalid_user_credentials", "LOGIN_ERROR:user_not_found", "LOGIN_ERROR:user_not_found", "LOGOUT", "LOGOUT", "REFRESH_TOKEN", "REVOKE_GRANT",
    ]);
    const browserLogin = all.find((e) => e.type === "LOGIN" && e.details.auth_method === "openid-connect");
    expect(browserLogin).toMatchObject({
      realm, clientId: "web", userId: userIds[realm], details: { auth_method: "openid-connect", redirect_uri: CB, username: "gina" },
    });
    expect(browserLogin.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(browserLogin.ipAddress).toMatch(/127\.0\.0\.1|::1/);
    // Every protocol endpoint's event names the caller's address, introspection and revocation too.
    for (const type of ["INTROSPECT_TOKEN", "REVOKE_GRANT", "CLIENT_LOGIN", "REFRESH_TOKEN"]) {
      expect([type, all.find((e) => e.type === type).ipAddress]).toEqual([type, expect.stringMatching(/127\.0\.0\.1|::1/)]);
    }
    for (const e of all) {
      expect(e.id).toBeTruthy();
      expect(Date.parse(e.time)).toBeGreaterThan(Date.parse(before));
      expect(e.realm).toBe(realm);
    }
    const unknown = all.find((e) => e.error === "user_not_found");
    expect(unknown.userId).toBe("");
    // The password grant's events name the account as the login page's do (Keycloak records the
    // username for direct grants too); a failed one names what was sent, an unknown user included.
    const byGrant = all.filter((e) => e.details.grant_type === "password")
      .map((e) => ({ type: e.type, error: e.error, userId: e.userId, details: e.details }))
      .sort((a, b) => `${a.type}${a.error}`.localeCompare(`${b.type}${b.error}`));
    expect(byGrant).toEqual([
      { type: "LOGIN", error: "", userId: userIds[realm], details: { grant_type: "password", scope: passwordGrantScope, refresh_token_type: "Refresh", username: "gina" } },
      { type: "LOGIN_ERROR", error: "invalid_user_credentials", userId: userIds[realm], details: { grant_type: "password", username: "gina" } },
      { type: "LOGIN_ERROR", error: "user_not_found", userId: "", details: { grant_type: "password", username: "nobody" } },
    ]);
    expect(all.find((e) => e.type === "CLIENT_LOGIN_ERROR").details).toEqual({ grant_type: "client_credentials" });
    const text = JSON.stringify(all);
    for (const s of leaked) expect(text).not.toContain(s);
    // Filters.
    const logins = (await events(realm, "?type=LOGIN")).body as any[];
    expect(logins.map((e) => e.type)).toEqual(["LOGIN", "LOGIN", "LOGIN"]);
    const byUser = (await events(realm, `?userId=${userIds[realm]}`)).body as any[];
    expect(byUser.length).toBeGreaterThanOrEqual(8);
    expect(byUser.every((e) => e.userId === userIds[realm])).toBe(true);
    // The browser logout without client_id / id_token_hint names no client.
    expect(all.filter((e) => !e.clientId).map((e) => e.type)).toEqual(["LOGOUT"]);
    expect(((await events(realm, "?clientId=web")).body as any[]).length).toBe(all.length - 1);
    expect((await events(realm, "?clientId=other")).body).toEqual([]);
    expect((await events(realm, `?dateTo=${encodeURIComponent(before)}`)).body).toEqual([]);
    expect(((await events(realm, `?dateFrom=${encodeURIComponent(before)}&type=LOGOUT`)).body as any[]).length).toBe(2);
    expect(((await events(realm, "?first=1&max=2")).body as any[]).length).toBe(2);
  }, 60_000);

  it("records a LOGIN when the SSO cookie logs the user in again, prompt=none included", async () => {
    const sso = uniqueName("ssoev");
    expect((await api.post("/admin/realms", { name: sso, eventsEnabled: true })).status).toBe(201);
    expect((await api.post(`/admin/realms/${sso}/clients`, { clientId: "web", clientType: "PUBLIC", redirectUris: [CB], grantTypes: ["authorization_code"] })).status).toBe(201);
    const u = await api.post(`/admin/realms/${sso}/users`, { username: "gina", password: PW });
    expect(u.status).toBe(201);
    const pkce = "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256";
    const b = new BrowserSession(server.url);
    const first = await b.submit(await b.get(authUrl(sso) + pkce), { username: "gina", password: PW });
    expect(first.status).toBe(302);
    const again = await b.get(authUrl(sso) + pkce);
    expect(again.status).toBe(302);
    expect(new URL(again.location).searchParams.get("code")).toBeTruthy();
    const silent = await b.get(`${authUrl(sso)}${pkce}&prompt=none`);
    expect(new URL(silent.location).searchParams.get("code")).toBeTruthy();
    const logins = await eventually(async () => (await events(sso, "?type=LOGIN")).body as any[], (e) => e.length >= 3);
    expect(logins).toHaveLength(3);
    const sessionIds = new Set(logins.map((e) => e.sessionId));
    expect(sessionIds.size).toBe(1);
    for (const e of logins) {
      expect(e).toMatchObject({ clientId: "web", userId: u.body.id, details: { auth_method: "openid-connect", redirect_uri: CB, username: "gina" } });
    }
  });

  it("records nothing when the realm's eventsEnabled is false", async () => {
    await runFlows(quiet);
    // The enabled realm's flows were stored by now; give the bus the same time for this one.
    await new Promise((r) => setTimeout(r, 500));
    expect((await events(quiet)).body).toEqual([]);
  }, 60_000);
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
