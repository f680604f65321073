import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, type PageResponse } from "./support/browser-session.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

const FIELDS = ["rememberMe", "ssoSessionIdleTimeoutRememberMe", "ssoSessionMaxLifespanRememberMe"] as const;
const CB = "http://localhost:3994/cb";
const PW = "Remember-Pass-42";
const CHECKBOX = /<input type="checkbox" id="rememberMe" name="rememberMe"( checked)?>/;

/** A cookie a response set: its value and attributes (names lowercased, flags true); undefined when not set. */
function setCookie(res: PageResponse, name: string): { value: string; attributes: Record<string, string | true> } | undefined {
  const header = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!header) return undefined;
  const [pair, ...attrs] = header.split(/;\s*/);
  const attributes: Record<string, string | true> = {};
  for (const a of attrs) {
    const eq = a.indexOf("=");
    attributes[(eq < 0 ? a : a.slice(0, eq)).toLowerCase()] = eq < 0 ? true : a.slice(eq + 1);
  }
  return { value: pair!.slice(name.length + 1), attributes };
}

/** The value of the username field of a login page. */
const usernameField = (page: PageResponse) => /<input type="text" id="username" name="username" value="([^"]*)"/.exec(page.text)?.[1];

/**
 * Keycloak's "Remember me" (docs/hosted-pages.md, docs/admin-api.md): the realm's rememberMe and
 * its SSO Session Idle / Max Remember Me through the Admin API, realm export and import, and a
 * Keycloak realm export.
 */
describe.each(targets())("Remember me ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("remember-me");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());
  afterAll(() => expectResponsesDocumented(recorded));

  const settingsOf = (realm: Record<string, unknown>) => FIELDS.map((f) => realm[f]);

  it("keeps rememberMe and its lifespans as realm settings: off and 0 by default, checked, exported and imported", async () => {
    const r = uniqueName("rm-settings");
    const created = await api.post("/admin/realms", { name: r });
    expect([created.status, ...settingsOf(created.body)]).toEqual([201, false, 0, 0]);
    for (const field of ["ssoSessionIdleTimeoutRememberMe", "ssoSessionMaxLifespanRememberMe"]) {
      const message = `${field} must be an integer between 0 and 315360000`;
      const bad = await api.put(`/admin/realms/${r}`, { [field]: -1 });
      expect([bad.status, bad.body]).toEqual([400, { error: "invalid_request", message, field }]);
      const badCreate = await api.post("/admin/realms", { name: uniqueName("rm-bad"), [field]: -60 });
      expect([badCreate.status, badCreate.body]).toEqual([400, { error: "invalid_request", message, field }]);
    }
    const notBoolean = await api.put(`/admin/realms/${r}`, { rememberMe: "yes" });
    expect([notBoolean.status, notBoolean.body]).toEqual([400, { error: "invalid_field", message: "rememberMe must be a boolean", field: "rememberMe" }]);
    expect(settingsOf((await api.get(`/admin/realms/${r}`)).body)).toEqual([false, 0, 0]);

    const on = await api.put(`/admin/realms/${r}`, { rememberMe: true, ssoSessionIdleTimeoutRememberMe: 86_400, ssoSessionMaxLifespanRememberMe: 1_209_600 });
    expect([on.status, ...settingsOf(on.body)]).toEqual([200, true, 86_400, 1_209_600]);
    expect(settingsOf((await api.get(`/admin/realms/${r}`)).body)).toEqual([true, 86_400, 1_209_600]);

    const doc = (await api.get(`/admin/realms/${r}/export`)).body;
    expect(settingsOf(doc.realm)).toEqual([true, 86_400, 1_209_600]);
    expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
    const restored = await api.post("/admin/realms/import", doc);
    expect([restored.status, ...settingsOf(restored.body), restored.body.importReport]).toEqual([201, true, 86_400, 1_209_600, []]);
    expect(settingsOf((await api.get(`/admin/realms/${r}`)).body)).toEqual([true, 86_400, 1_209_600]);
    // A document exported before the settings existed imports with Keycloak's defaults.
    for (const f of FIELDS) delete doc.realm[f];
    const older = await api.post("/admin/realms/import?overwrite=true", doc);
    expect([older.status, ...settingsOf(older.body)]).toEqual([201, false, 0, 0]);
    expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
  });

  /** A realm with `settings`, its client `web` and the user alice. */
  async function realmWith(prefix: string, settings: Record<string, unknown>): Promise<{ name: string; secret: string; userId: string }> {
    const name = uniqueName(prefix);
    expect((await api.post("/admin/realms", { name, ...settings })).status).toBe(201);
    const client = await api.post(`/admin/realms/${name}/clients`, {
      clientId: "web", clientType: "CONFIDENTIAL", redirectUris: [CB], grantTypes: ["authorization_code", "refresh_token"],
    });
    expect(client.status).toBe(201);
    const user = await api.post(`/admin/realms/${name}/users`, { username: "alice", password: PW });
    expect(user.status).toBe(201);
    return { name, secret: client.body.secret, userId: user.body.id };
  }

  const authUrl = (realm: string, extra: Record<string, string> = {}) => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "web", redirect_uri: CB, response_type: "code", scope: "openid", state: "st", ...extra,
  })}`;
  const redeem = (realm: { name: string; secret: string }, done: PageResponse) => http("POST", `${server.url}/realms/${realm.name}/protocol/openid-connect/token`, {
    form: { grant_type: "authorization_code", code: new URL(done.location).searchParams.get("code")!, redirect_uri: CB, client_id: "web", client_secret: realm.secret },
  });
  /** The user's sessions as the Admin API lists them: type, rememberMe, and how long past its last use each ends (ms). */
  const sessionsOf = async (realm: { name: string; userId: string }) => ((await api.get(`/admin/realms/${realm.name}/users/${realm.userId}/sessions`)).body as any[])
    .map((x) => [x.type, x.rememberMe ?? false, Date.parse(x.expires) - Date.parse(x.lastAccess)]).sort();
  /** RP-initiated logout in the browser, confirmed on its page. */
  async function logOut(b: BrowserSession, realm: string): Promise<PageResponse> {
    const out = await b.submit(await b.get(`${server.url}/realms/${realm}/protocol/openid-connect/logout`), { confirm: "yes" });
    expect(out.status).toBe(200);
    return out;
  }

  it("has no box without the realm's rememberMe, and ignores a posted rememberMe=on: a session cookie, the usual bounds", async () => {
    const realm = await realmWith("rm-off", { refreshTokenLifespan: 1800 });
    const b = new BrowserSession(server.url);
    const page = await b.get(authUrl(realm.name));
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("rememberMe");
    const done = await b.submit(page, { username: "alice", password: PW, rememberMe: "on" });
    expect(done.status).toBe(302);
    expect(setCookie(done, "TESSERA_SESSION")?.attributes).toEqual({ path: `/realms/${realm.name}/`, httponly: true, samesite: "Lax" });
    expect(setCookie(done, "TESSERA_REMEMBER_ME")).toBeUndefined();
    const tokens = await redeem(realm, done);
    expect([tokens.status, tokens.body.refresh_expires_in]).toEqual([200, 1800]);
    expect(await sessionsOf(realm)).toEqual([["oauth", false, 1_800_000], ["sso", false, 1_800_000]]);
  });

  it("remembers a ticked login: a persistent cookie, the username for next time, the remember-me bounds and the event detail", async () => {
    const realm = await realmWith("rm-on", {
      rememberMe: true, refreshTokenLifespan: 1800, ssoSessionIdleTimeoutRememberMe: 7200, ssoSessionMaxLifespanRememberMe: 1_209_600, eventsEnabled: true,
    });
    const b = new BrowserSession(server.url);
    const page = await b.get(authUrl(realm.name));
    expect([page.status, CHECKBOX.exec(page.text)?.[0]]).toEqual([200, '<input type="checkbox" id="rememberMe" name="rememberMe">']);
    expect(page.text).toContain('<label for="rememberMe">Remember me</label>');
    // A wrong password keeps the box as it was ticked.
    const wrong = await b.submit(page, { username: "alice", password: "not-the-password", rememberMe: "on" });
    expect([wrong.status, CHECKBOX.exec(wrong.text)?.[1], usernameField(wrong)]).toEqual([200, " checked", "alice"]);
    const done = await b.submit(wrong, { username: "alice", password: PW, rememberMe: "on" });
    expect(done.status).toBe(302);
    const sso = setCookie(done, "TESSERA_SESSION")!;
    expect([sso.attributes["max-age"], sso.attributes.path, sso.attributes.httponly, sso.attributes.samesite]).toEqual(["1209600", `/realms/${realm.name}/`, true, "Lax"]);
    expect(Date.parse(sso.attributes.expires as string) - Date.now()).toBeGreaterThan(1_209_500_000);
    expect(setCookie(done, "TESSERA_REMEMBER_ME")).toEqual({
      value: "alice", attributes: { "max-age": "31536000", path: `/realms/${realm.name}/`, expires: expect.any(String), httponly: true, samesite: "Lax" },
    });
    // Idle bound: ssoSessionIdleTimeoutRememberMe for the SSO session and its refresh token alike.
    const tokens = await redeem(realm, done);
    expect(tokens.status).toBe(200);
    // The session's idle end was set at the login, a moment before the token request.
    expect(7200 - tokens.body.refresh_expires_in).toBeGreaterThanOrEqual(0);
    expect(7200 - tokens.body.refresh_expires_in).toBeLessThanOrEqual(5);
    expect(await sessionsOf(realm)).toEqual([["oauth", true, 7_200_000], ["sso", true, 7_200_000]]);
    const refreshed = await http("POST", `${server.url}/realms/${realm.name}/protocol/openid-connect/token`, {
      form: { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token, client_id: "web", client_secret: realm.secret },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_expires_in).toBeGreaterThan(1800);
    const login = await eventually(async () => ((await api.get(`/admin/realms/${realm.name}/events?type=LOGIN`)).body as any[]), (e) => e.length === 1);
    expect(login.map((e) => e.details)).toEqual([{ auth_method: "openid-connect", redirect_uri: CB, username: "alice", remember_me: "true" }]);

    // After a logout the next login page offers the remembered username, ticked.
    const out = await logOut(b, realm.name);
    expect(setCookie(out, "TESSERA_REMEMBER_ME")).toBeUndefined();
    const again = await b.get(authUrl(realm.name));
    expect([again.status, usernameField(again), CHECKBOX.exec(again.text)?.[1]]).toEqual([200, "alice", " checked"]);
    // A client's login_hint names the user instead, and the box is not ticked for them.
    const hinted = await b.get(authUrl(realm.name, { login_hint: "bob" }));
    expect([usernameField(hinted), CHECKBOX.exec(hinted.text)?.[0]]).toEqual(["bob", '<input type="checkbox" id="rememberMe" name="rememberMe">']);

    // A login without the box forgets the username and keeps a session cookie.
    const plain = await b.submit(again, { username: "alice", password: PW });
    expect(plain.status).toBe(302);
    expect(setCookie(plain, "TESSERA_SESSION")?.attributes["max-age"]).toBeUndefined();
    expect(setCookie(plain, "TESSERA_REMEMBER_ME")).toEqual({
      value: "", attributes: { path: `/realms/${realm.name}/`, expires: "Thu, 01 Jan 1970 00:00:00 GMT", httponly: true, samesite: "Lax" },
    });
    expect(b.cookies.has("TESSERA_REMEMBER_ME")).toBe(false);
    await logOut(b, realm.name);
    const fresh = await b.get(authUrl(realm.name));
    expect([usernameField(fresh), CHECKBOX.exec(fresh.text)?.[0]]).toEqual(["", '<input type="checkbox" id="rememberMe" name="rememberMe">']);
  });

  it("offers the box on the username page of an identity-first login and carries it to the password page", async () => {
    const realm = await realmWith("rm-first", { rememberMe: true, organizationsEnabled: true, ssoSessionMaxLifespanRememberMe: 86_400 });
    expect((await api.post(`/admin/realms/${realm.name}/organizations`, { name: "Acme", alias: "acme" })).status).toBe(201);
    const b = new BrowserSession(server.url);
    const first = await b.get(authUrl(realm.name));
    expect([first.text.includes('id="identity-first-next"'), first.text.includes('name="password"'), CHECKBOX.exec(first.text)?.[0]]).toEqual([true, false, '<input type="checkbox" id="rememberMe" name="rememberMe">']);
    const second = await b.submit(first, { username: "alice", rememberMe: "on" });
    expect([second.status, second.text.includes('name="password"'), usernameField(second), CHECKBOX.exec(second.text)?.[1]]).toEqual([200, true, "alice", " checked"]);
    const done = await b.submit(second, { password: PW, rememberMe: "on" });
    expect([done.status, setCookie(done, "TESSERA_SESSION")?.attributes["max-age"], setCookie(done, "TESSERA_REMEMBER_ME")?.value]).toEqual([302, "86400", "alice"]);
  });

  it("keeps a remembered session past the usual idle bound, by ssoSessionIdleTimeoutRememberMe, with SSO Session Max as the cookie's age", async () => {
    // The usual idle bound is 2 s; a remembered login's an hour; no remember-me max, so SSO Session Max.
    const realm = await realmWith("rm-idle", { rememberMe: true, refreshTokenLifespan: 2, ssoSessionIdleTimeoutRememberMe: 3600, ssoSessionMaxLifespan: 50_000 });
    const usual = new BrowserSession(server.url);
    const remembered = new BrowserSession(server.url);
    expect((await usual.submit(await usual.get(authUrl(realm.name)), { username: "alice", password: PW })).status).toBe(302);
    const done = await remembered.submit(await remembered.get(authUrl(realm.name)), { username: "alice", password: PW, rememberMe: "on" });
    expect([done.status, setCookie(done, "TESSERA_SESSION")?.attributes["max-age"]]).toEqual([302, "50000"]);
    await new Promise((r) => setTimeout(r, 3500));
    // prompt=none: the usual session ended with its idle bound; the remembered one answers with a code.
    const silent = async (b: BrowserSession) => new URL((await b.get(authUrl(realm.name, { prompt: "none" }))).location).searchParams;
    expect((await silent(usual)).get("error")).toBe("login_required");
    const code = await silent(remembered);
    expect([code.get("error"), code.get("code")]).toEqual([null, expect.stringMatching(/\S{20,}/)]);
  });

  it("takes the three fields of a Keycloak realm export under their own names, with nothing to report", async () => {
    const name = uniqueName("rm-kc");
    const kc = await api.post("/admin/realms/import", {
      realm: name, enabled: true, rememberMe: true, ssoSessionIdleTimeoutRememberMe: 3600, ssoSessionMaxLifespanRememberMe: 0,
    });
    expect([kc.status, ...settingsOf(kc.body), kc.body.importReport]).toEqual([201, true, 3600, 0, []]);
    expect((await api.del(`/admin/realms/${name}`)).status).toBe(200);
  });
});
