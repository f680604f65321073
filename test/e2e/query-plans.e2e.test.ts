import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BrowserSession } from "./support/browser-session.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually } from "./support/targets.js";
import { pathToFileURL } from "node:url";
import { DIST } from "./support/process-runner.js";

/**
 * Every lookup on the OAuth and session paths goes through an index on what it looks for. The
 * embedded server runs with a preload that records SQLite's plan for each statement of its
 * document store (support/query-plans-preload.ts, loaded with --import); the test drives the flows, then reads the plans. A
 * statement is flagged when SQLite scans a table, or searches an index on fewer of the
 * statement's equality fields than it names (the realm-walk shape: `(realmId, createdAt)` chosen
 * for `realmId = ? AND userId = ?` to save a sort). The cluster's MongoDB stores declare the same
 * indexes; this checks the declarations and the queries on the store whose plans can be read.
 */
describe("query plans of the OAuth and session paths (embedded)", () => {
  const plansFile = join(mkdtempSync(join(tmpdir(), "tessera-plans-")), "plans.json");
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("query-plans", { TESSERA_TEST_QUERY_PLANS: plansFile }, {
      nodeArgs: ["--import", pathToFileURL(join(DIST, "test/e2e/support/query-plans-preload.js")).href],
    });
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  /** Statements that read or delete through the store, with SQLite's plan, as the server recorded them. */
  async function recordedPlans(): Promise<Array<[string, string]>> {
    server.process!.child.kill("SIGUSR2");
    for (let i = 0; i < 100 && !existsSync(plansFile); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 100));
    return JSON.parse(readFileSync(plansFile, "utf8")) as Array<[string, string]>;
  }

  it("never scans a table or walks a realm for a lookup", async () => {
    const realm = uniqueName("plans");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const redirectUri = "http://127.0.0.1:9/cb";
    const client = await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "app", redirectUris: [redirectUri],
      grantTypes: ["authorization_code", "refresh_token", "password", "client_credentials", "urn:ietf:params:oauth:grant-type:device_code"],
    });
    expect(client.status).toBe(201);
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "pat", email: "pat@example.test", password: "Plans-pass-1" });
    expect(user.status).toBe(201);
    const userId = user.body.id as string;
    const issuer = `${server.url}/realms/${realm}`;
    const basic = `Basic ${Buffer.from(`app:${client.body.secret as string}`).toString("base64")}`;
    const form = async (path: string, body: Record<string, string>) => {
      const res = await fetch(`${issuer}/protocol/openid-connect/${path}`, {
        method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic }, body: new URLSearchParams(body).toString(),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, string> };
    };

    // Code flow through the login page, token, userinfo, introspection, refresh, logout.
    const browser = new BrowserSession(server.url);
    const auth = new URL(`${issuer}/protocol/openid-connect/auth`);
    auth.search = new URLSearchParams({ client_id: "app", response_type: "code", scope: "openid", redirect_uri: redirectUri, state: "s1" }).toString();
    const done = await browser.submit(await browser.get(auth.href), { username: "pat", password: "Plans-pass-1" });
    expect(done.status).toBe(302);
    const code = new URL(done.location).searchParams.get("code")!;
    const tokens = await form("token", { grant_type: "authorization_code", code, redirect_uri: redirectUri });
    expect(tokens.status).toBe(200);
    expect((await fetch(`${issuer}/protocol/openid-connect/userinfo`, { headers: { authorization: `Bearer ${tokens.body.access_token}` } })).status).toBe(200);
    expect((await form("token/introspect", { token: tokens.body.access_token! })).body.active).toBe(true);
    const refreshed = await form("token", { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token! });
    expect(refreshed.status).toBe(200);
    expect((await form("logout", { refresh_token: refreshed.body.refresh_token! })).status).toBe(204);

    // Password grant (online and offline), revocation, client_credentials, the device grant.
    const online = await form("token", { grant_type: "password", username: "pat", password: "Plans-pass-1", scope: "openid" });
    const offline = await form("token", { grant_type: "password", username: "pat", password: "Plans-pass-1", scope: "openid offline_access" });
    expect([online.status, offline.status]).toEqual([200, 200]);
    expect((await form("revoke", { token: online.body.refresh_token! })).status).toBe(200);
    const cc = await form("token", { grant_type: "client_credentials" });
    expect(cc.status).toBe(200);
    const device = await form("auth/device", { scope: "openid" });
    expect(device.status).toBe(200);
    expect((await form("token", { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: device.body.device_code! })).body.error)
      .toBe("authorization_pending");

    // The account API as its console calls it: sessions, consents, credentials; its session signed out.
    const consoleUri = `${issuer}/account/`;
    const verifier = "v".repeat(50);
    const acct = new URL(`${issuer}/protocol/openid-connect/auth`);
    acct.search = new URLSearchParams({
      client_id: "account-console", response_type: "code", scope: "openid", redirect_uri: consoleUri, state: "s2",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256",
    }).toString();
    const accountBrowser = new BrowserSession(server.url);
    const back = await accountBrowser.submit(await accountBrowser.get(acct.href), { username: "pat", password: "Plans-pass-1" });
    const accountTokens = await http("POST", `${issuer}/protocol/openid-connect/token`, { form: {
      grant_type: "authorization_code", client_id: "account-console", code: new URL(back.location).searchParams.get("code")!, redirect_uri: consoleUri, code_verifier: verifier,
    } });
    expect(accountTokens.status).toBe(200);
    const account = (method: string, path: string) => http(method, `${issuer}/account${path}`, { headers: { Authorization: `Bearer ${accountTokens.body.access_token}` } });
    const mine = await account("GET", "/sessions");
    expect(mine.status).toBe(200);
    expect((await account("GET", "/applications")).status).toBe(200);
    expect((await account("GET", "/credentials")).status).toBe(200);
    expect((await account("DELETE", "/applications/app/consent")).status).toBe(404);
    expect((await account("DELETE", `/sessions/${mine.body[0].id}`)).status).toBe(204);

    // The sessions admin: realm and user lists, offline sessions, revoke all; then the user's deletion ends the rest.
    expect((await api.get(`/admin/realms/${realm}/sessions`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/sessions`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/offline-sessions`)).status).toBe(200);
    expect((await api.del(`/admin/realms/${realm}/users/${userId}/sessions`)).status).toBe(200);
    // A password change and a disable end the user's sessions created up to the event (a createdAt bound).
    const session = await form("token", { grant_type: "password", username: "pat", password: "Plans-pass-1", scope: "openid" });
    expect(session.status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}/users/${userId}/reset-password`, { password: "Plans-pass-2" })).status).toBe(204);
    expect((await eventually(() => form("token/introspect", { token: session.body.access_token! }), (r) => (r.body.active as unknown) === false)).body).toEqual({ active: false });
    expect((await api.put(`/admin/realms/${realm}/users/${userId}`, { enabled: false })).status).toBe(200);
    expect((await api.del(`/admin/realms/${realm}/users/${userId}`)).status).toBe(204);

    // The client's deletion ends its sessions and revokes its tokens; another client introspects
    // (one read of the deny list) until the consumer is done.
    const rs = await api.post(`/admin/realms/${realm}/clients`, { clientId: "rs", grantTypes: ["client_credentials"] });
    expect(rs.status).toBe(201);
    expect((await api.del(`/admin/realms/${realm}/clients/app`)).status).toBe(204);
    const introspectAsRs = async () => (await fetch(`${issuer}/protocol/openid-connect/token/introspect`, {
      method: "POST", body: new URLSearchParams({ token: cc.body.access_token! }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`rs:${rs.body.secret as string}`).toString("base64")}` },
    }).then((r) => r.json())) as { active: boolean };
    expect((await eventually(introspectAsRs, (r) => !r.active)).active).toBe(false);

    // Dynamic client registration: an initial access token's use, the registration access token's reads and rotation.
    const iat = await api.post(`/admin/realms/${realm}/clients-initial-access`, { count: 2 });
    expect((await api.get(`/admin/realms/${realm}/clients-initial-access`)).status).toBe(200);
    const registered = await fetch(`${issuer}/clients-registrations/openid-connect`, {
      method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${iat.body.token as string}` },
      body: JSON.stringify({ grant_types: ["client_credentials"] }),
    }).then((r) => r.json()) as Record<string, string>;
    const manage = (method: string, token: string, body?: unknown) => fetch(registered.registration_client_uri!, {
      method, headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, ...(body ? { body: JSON.stringify(body) } : {}),
    });
    expect((await manage("GET", registered.registration_access_token!)).status).toBe(200);
    const put = await manage("PUT", registered.registration_access_token!, { client_id: registered.client_id, grant_types: ["client_credentials"] });
    expect((await manage("DELETE", ((await put.json()) as Record<string, string>).registration_access_token!)).status).toBe(204);
    expect((await api.del(`/admin/realms/${realm}/clients-initial-access/${iat.body.id as string}`)).status).toBe(204);

    // Authentication flows: created, listed, run by the password grant (a role condition), refused while a client uses one.
    const flows = `/admin/realms/${realm}/authentication/flows`;
    const flow = await api.post(flows, { alias: "f", steps: [{ type: "username-password", requirement: "REQUIRED" },
      { type: "otp", requirement: "CONDITIONAL", condition: { type: "condition-user-role", config: { role: "r" } } }] });
    const pw = await api.post(`/admin/realms/${realm}/clients`, { clientId: "pw", grantTypes: ["password"], directGrantFlowOverride: "f" });
    expect(pw.status).toBe(201);
    expect((await api.put(`/admin/realms/${realm}`, { directGrantFlow: "f" })).status).toBe(200);
    expect((await api.get(`${flows}?first=2&max=5`)).body).toHaveLength(1);
    expect((await api.del(`${flows}/${flow.body.id as string}`)).status).toBe(409);
    const flowUser = await api.post(`/admin/realms/${realm}/users`, { username: "flo", password: "Plans-pass-1" });
    expect(flowUser.status).toBe(201);
    expect((await http("POST", `${issuer}/protocol/openid-connect/token`, { form: {
      grant_type: "password", client_id: "pw", client_secret: pw.body.secret as string, username: "flo", password: "Plans-pass-1",
    } })).status).toBe(200);

    const plans = await recordedPlans();
    // The deletion also took "app" out of the realm's SSO sessions (SsoSessionRepository.forgetClient):
    // SQLite cannot index array elements, so the realm's index narrows and each session's own
    // clientIds is read (json_each); the MongoDB store declares the multikey index instead.
    const forget = plans.filter(([sql]) => sql.includes(`SELECT doc FROM "sso_sessions"`) && sql.includes("json_each(doc, '$.clientIds')"));
    expect(forget.map(([, plan]) => plan)).toEqual([expect.stringMatching(/^SEARCH sso_sessions USING INDEX sso_sessions__realmId_1_\S+ \(<expr>=\?\)/)]);
    const flagged = plans.filter(([sql, plan]) => walks(sql, plan)).map(([sql, plan]) => `${sql.replace(/\s+/g, " ").slice(0, 200)} -> ${plan}`);
    // Read enough to mean something: the flows above run dozens of distinct statements.
    expect(plans.length).toBeGreaterThan(30);
    // The user's SSO sessions and families up to an event's time were read, through the user's index.
    const upTo = (table: string) => plans.filter(([sql]) => sql.includes(`FROM "${table}"`) && sql.includes("json_extract(doc, '$.userId') IS ?") && /json_extract\(doc, '\$\.createdAt'\) <= \?/.test(sql)).map(([, plan]) => plan);
    expect(upTo("sso_sessions")).toEqual([expect.stringContaining("USING INDEX sso_sessions__realmId_1_userId_1_createdAt_1 (<expr>=? AND <expr>=? AND <expr><?)")]);
    expect(upTo("refresh_families")).toEqual([expect.stringContaining("USING INDEX refresh_families__realmId_1_userId_1_offline_1_createdAt_1 (<expr>=? AND <expr>=?)")]);
    // The realm's OAuth sessions (spec 4.7) are read from (realmId, offline, createdAt), not filtered out of the realm's families.
    const realmPage = plans.filter(([sql]) => sql.startsWith('SELECT doc FROM "refresh_families" WHERE (json_extract(doc, \'$.realmId\') IS ? AND (json_extract(doc, \'$.offline\') IS ?'));
    expect(realmPage.map(([, plan]) => plan)).toEqual([
      "SEARCH refresh_families USING INDEX refresh_families__realmId_1_offline_1_createdAt_1 (<expr>=? AND <expr>=?) | USE TEMP B-TREE FOR LAST TERM OF ORDER BY",
    ]);
    expect(flagged).toEqual([]);
  });
});

/**
 * A table scan, or an index search on fewer equality fields than the statement names (booleans
 * included: the store reads them as `json_extract(...) IS ?` too, so an index can hold them). Lookups
 * by `_id` (the table's own unique index) are exact whatever else they name. A json_each scan
 * reads one row's own array (the store's `$includes`), not a table. The member-order
 * backfill's one start-up search for memberships without a username key is a scan on purpose (it
 * runs once per store, then is recorded as done).
 */
function walks(sql: string, plan: string): boolean {
  if (sql.includes("'$.usernameKey') IS NULL")) return false;
  if (/\bSCAN (?!CONSTANT ROW|json_each )/.test(plan)) return true;
  const search = /USING (?:COVERING )?INDEX (\S+) \(([^)]*)\)/.exec(plan);
  if (!search || search[1]!.startsWith("sqlite_autoindex")) return false;
  const used = (search[2]!.match(/=\?/g) ?? []).length;
  const where = sql.split(/ ORDER BY /)[0]!;
  const asked = (where.match(/json_extract\(doc, '\$\.[A-Za-z]+'\) IS \?/g) ?? []).length;
  return used < asked;
}
