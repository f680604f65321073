import { generate } from "otplib";
import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";
import { eventually } from "./support/targets.js";
import { checkPage, consolePage, launchChromium, signInToAccountConsole } from "./support/console-browser.js";

/**
 * The account console in a real Chromium (DESIGN 6 tier 4): a user signs in through the realm's
 * hosted login page (authorization code + PKCE as `account-console`), edits the profile, signs out
 * another device, revokes a consent, enrols and removes TOTP and changes the password, each page checked by axe-core and
 * saved as a screenshot under test/artifacts/console/, no CSP violation anywhere.
 */
describeTier("account console in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;
  const realm = uniqueName("acctui");
  const PASSWORD = "Erin-Secret-12";
  const NEW_PASSWORD = "Erin-Fresh-Pass-34";
  const CB = "http://localhost:3996/cb";
  let erinId = "";

  beforeAll(async () => {
    server = await startEmbeddedServer("account-console");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
    expect((await api.post("/admin/realms", { name: realm, passwordMinLength: 14 })).status).toBe(201);
    const erin = await api.post(`/admin/realms/${realm}/users`, { username: "erin", email: "erin@example.com", emailVerified: true, firstName: "Erin", lastName: "Ode", password: PASSWORD });
    expect(erin.status).toBe(201);
    erinId = erin.body.id;
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "asks", name: "Asking App", clientType: "PUBLIC", redirectUris: [CB], requireConsent: true })).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A sign-in over HTTP (another device): the consenting app's, or the account console's. */
  async function otherDevice(clientId: string, redirectUri: string) {
    const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), redirectUri, PASSWORD).calls();
    const b = new BrowserSession(server.url);
    const config = await rp(clientId);
    const s = await start(config, { scope: "openid" });
    let page = await login(b, await b.get(s.url.href), "erin");
    if (page.status === 200) page = await b.submit(page, { decision: "approve" });
    const tokens = await redeem(config, s, page);
    return { refresh: tokens.refresh_token!, sid: String(tokens.claims()!.sid) };
  }
  const refresh = (clientId: string, token: string) =>
    http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, { form: { grant_type: "refresh_token", client_id: clientId, refresh_token: token } });

  it("shows the console when its sign-in finishes before the page's first frame, as in a background tab", async () => {
    const finn = await api.post(`/admin/realms/${realm}/users`, { username: "finn", email: "finn@example.com", emailVerified: true, firstName: "Finn", lastName: "Ode", password: PASSWORD });
    expect(finn.status).toBe(201);
    const context = await browser.newContext();
    // A background tab draws no frames and runs its timers late (at most once a second), so
    // Preact's effects, the console's subscription to its session among them, run only after the
    // sign-in has finished: the console must still show itself, not stay at "Signing in…".
    await context.addInitScript(() => {
      window.requestAnimationFrame = () => 0;
      const later = window.setTimeout;
      window.setTimeout = ((fn: TimerHandler, ms?: number, ...args: unknown[]) => later(fn, Math.max(ms ?? 0, 1000), ...args)) as typeof window.setTimeout;
    });
    const { page, problems } = await consolePage(context);
    try {
      await signInToAccountConsole(page, server.url, realm, { username: "finn", password: PASSWORD });
      await page.getByRole("heading", { name: "Personal info", level: 1 }).waitFor();
      expect(await page.title()).toBe(`Personal info · ${realm} · Account console`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("shows the username as text unless the realm's editUsernameAllowed is set, then saves a new one and shows the API's refusal beside it", async () => {
    const named = uniqueName("acctui-rename");
    expect((await api.post("/admin/realms", { name: named })).status).toBe(201);
    const gwen = await api.post(`/admin/realms/${named}/users`, { username: "gwen", email: "gwen@example.com", password: PASSWORD });
    expect(gwen.status).toBe(201);
    expect((await api.post(`/admin/realms/${named}/users`, { username: "hana", password: PASSWORD })).status).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    try {
      await signInToAccountConsole(page, server.url, named, { username: "gwen", password: PASSWORD });
      await page.getByRole("heading", { name: "Personal info", level: 1 }).waitFor();
      await page.getByLabel("Email").waitFor();
      expect(await page.locator("#username-value").textContent()).toBe("gwen");
      expect(await page.getByRole("textbox", { name: "Username" }).count()).toBe(0);

      expect((await api.put(`/admin/realms/${named}`, { editUsernameAllowed: true })).status).toBe(200);
      await page.reload();
      const username = page.getByRole("textbox", { name: "Username" });
      await username.waitFor();
      expect(await username.inputValue()).toBe("gwen");
      expect(await page.locator("#username-value").count()).toBe(0);
      await checkPage(page, "account-personal-info-username");
      // Taken: the API's 409 beside the field, nothing saved.
      await username.fill("hana");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForSelector("input[name=username][aria-invalid=true]");
      await page.getByText('username "hana" already exists').waitFor();
      expect((await api.get(`/admin/realms/${named}/users/${gwen.body.id}`)).body.username).toBe("gwen");
      await username.fill("gwendolyn");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Your account has been updated.").waitFor();
      expect((await api.get(`/admin/realms/${named}/users/${gwen.body.id}`)).body.username).toBe("gwendolyn");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it("signs in through the hosted login, edits the profile, signs out a device, revokes a consent, enrols and removes TOTP and changes the password", async () => {
    const app = await otherDevice("asks", CB);
    const phone = await otherDevice("account-console", `${server.url}/realms/${realm}/account/`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    try {
      // The bare address redirects to the console, which sends the browser to the realm's login.
      await page.goto(`${server.url}/realms/${realm}/account`);
      await page.waitForSelector("#username");
      await page.fill("#username", "erin");
      await page.fill("#password", PASSWORD);
      await page.click("button[type=submit]");
      await page.getByRole("heading", { name: "Personal info", level: 1 }).waitFor();
      expect(new URL(page.url()).search).toBe("");
      expect(await page.title()).toBe(`Personal info · ${realm} · Account console`);
      await page.getByText("Signed in as").waitFor();
      await checkPage(page, "account-personal-info");

      // Profile: saved, and a new email is no longer verified.
      await page.getByLabel("First name").fill("Erina");
      await page.getByLabel("Email").fill("erina@example.com");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Your account has been updated.").waitFor();
      await page.getByText("Not verified yet.").waitFor();
      expect((await api.get(`/admin/realms/${realm}/users/${erinId}`)).body).toMatchObject({ firstName: "Erina", lastName: "Ode", email: "erina@example.com", emailVerified: false });
      // The API's field error, beside its field.
      await page.getByLabel("Email").fill("not-an-email");
      await page.getByRole("button", { name: "Save" }).click();
      const email = page.getByLabel("Email");
      await page.waitForSelector("input[name=email][aria-invalid=true]");
      expect(await email.getAttribute("aria-describedby")).toMatch(/-err$/);
      await page.getByLabel("Email").fill("erina@example.com");

      // Device activity: three sessions (the app's, the other console's, this one); the other console's signed out.
      await page.getByRole("link", { name: "Device activity" }).click();
      await page.getByRole("heading", { name: "Device activity", level: 1 }).waitFor();
      await page.waitForSelector("tr[data-session]");
      expect(await page.locator("tr[data-session]").count()).toBe(3);
      await page.getByText("This session").waitFor();
      await checkPage(page, "account-device-activity");
      await page.locator(`tr[data-session="${phone.sid}"]`).getByRole("button", { name: /^Sign out session from / }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Sign out", exact: true }).click();
      await page.waitForFunction(() => document.querySelectorAll("tr[data-session]").length === 2);
      expect(await page.locator(`tr[data-session="${phone.sid}"]`).count()).toBe(0);
      const dead = await eventually(() => refresh("account-console", phone.refresh), (r) => r.status === 400);
      expect([dead.status, dead.body.error]).toEqual([400, "invalid_grant"]);

      // Linked accounts: none for a user who never signed in through an identity provider.
      await page.getByRole("link", { name: "Linked accounts" }).click();
      await page.getByText("No linked accounts.", { exact: false }).waitFor();
      await checkPage(page, "account-linked-accounts");

      // Applications: the consent, revoked with the app's tokens.
      await page.getByRole("link", { name: "Applications" }).click();
      await page.getByRole("cell", { name: "asks", exact: true }).waitFor();
      await page.getByRole("cell", { name: "email, profile" }).waitFor();
      await checkPage(page, "account-applications");
      await page.getByRole("button", { name: "Remove access of asks" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Remove access" }).click();
      await page.getByText("No applications have been granted access.").waitFor();
      expect((await refresh("asks", app.refresh)).status).toBe(400);

      // Signing in: a wrong current password, then the realm's policy, each beside its field; then the change.
      await page.getByRole("link", { name: "Signing in" }).click();
      await page.getByRole("heading", { name: "Password" }).waitFor();
      await page.getByText(/^Last set /).waitFor();
      await checkPage(page, "account-signing-in");
      // An authenticator application: enrolled with a code computed by otplib, its recovery codes shown once, then removed.
      await page.getByRole("button", { name: "Set up authenticator application" }).click();
      const secret = (await page.locator("#otp-secret").textContent())!;
      await checkPage(page, "account-totp-setup");
      await page.getByLabel("Authenticator code").fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) }));
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByRole("list", { name: "Recovery codes" }).waitFor();
      expect(await page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").count()).toBeGreaterThanOrEqual(5);
      await page.getByRole("button", { name: "Done" }).click();
      await page.getByRole("button", { name: "Remove authenticator application" }).waitFor();
      expect((await api.get(`/admin/realms/${realm}/users/${erinId}/mfa/status`)).body).toEqual({ enabled: true });
      await page.getByRole("button", { name: "Remove authenticator application" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Remove", exact: true }).click();
      await page.getByRole("button", { name: "Set up authenticator application" }).waitFor();
      expect((await api.get(`/admin/realms/${realm}/users/${erinId}/mfa/status`)).body).toEqual({ enabled: false });

      await page.getByLabel("Current password").fill("Wrong-Secret-12");
      await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByText("the current password is not correct").waitFor();
      await page.getByLabel("Current password").fill(PASSWORD);
      await page.getByLabel("New password", { exact: true }).fill("Too-short-1");
      await page.getByLabel("Confirm new password").fill("Too-short-1");
      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByText("password does not meet the password policy: at least 14 characters").waitFor();
      await checkPage(page, "account-password-error");
      await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByText("Your password has been changed.").waitFor();
      // The change ends every session of the user; then signing in again asks for the new password.
      await eventually(() => api.get(`/admin/realms/${realm}/users/${erinId}/sessions`), (r) => r.body.length === 0);
      await page.getByRole("button", { name: "Sign in again" }).click();
      await page.waitForSelector("#username");
      await page.fill("#username", "erin");
      await page.fill("#password", NEW_PASSWORD);
      await page.click("button[type=submit]");
      // Back on the section the sign-in left from.
      await page.getByRole("heading", { name: "Signing in", level: 1 }).waitFor();

      // Sign out all devices: this one too, so the console is back at the login page.
      await page.getByRole("link", { name: "Device activity" }).click();
      await page.getByRole("button", { name: "Sign out all devices" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Sign out all" }).click();
      await page.waitForSelector("#username");
      await eventually(() => api.get(`/admin/realms/${realm}/users/${erinId}/sessions`), (r) => r.body.length === 0);
      await page.fill("#username", "erin");
      await page.fill("#password", NEW_PASSWORD);
      await page.click("button[type=submit]");
      await page.getByRole("heading", { name: "Personal info", level: 1 }).waitFor();

      // Sign out: the realm's session ends, and the console is back at the login page.
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForSelector("#username");
      await eventually(() => api.get(`/admin/realms/${realm}/users/${erinId}/sessions`), (r) => r.body.length === 0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
