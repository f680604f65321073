import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Brute-force lockout through the ways in (spec 3, 4.13, 7.4): the login page and the password
// grant count the same failures, and a locked user gets the same generic answer as a wrong password
// (no account enumeration). The failure-reset time (failureResetTime) cannot be waited out here: it
// is covered in-process with an injected clock by services/directory/src/brute-force.test.ts.
describe.each(targets())("lockout at login ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  const secrets: Record<string, string> = {};
  const CB = "http://localhost:3993/cb";
  const PW = "Lock-Pass-123";
  const BAD = "Not-The-Pass-1";

  async function newRealm(settings: Record<string, unknown>): Promise<string> {
    const name = uniqueName("lock");
    expect((await api.post("/admin/realms", { name, bruteForceEnabled: true, eventsEnabled: true, ...settings })).status).toBe(201);
    const c = await api.post(`/admin/realms/${name}/clients`, { clientId: "web", redirectUris: [CB], grantTypes: ["authorization_code", "password"] });
    expect(c.status).toBe(201);
    secrets[name] = c.body.secret;
    return name;
  }
  async function newUser(r: string, username: string): Promise<string> {
    const u = await api.post(`/admin/realms/${r}/users`, { username, password: PW });
    expect(u.status).toBe(201);
    return u.body.id;
  }

  beforeAll(async () => {
    server = await target.start("lockout-login");
    api = adminApi(server.url, server.apiKey);
    realm = await newRealm({ maxLoginFailures: 3, lockoutDuration: 900, permanentLockoutAfter: 2 });
  }, 90_000);
  afterAll(async () => server?.stop());

  const authUrl = (r: string) => `${server.url}/realms/${r}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "web", redirect_uri: CB, response_type: "code", scope: "openid", state: "st",
  })}`;
  const grant = (r: string, username: string, password: string) => http("POST", `${server.url}/realms/${r}/protocol/openid-connect/token`, {
    form: { grant_type: "password", client_id: "web", client_secret: secrets[r]!, username, password },
  });
  const locked = async (r: string) => (await api.get(`/admin/realms/${r}/brute-force/locked-users`)).body as any[];
  const alertOf = (text: string) => /<p class="alert" role="alert">([^<]*)<\/p>/.exec(text)?.[1];

  it("locks after maxLoginFailures on the login page, with the same message as a wrong password", async () => {
    const userId = await newUser(realm, "ivy");
    const b = new BrowserSession(server.url);
    let page = await b.get(authUrl(realm));
    for (let i = 0; i < 3; i++) {
      page = await b.submit(page, { username: "ivy", password: BAD });
      expect(page.status).toBe(200);
      expect(alertOf(page.text)).toBe("Invalid username or password.");
    }
    const refused = await b.submit(page, { username: "ivy", password: PW });
    expect(refused.status).toBe(200);
    expect(alertOf(refused.text)).toBe("Invalid username or password.");
    const list = await locked(realm);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ userId, username: "ivy", failureCount: 3, permanent: false, temporaryLockouts: 1 });
    expect(Date.parse(list[0].lockedUntil) - Date.now()).toBeGreaterThan(800_000);
    // The password grant gives a locked user exactly what a wrong password gets.
    const lockedGrant = await grant(realm, "ivy", PW);
    const wrongGrant = await grant(realm, "nobody-here", PW);
    expect(lockedGrant.status).toBe(400);
    expect(lockedGrant.body).toEqual(wrongGrant.body);
    expect(lockedGrant.body.error).toBe("invalid_grant");
    const errors = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=LOGIN_ERROR&userId=${userId}`)).body as any[], (e) => e.length === 5);
    expect(errors.map((e) => e.error).sort()).toEqual([
      "invalid_user_credentials", "invalid_user_credentials", "invalid_user_credentials", "user_temporarily_disabled", "user_temporarily_disabled",
    ]);
    // Unlock: the next login succeeds.
    expect((await api.post(`/admin/realms/${realm}/brute-force/users/${userId}/unlock`)).status).toBe(204);
    expect(await locked(realm)).toEqual([]);
    const ok = await b.submit(refused, { username: "ivy", password: PW });
    expect(ok.status).toBe(302);
  });

  it("counts password-grant failures the same way and locks permanently after permanentLockoutAfter lockouts", async () => {
    // 4 s: the locked grant below must land inside the lockout even on a busy cluster (1 s did not).
    const r = await newRealm({ maxLoginFailures: 2, lockoutDuration: 4, permanentLockoutAfter: 1 });
    const userId = await newUser(r, "jack");
    for (let i = 0; i < 2; i++) expect((await grant(r, "jack", BAD)).body.error).toBe("invalid_grant");
    expect((await locked(r))[0]).toMatchObject({ userId, failureCount: 2, permanent: false, temporaryLockouts: 1 });
    expect((await grant(r, "jack", PW)).body.error).toBe("invalid_grant");
    // The lockout runs out; the next lockout is the permanent one.
    await new Promise((res) => setTimeout(res, 4_300));
    for (let i = 0; i < 2; i++) expect((await grant(r, "jack", BAD)).body.error).toBe("invalid_grant");
    const rec = (await locked(r))[0];
    expect(rec).toMatchObject({ userId, permanent: true, lockedUntil: null });
    await new Promise((res) => setTimeout(res, 4_300));
    const b = new BrowserSession(server.url);
    const page = await b.submit(await b.get(authUrl(r)), { username: "jack", password: PW });
    expect(alertOf(page.text)).toBe("Invalid username or password.");
    expect((await grant(r, "jack", PW)).body).toEqual((await grant(r, "jack", BAD)).body);
    expect((await api.post(`/admin/realms/${r}/brute-force/users/${userId}/unlock`)).status).toBe(204);
    expect((await api.get(`/admin/realms/${r}/users/${userId}`)).body.enabled).toBe(true);
    expect((await grant(r, "jack", PW)).status).toBe(200);
  }, 30_000);

  it("counts 20 parallel failures exactly", async () => {
    const r = await newRealm({ maxLoginFailures: 20 });
    const userId = await newUser(r, "kate");
    const answers = await Promise.all(Array.from({ length: 20 }, () => grant(r, "kate", BAD)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(400));
    const list = await locked(r);
    expect(list.map((l) => [l.userId, l.failureCount])).toEqual([[userId, 20]]);
  }, 60_000);

  it("tells that an account is disabled only to whoever knows its password, on the page; the grant never tells", async () => {
    const r = await newRealm({});
    const userId = await newUser(r, "lena");
    expect((await api.put(`/admin/realms/${r}/users/${userId}`, { enabled: false })).status).toBe(200);
    const b = new BrowserSession(server.url);
    const wrong = await b.submit(await b.get(authUrl(r)), { username: "lena", password: BAD });
    expect(wrong.status).toBe(200);
    expect(alertOf(wrong.text)).toBe("Invalid username or password.");
    const unknown = await b.submit(wrong, { username: "nobody-here", password: BAD });
    expect(alertOf(unknown.text)).toBe("Invalid username or password.");
    const right = await b.submit(unknown, { username: "lena", password: PW });
    expect(right.status).toBe(200);
    expect(alertOf(right.text)).toBe("Account is disabled.");
    const generic = { error: "invalid_grant", error_description: "Invalid user credentials" };
    for (const [username, password] of [["lena", BAD], ["lena", PW], ["nobody-here", BAD]] as const) {
      const res = await grant(r, username, password);
      expect([res.status, res.body]).toEqual([400, generic]);
    }
    const errors = await eventually(async () => (await api.get(`/admin/realms/${r}/events?type=LOGIN_ERROR&userId=${userId}`)).body as any[], (e) => e.length === 4);
    expect(errors.map((e) => e.error)).toEqual(["user_disabled", "user_disabled", "user_disabled", "user_disabled"]);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
