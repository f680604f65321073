import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { eventually } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, launchChromium, openAdminConsole } from "./support/console-browser.js";
import { decodeQuotedPrintable, startSmtpSink } from "./support/smtp-sink.js";

/**
 * The admin console's user actions in a real Chromium: Keycloak's "Credential reset" dialog mails
 * an execute-actions link (caught by the smtp-server sink) with the chosen actions and lifetime;
 * "Impersonate" opens the realm's account console signed in as the user.
 */
describeTier("admin console user actions in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startEmbeddedServer("admin-console-user-actions");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.stop();
  });

  const signIn = (realm: string, fragment: string) => openAdminConsole(browser, server, `realms/${realm}/${fragment}`);

  it("sends a credential reset email with the chosen actions and lifetime", async () => {
    const realm = uniqueName("console-actions");
    expect((await api.post("/admin/realms", { name: realm, displayName: "Console Actions", smtpHost: "127.0.0.1", smtpPort: sink.port, smtpFrom: "id@example.com" })).status).toBe(201);
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "vera", email: "vera@example.com" });
    expect(user.status).toBe(201);

    const { context, page, problems } = await signIn(realm, `users/${user.body.id}`);
    try {
      await page.getByRole("button", { name: "Credential reset" }).click();
      const dialog = page.getByRole("dialog", { name: "Credential reset" });
      const send = dialog.getByRole("button", { name: "Send email" });
      expect(await send.isDisabled()).toBe(true);
      // Checked out of order, listed in the dialog's order (Keycloak's: password before email).
      await dialog.getByLabel("Verify Email").check();
      await dialog.getByLabel("Update Password").check();
      expect(await dialog.getByLabel("Expires in").inputValue()).toBe("12");
      await dialog.getByLabel("Expires in").fill("2");
      await checkPage(page, "user-credential-reset");
      await send.click();
      await page.getByText("An email was sent with 2 actions.").waitFor();
      await eventually(async () => sink.mails.filter((m) => m.to.includes("vera@example.com")).length, (n) => n === 1);
      const mail = decodeQuotedPrintable(sink.mails.find((m) => m.to.includes("vera@example.com"))!.raw);
      expect(mail).toMatch(/^Subject: Update Your Account for Console Actions\r?$/m);
      expect(mail).toContain("performing the following action(s): Update Password, Verify Email.");
      expect(mail).toContain("This link will expire within 2 hours.");
      expect(mail).toMatch(new RegExp(`/realms/${realm}/login-actions/action-token\\?key=`));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("impersonates a user after a confirmation: the account console opens signed in as the user", async () => {
    const realm = uniqueName("console-imp");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true })).status).toBe(201);
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "ines", password: "Start-Pass-1" });
    expect(user.status).toBe(201);

    const { context, page, problems } = await signIn(realm, `users/${user.body.id}`);
    try {
      await page.getByRole("button", { name: "Impersonate" }).click();
      const dialog = page.getByRole("dialog", { name: "Impersonate ines? This browser will be signed in to the realm as ines." });
      await dialog.waitFor();
      const [tab] = await Promise.all([context.waitForEvent("page"), dialog.getByRole("button", { name: "Impersonate" }).click()]);
      await page.getByText("Signed in as ines: the account console opened in a new tab.").waitFor();
      await tab.waitForURL(new RegExp(`/realms/${realm}/account/`));
      await tab.getByText("Signed in as").waitFor();
      expect(await tab.getByText("ines").count()).toBeGreaterThan(0);
      const events = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=IMPERSONATE`)).body as any[], (e) => e.length > 0);
      expect(events[0]).toMatchObject({ userId: user.body.id, details: { impersonator: server.adminUsername } });
      await checkPage(page, "user-impersonate");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
