import bcrypt from "bcryptjs";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";

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
  const alertOf = (text: string) => /<p class="alert" role="alert">([^<]*)<\/p>/.exec(text)?.[1]?.replace(/&#39;/g, "'");

  it("asks for a new password at login once the password is older than passwordMaxAgeDays, with the policy enforced", async () => {
    // The password grant cannot run the required action (Keycloak: account not fully set up).
    expect((await grant("olga", "Old-Pass-1")).body.error).toBe("invalid_grant");
    const b = new BrowserSession(server.url);
    const update = await b.submit(await b.get(authUrl()), { username: "olga", password: "Old-Pass-1" });
    expect(update.status).toBe(200);
    expect(update.text).toContain("<title>Update your password");
    const weak = await b.submit(update, { "password-new": "nodigits-here", "password-confirm": "nodigits-here" });
    expect(alertOf(weak.text)).toMatch(/password does not meet the password policy: .*digit/);
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

  it("lets a user with a younger password straight in", async () => {
    const b = new BrowserSession(server.url);
    expect((await b.submit(await b.get(authUrl()), { username: "nina", password: "Old-Pass-1" })).status).toBe(302);
    expect((await grant("nina", "Old-Pass-1")).status).toBe(200);
  });
});
