import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, launchChromium, openAdminConsole } from "./support/console-browser.js";
import { decodeQuotedPrintable, startSmtpSink } from "./support/smtp-sink.js";

/**
 * The admin console in a real Chromium: the users brute-force detection locked out, listed on the
 * Users page and unlocked there; and an existing user invited to an organization by email (the
 * mail caught by the smtp-server sink). What the console did is read back through the Admin API.
 */
describeTier("admin console lockouts and invitations in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startEmbeddedServer("admin-console-lockouts");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.stop();
  });

  const signIn = (realm: string, fragment: string) => openAdminConsole(browser, server, `realms/${realm}/${fragment}`);

  it("lists the locked users on the Users page and unlocks one", async () => {
    const realm = uniqueName("console-locked");
    expect((await api.post("/admin/realms", { name: realm, bruteForceEnabled: true, maxLoginFailures: 2, lockoutDuration: 900 })).status).toBe(201);
    const client = await api.post(`/admin/realms/${realm}/clients`, { clientId: "app", grantTypes: ["password"] });
    expect(client.status).toBe(201);
    // omar is not locked, so the list shows lena alone.
    for (const username of ["lena", "omar"]) expect((await api.post(`/admin/realms/${realm}/users`, { username, password: "Correct-Horse-9" })).status).toBe(201);
    const grant = (username: string, password: string) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "password", client_id: "app", client_secret: client.body.secret, username, password },
    });
    // RFC 6749 section 5.2: a wrong password is invalid_grant; locked out, so is the right one.
    for (let i = 0; i < 2; i++) expect([(await grant("lena", "Wrong-Horse-9")).body.error]).toEqual(["invalid_grant"]);
    const locked = await grant("lena", "Correct-Horse-9");
    expect([locked.status, locked.body.error]).toEqual([400, "invalid_grant"]);

    const { context, page, problems } = await signIn(realm, "users");
    try {
      const table = page.getByRole("table", { name: "Locked users" });
      await table.getByRole("link", { name: "lena" }).waitFor();
      const cells = await table.locator("tbody tr td").allTextContents();
      expect([cells.length, cells[0], cells[1], cells[3] === "—", cells[4]]).toEqual([5, "lena", "2", false, "Unlock"]);
      await checkPage(page, "users-locked");
      await table.getByRole("button", { name: "Unlock lena" }).click();
      await page.getByText("lena is unlocked.").waitFor();
      await page.getByText("No locked users").waitFor();
      expect((await api.get(`/admin/realms/${realm}/brute-force/locked-users`)).body).toEqual([]);
      expect((await grant("lena", "Correct-Horse-9")).status).toBe(200);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("invites an existing user with an email to an organization; one without an email offers no invitation", async () => {
    const realm = uniqueName("console-invite");
    expect((await api.post("/admin/realms", { name: realm, organizationsEnabled: true, smtpHost: "127.0.0.1", smtpPort: sink.port, smtpFrom: "id@example.com" })).status).toBe(201);
    const org = await api.post(`/admin/realms/${realm}/organizations`, { name: "Acme", alias: "acme" });
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "pia", email: "pia@example.com" })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "pim" })).status).toBe(201);

    const { context, page, problems } = await signIn(realm, `organizations/${org.body.id}`);
    try {
      const add = page.getByRole("search", { name: "Add an existing user" });
      await add.getByLabel("Search users").fill("pi");
      await add.getByRole("button", { name: "Find users" }).click();
      const found = page.getByRole("list", { name: "Users found" });
      await found.getByRole("button", { name: "Add pim as a member" }).waitFor();
      expect(await found.getByRole("button", { name: "Invite pim by email" }).count()).toBe(0);
      await found.getByRole("button", { name: "Invite pia by email" }).click();
      await page.getByText("An invitation was sent to pia.").waitFor();
      await checkPage(page, "organization-invite-existing");
      const mail = sink.mails.filter((m) => m.to.includes("pia@example.com")).at(-1);
      expect(decodeQuotedPrintable(mail?.raw ?? "")).toContain("Subject: Invitation to join the Acme organization");
      // An invitation is not a membership until it is accepted.
      expect((await api.get(`/admin/realms/${realm}/organizations/${org.body.id}/members`)).body).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
