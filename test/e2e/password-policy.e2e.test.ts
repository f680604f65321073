import bcrypt from "bcryptjs";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Password policy at login (spec 2.1 passwordMaxAgeDays; the policy rules themselves at user
// creation and reset-password are in user-passwords.e2e.test.ts). Max age needs an old password:
// the user import takes Keycloak's credentials[].createdDate, so no clock has to be moved.
describe.each(targets())("password max age at login ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  const CB = "http://localhost:3992/cb";
  const DAY = 86_400_000;

  beforeAll(async () => {
    server = await target.start("password-policy");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("maxage");
    expect((await api.post("/admin/realms", { name: realm, passwordMaxAgeDays: 30, passwordRequireDigits: true, eventsEnabled: true })).status).toBe(201);
    const c = await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", redirectUris: [CB], grantTypes: ["authorization_code", "password"] });
    expect(c.status).toBe(201);
    secret = c.body.secret;
    const hash = await bcrypt.hash("Old-Pass-1", 4);
    const res = await api.post(`/admin/realms/${realm}/users/import`, { users: [
      { username: "olga", credentials: [{ type: "password", hashedSaltedValue: hash, algorithm: "bcrypt", createdDate: Date.now() - 60 * DAY }] },
      { username: "nina", credentials: [{ type: "password", hashedSaltedValue: hash, algorithm: "bcrypt", createdDate: Date.now() - 5 * DAY }] },
    ] });
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(2);
  }, 90_000);
  afterAll(async () => server?.stop());

  const authUrl = () => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "web", redirect_uri: CB, response_type: "code", scope: "openid", state: "st",
  })}`;
  const grant = (username: string, password: string) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    form: { grant_type: "password", client_id: "web", client_secret: secret, username, password },
  });
  const listOf = (text: string) => /<ul class="alert" role="alert" id="password-errors">(.*?)<\/ul>/s.exec(text)?.[1]
    ?.split("</li>").filter((li) => li.includes("<li>")).map((li) => li.replace(/^.*<li>/s, "").replace(/&#39;/g, "'"));
  const alertOf = (text: string) => /<p class="alert" role="alert">([^<]*)<\/p>/.exec(text)?.[1]?.replace(/&#39;/g, "'");

  it("asks for a new password at login once the password is older than passwordMaxAgeDays, with the policy enforced", async () => {
    // The password grant cannot run the required action; it says so, as Keycloak does, only to the right password.
    const pending = await grant("olga", "Old-Pass-1");
    expect([pending.status, pending.body]).toEqual([400, { error: "invalid_grant", error_description: "Account is not fully set up" }]);
    const wrong = await grant("olga", "Not-The-Pass-1");
    expect([wrong.status, wrong.body]).toEqual([400, { error: "invalid_grant", error_description: "Invalid user credentials" }]);
    const b = new BrowserSession(server.url);
    const update = await b.submit(await b.get(authUrl()), { username: "olga", password: "Old-Pass-1" });
    expect(update.status).toBe(200);
    expect(update.text).toContain("<title>Update your password");
    const weak = await b.submit(update, { "password-new": "nodigits-here", "password-confirm": "nodigits-here" });
    expect(weak.status).toBe(200);
    // Listed as the registration page lists the same refusal.
    expect(alertOf(weak.text)).toBeUndefined();
    expect(listOf(weak.text)).toEqual(["The password does not meet the password policy:", "- a digit"]);
    const mismatch = await b.submit(weak, { "password-new": "New-Pass-2", "password-confirm": "New-Pass-3" });
    expect(alertOf(mismatch.text)).toBe("The passwords do not match.");
    const done = await b.submit(mismatch, { "password-new": "New-Pass-2", "password-confirm": "New-Pass-2" });
    expect(done.status).toBe(302);
    expect(new URL(done.location).searchParams.get("code")).toBeTruthy();
    const ev = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=UPDATE_PASSWORD`)).body as any[], (e) => e.length === 1);
    expect(ev[0]).toMatchObject({ clientId: "web", details: { username: "olga" } });
    expect(JSON.stringify(ev)).not.toContain("New-Pass-2");
    // The new password is fresh: no more update page, and the password grant works.
    const again = new BrowserSession(server.url);
    expect((await again.submit(await again.get(authUrl()), { username: "olga", password: "New-Pass-2" })).status).toBe(302);
    expect((await grant("olga", "New-Pass-2")).status).toBe(200);
  });

  it("answers the password grant of every pending required action with Account is not fully set up, a wrong password generically", async () => {
    const actions = uniqueName("actions");
    expect((await api.post("/admin/realms", { name: actions, requireEmailVerification: true, eventsEnabled: true })).status).toBe(201);
    const totp = uniqueName("totp");
    expect((await api.post("/admin/realms", { name: totp, mfaRequired: true })).status).toBe(201);
    const secrets: Record<string, string> = {};
    for (const r of [actions, totp]) {
      const c = await api.post(`/admin/realms/${r}/clients`, { clientId: "web", redirectUris: [CB], grantTypes: ["password"] });
      expect(c.status).toBe(201);
      secrets[r] = c.body.secret;
    }
    const users: Array<[string, Record<string, unknown>]> = [
      [actions, { username: "vera", email: "vera@example.com", emailVerified: false }],
      [actions, { username: "rita", email: "rita@example.com", emailVerified: true, requirePasswordReset: true }],
      [actions, { username: "done", email: "done@example.com", emailVerified: true }],
      [totp, { username: "tom" }],
    ];
    for (const [r, user] of users) expect((await api.post(`/admin/realms/${r}/users`, { ...user, password: "Set-Up-Pass-1" })).status).toBe(201);
    const grantIn = (r: string, username: string, password: string) => http("POST", `${server.url}/realms/${r}/protocol/openid-connect/token`, {
      form: { grant_type: "password", client_id: "web", client_secret: secrets[r]!, username, password },
    });
    const notSetUp = [400, { error: "invalid_grant", error_description: "Account is not fully set up" }];
    const invalid = [400, { error: "invalid_grant", error_description: "Invalid user credentials" }];
    const answers: unknown[] = [];
    for (const [r, username, password] of [
      [actions, "vera", "Set-Up-Pass-1"], [actions, "rita", "Set-Up-Pass-1"], [totp, "tom", "Set-Up-Pass-1"],
      [actions, "vera", "Wrong-Pass-1"], [actions, "nobody", "Set-Up-Pass-1"],
    ] as const) {
      const res = await grantIn(r, username, password);
      answers.push([username, res.status, res.body]);
    }
    expect(answers).toEqual([["vera", ...notSetUp], ["rita", ...notSetUp], ["tom", ...notSetUp], ["vera", ...invalid], ["nobody", ...invalid]]);
    expect((await grantIn(actions, "done", "Set-Up-Pass-1")).status).toBe(200);
    const errors = await eventually(async () => (await api.get(`/admin/realms/${actions}/events?type=LOGIN_ERROR`)).body as any[], (e) => e.length === 4);
    expect(errors.map((e) => e.error).sort()).toEqual(["invalid_user_credentials", "resolve_required_actions", "resolve_required_actions", "user_not_found"]);
  });

  it("lets a user with a younger password straight in", async () => {
    const b = new BrowserSession(server.url);
    expect((await b.submit(await b.get(authUrl()), { username: "nina", password: "Old-Pass-1" })).status).toBe(302);
    expect((await grant("nina", "Old-Pass-1")).status).toBe(200);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
