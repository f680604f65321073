import type { Browser, Page } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, consolePage, launchChromium } from "./support/console-browser.js";
import { eventually } from "./support/targets.js";
import { verifyStandardWebhook, WebhookReceiver } from "./support/webhook-receiver.js";
import { startSmtpSink } from "./support/smtp-sink.js";

/**
 * The admin console's organization and webhook pages in a real Chromium (DESIGN 6 tier 4), on an
 * embedded server that may call a loopback receiver, with fast webhook retries. Each new page is
 * checked by axe-core and saved as a screenshot under test/artifacts/console/; no CSP violation.
 */
describeTier("admin console organizations and webhooks in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  const users: Record<string, string> = {};

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    sink = await startSmtpSink();
    server = await startEmbeddedServer("admin-console-orgs", {
      TESSERA_OUTBOUND_ALLOW_LOOPBACK: "true", TESSERA_WEBHOOK_RETRY_BASE_MS: "200", TESSERA_WEBHOOK_RETRY_MAX_MS: "1000",
      TESSERA_WEBHOOK_POLL_MS: "200", TESSERA_WEBHOOK_TIMEOUT_MS: "2000",
    });
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
    realm = uniqueName("console-orgs");
    expect((await api.post("/admin/realms", { name: realm, adminEventsEnabled: true, organizationsEnabled: true })).status).toBe(201);
    for (const username of ["erin", "fred"]) {
      const res = await api.post(`/admin/realms/${realm}/users`, { username, email: `${username}@acme.example` });
      expect(res.status).toBe(201);
      users[username] = res.body.id;
    }
    expect((await api.post(`/admin/realms/${realm}/identity-providers`, {
      alias: "corp", displayName: "Corp SSO", providerType: "oidc", clientId: "tessera", clientSecret: "s3cret-value",
      authorizationUrl: "https://idp.example.com/authorize", tokenUrl: "https://idp.example.com/token", issuer: "https://idp.example.com",
    })).status).toBe(201);
    // Another organization holds a domain the console's create will ask for.
    expect((await api.post(`/admin/realms/${realm}/organizations`, { name: "Globex", domains: [{ name: "globex.example" }] })).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await receiver?.down();
    await sink?.stop();
  });

  async function signIn(page: Page, fragment: string): Promise<void> {
    await page.goto(`${server.url}/admin/console#${fragment}`);
    await page.getByLabel("Username").fill(server.adminUsername);
    await page.getByLabel("Password").fill(server.adminPassword);
    await page.getByRole("button", { name: "Sign in" }).click();
  }

  const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Realm" }).getByRole("link", { name, exact: true });

  it("creates an organization with a domain (a taken one refused beside its field), adds and removes a member, invites, deletes it", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    const orgs = `/admin/realms/${realm}/organizations`;
    try {
      await signIn(page, `/realms/${realm}/users`);
      await nav(page, "Organizations").click();
      await page.getByRole("heading", { level: 1, name: "Organizations" }).waitFor();
      await page.getByRole("table", { name: "Organizations" }).getByRole("link", { name: "Globex" }).waitFor();
      expect(await nav(page, "Organizations").getAttribute("aria-current")).toBe("page");
      await checkPage(page, "organizations");

      await page.getByRole("button", { name: "Create organization" }).click();
      await page.getByLabel("Name", { exact: true }).fill("Acme Inc");
      await page.getByRole("button", { name: "Add domain" }).click();
      // The new row's input has the focus, so a keyboard user types straight into it.
      await page.waitForFunction(() => document.activeElement?.getAttribute("placeholder") === "example.com");
      await page.keyboard.type("acme.example");
      expect(await page.getByLabel("Domain 1", { exact: true }).inputValue()).toBe("acme.example");
      await page.getByLabel("Domain 1 verified").check();
      await page.getByRole("button", { name: "Add domain" }).click();
      await page.getByLabel("Domain 2", { exact: true }).fill("GLOBEX.example");
      await page.getByLabel("Attributes").fill("tier=gold\nregion=eu\nregion=us");
      await page.getByLabel("Corp SSO (corp)").check();
      await checkPage(page, "organization-create");
      await page.getByRole("button", { name: "Create", exact: true }).click();

      // The realm's other organization has the domain: the API's 409 names `domains`.
      const taken = page.getByLabel("Domain 2", { exact: true });
      await page.locator("input[aria-invalid=true]").first().waitFor();
      expect(await taken.getAttribute("aria-invalid")).toBe("true");
      expect(await page.getByLabel("Domain 1", { exact: true }).getAttribute("aria-invalid")).toBeNull();
      const errId = (await taken.getAttribute("aria-describedby"))!;
      expect(await page.locator(`[id="${errId}"]`).textContent()).toBe('domain "globex.example" is already linked to another organization');
      await checkPage(page, "organization-domain-error");
      expect((await api.get(`${orgs}?search=Acme`)).body).toEqual([]);

      await page.getByRole("button", { name: "Remove domain 2" }).click();
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Acme Inc" }).waitFor();
      const listed = (await api.get(`${orgs}?search=Acme&briefRepresentation=false`)).body as Array<Record<string, unknown>>;
      expect(listed).toHaveLength(1);
      const org = listed[0]!;
      expect(org).toMatchObject({ name: "Acme Inc", alias: "Acme-Inc", enabled: true, domains: [{ name: "acme.example", verified: true }],
        attributes: { tier: ["gold"], region: ["eu", "us"] }, identityProviders: ["corp"] });
      expect(await page.evaluate(() => location.hash)).toBe(`#/realms/${realm}/organizations/${String(org.id)}`);
      await checkPage(page, "organization");

      // Existing users found by a search of the realm's users and added; one is removed later.
      await page.getByLabel("Search users").fill("acme.example");
      await page.getByRole("button", { name: "Find users" }).click();
      await page.getByRole("button", { name: "Add erin as a member" }).click();
      await page.getByText("erin is now a member.").waitFor();
      await page.getByRole("button", { name: "Add fred as a member" }).click();
      await page.getByText("fred is now a member.").waitFor();
      const members = page.getByRole("table", { name: "Organization members" });
      const memberNames = () => members.locator("tbody tr td:first-child").allTextContents();
      await members.getByRole("link", { name: "fred" }).waitFor();
      expect(await memberNames()).toEqual(["erin", "fred"]);
      const memberList = await api.get(`${orgs}/${String(org.id)}/members`);
      expect(memberList.body.map((u: { id: string; username: string }) => [u.id, u.username])).toEqual([[users.erin, "erin"], [users.fred, "fred"]]);
      await page.getByRole("searchbox", { name: "Search members" }).fill("fre");
      await page.getByRole("button", { name: "Search members" }).click();
      await members.getByRole("link", { name: "erin" }).waitFor({ state: "detached" });
      expect(await memberNames()).toEqual(["fred"]);
      await page.getByRole("searchbox", { name: "Search members" }).fill("");
      await page.getByRole("button", { name: "Search members" }).click();
      await members.getByRole("link", { name: "erin" }).waitFor();
      await checkPage(page, "organization-members");
      // An organization role, granted to fred, revoked, granted again, then deleted (and so revoked).
      await page.getByLabel("Role name").fill("billing-admin");
      await page.getByLabel("Role description").fill("Pays the invoices");
      await page.getByRole("button", { name: "Create role" }).click();
      await page.getByRole("table", { name: "Organization roles" }).getByRole("cell", { name: "billing-admin", exact: true }).waitFor();
      const fredRoles = `${orgs}/${String(org.id)}/members/${users.fred}/roles`;
      const grant = async (): Promise<void> => {
        await page.getByLabel("Role to grant fred").selectOption("billing-admin");
        await page.getByRole("button", { name: "Grant role to fred" }).click();
        await page.getByRole("list", { name: "Roles of fred" }).getByText("billing-admin", { exact: true }).waitFor();
      };
      await grant();
      expect((await api.get(fredRoles)).body.map((r: { name: string }) => r.name)).toEqual(["billing-admin"]);
      await checkPage(page, "organization-roles");
      await page.getByRole("button", { name: "Revoke billing-admin from fred" }).click();
      await page.getByRole("list", { name: "Roles of fred" }).waitFor({ state: "detached" });
      expect((await api.get(fredRoles)).body).toEqual([]);
      await grant();
      await page.getByRole("button", { name: "Delete role billing-admin" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await page.getByText("No organization roles.").waitFor();
      await page.getByRole("list", { name: "Roles of fred" }).waitFor({ state: "detached" });
      expect((await api.get(fredRoles)).body).toEqual([]);
      expect((await api.get(`${orgs}/${String(org.id)}/roles`)).body).toEqual([]);

      // Inviting a member's address: the API's 409 names `email`, shown beside that field.
      const inviteEmail = page.getByLabel("Email to invite");
      await inviteEmail.fill("erin@acme.example");
      await page.getByRole("button", { name: "Send invitation" }).click();
      await page.locator("[aria-invalid=true]").waitFor();
      const inviteErr = (await inviteEmail.getAttribute("aria-describedby"))!;
      expect(await page.locator(`[id="${inviteErr}"]`).textContent()).toBe("user is already a member of the organization");
      await members.getByRole("button", { name: "Remove member erin" }).click();
      await page.getByText("erin is no longer a member.").waitFor();
      await members.getByRole("link", { name: "erin" }).waitFor({ state: "detached" });
      expect(await memberNames()).toEqual(["fred"]);
      expect((await api.get(`${orgs}/${String(org.id)}/members`)).body.map((u: { id: string }) => u.id)).toEqual([users.fred]);

      // An invitation: the realm has no SMTP server, and the API's refusal is shown as it is.
      await inviteEmail.fill("gina@acme.example");
      await page.getByRole("button", { name: "Send invitation" }).click();
      await page.getByRole("alert").filter({ hasText: "SMTP" }).waitFor();
      expect(await page.getByRole("form", { name: "Invite by email" }).getByRole("alert").textContent())
        .toBe(`realm "${realm}" has no SMTP server configured (smtpHost)`);
      // With the realm's SMTP server set (the smtp-server sink), the invitation goes out.
      expect((await api.put(`/admin/realms/${realm}`, { smtpHost: "127.0.0.1", smtpPort: sink.port, smtpFrom: "id@acme.example" })).status).toBe(200);
      await page.getByLabel("Invitee first name").fill("Gina");
      await page.getByRole("button", { name: "Send invitation" }).click();
      await page.getByText("An invitation was sent to gina@acme.example.").waitFor();
      expect(await inviteEmail.inputValue()).toBe("");
      expect(sink.mails.map((m) => m.to)).toEqual([["gina@acme.example"]]);

      // An edit, then the delete behind its confirmation; the users stay.
      await page.getByLabel("Description", { exact: true }).fill("Our biggest customer");
      expect(await page.getByLabel("Corp SSO (corp)").isChecked()).toBe(true);
      await page.getByRole("form", { name: "Organization settings" }).getByRole("button", { name: "Save" }).click();
      await page.getByText("Saved.").waitFor();
      expect((await api.get(`${orgs}/${String(org.id)}`)).body).toMatchObject({ description: "Our biggest customer", domains: [{ name: "acme.example", verified: true }], identityProviders: ["corp"] });
      // By keyboard: the confirmation opens with Enter, Escape cancels it and gives the focus back.
      await page.getByRole("button", { name: "Delete organization" }).focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Delete organization");
      expect((await api.get(`${orgs}/${String(org.id)}`)).status).toBe(200);
      await page.keyboard.press("Enter");
      await dialog.getByRole("button", { name: "Delete" }).click();
      await page.getByRole("heading", { level: 1, name: "Organizations" }).waitFor();
      expect((await api.get(`${orgs}/${String(org.id)}`)).status).toBe(404);
      expect((await api.get(`/admin/realms/${realm}/users/${users.erin}`)).status).toBe(200);
      expect((await api.get(`/admin/realms/${realm}/users/${users.fred}`)).status).toBe(200);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("pages and searches the organization list with first and max", async () => {
    for (let i = 0; i < 21; i++) {
      expect((await api.post(`/admin/realms/${realm}/organizations`, { name: `Paged ${String(i).padStart(2, "0")}` })).status).toBe(201);
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    try {
      await signIn(page, `/realms/${realm}/organizations`);
      await page.getByRole("searchbox", { name: "Search organizations" }).fill("paged");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      const pager = page.getByRole("navigation", { name: "Organizations pages" });
      await pager.getByText("1–20 of 21").waitFor();
      const names = () => page.getByRole("table", { name: "Organizations" }).locator("tbody tr td:first-child").allTextContents();
      expect(await names()).toEqual(Array.from({ length: 20 }, (_, i) => `Paged ${String(i).padStart(2, "0")}`));
      await pager.getByRole("button", { name: "Next page" }).click();
      await pager.getByText("21–21 of 21").waitFor();
      expect(await names()).toEqual(["Paged 20"]);
      expect(await pager.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("creates a webhook (secret shown once), lists its delivered delivery, replays it, edits and deletes it", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] });
    const { page, problems } = await consolePage(context);
    const hooks = `/admin/realms/${realm}/webhooks`;
    try {
      await signIn(page, `/realms/${realm}/users`);
      await nav(page, "Webhooks").click();
      await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
      await page.getByText("No webhooks.").waitFor();
      await checkPage(page, "webhooks");

      // A private address is refused beside the URL field.
      await page.getByRole("button", { name: "Create webhook" }).click();
      const url = page.getByLabel("Endpoint URL");
      await url.fill("https://10.0.0.1/hook");
      await page.getByRole("button", { name: "Add event type admin:USER:*" }).click();
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await page.locator("[aria-invalid=true]").waitFor();
      const urlErr = (await url.getAttribute("aria-describedby"))!.split(" ").at(-1)!;
      expect(await page.locator(`[id="${urlErr}"]`).textContent()).toBe("url must not point to a private, link-local or reserved address");
      await checkPage(page, "webhook-create-error");

      await url.fill(receiver.url("/console"));
      await page.getByLabel("Custom headers").fill("X-Tenant: acme");
      await page.getByRole("button", { name: "Create", exact: true }).click();
      const secretBox = page.getByRole("textbox", { name: "Signing secret" });
      const secret = await secretBox.inputValue();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      await checkPage(page, "webhook-secret-once");
      await page.getByRole("button", { name: "Copy" }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      const [hook] = (await api.get(hooks)).body as Array<{ id: string }>;
      expect((await api.get(`${hooks}/${hook!.id}`)).body).toMatchObject({ url: receiver.url("/console"), eventTypes: ["admin:USER:*"], enabled: true, headers: { "X-Tenant": "acme" } });
      await page.getByRole("button", { name: "Done" }).click();
      await page.getByRole("heading", { level: 1, name: `Webhook ${receiver.url("/console")}` }).waitFor();
      expect(await secretBox.count()).toBe(0);
      expect(await page.content()).not.toContain(secret);

      // An event: a user created; its delivery reaches the receiver signed with the secret shown.
      expect((await api.post(`/admin/realms/${realm}/users`, { username: "hank" })).status).toBe(201);
      const got = await eventually(async () => receiver.on("/console"), (r) => r.length >= 1, 20_000);
      expect(got).toHaveLength(1);
      expect(got[0]!.json.type).toBe("admin:USER:CREATE");
      expect(got[0]!.headers["x-tenant"]).toBe("acme");
      expect(verifyStandardWebhook(secret, got[0]!.headers, got[0]!.body)).toBe(true);

      const table = page.getByRole("table", { name: "Webhook deliveries" });
      const statusCell = table.locator("tbody tr td:nth-child(2)");
      await page.getByLabel("Status", { exact: true }).selectOption("delivered");
      for (let i = 0; i < 50 && (await statusCell.allTextContents()).join() !== "delivered"; i++) {
        await page.getByRole("button", { name: "Refresh" }).click();
        await page.waitForTimeout(200);
      }
      expect(await table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => Array.from(r.children).slice(0, 4).map((c) => c.textContent))))
        .toEqual([["admin:USER:CREATE", "delivered", "1", "204"]]);
      await checkPage(page, "webhook");

      // Replay: the same delivery (the same webhook-id) sent again, and listed with two attempts.
      const [delivery] = (await api.get(`${hooks}/${hook!.id}/deliveries`)).body as Array<{ id: string }>;
      await table.getByRole("button", { name: `Replay delivery ${delivery!.id}` }).click();
      await page.getByText(`Delivery ${delivery!.id} is queued again.`).waitFor();
      const again = await eventually(async () => receiver.on("/console"), (r) => r.length >= 2, 20_000);
      expect(again.map((r) => r.headers["webhook-id"])).toEqual([delivery!.id, delivery!.id]);
      const attempts = table.locator("tbody tr td:nth-child(3)");
      for (let i = 0; i < 50 && (await attempts.allTextContents()).join() !== "2"; i++) {
        await page.getByRole("button", { name: "Refresh" }).click();
        await page.waitForTimeout(200);
      }
      expect(await attempts.allTextContents()).toEqual(["2"]);

      // A receiver answering 503: the next event's delivery is listed under "failed" with that code,
      // and leaves the list once the receiver is back and a retry gets through.
      receiver.status = 503;
      await page.getByLabel("Status", { exact: true }).selectOption("failed");
      await page.getByText("No deliveries.").waitFor();
      expect((await api.post(`/admin/realms/${realm}/users`, { username: "ivan" })).status).toBe(201);
      const failedRow = table.locator("tbody tr");
      for (let i = 0; i < 50 && (await failedRow.count()) === 0; i++) {
        await page.getByRole("button", { name: "Refresh" }).click();
        await page.waitForTimeout(200);
      }
      expect(await failedRow.evaluateAll((rows) => rows.map((r) => [1, 2, 4, 7].map((c) => r.children[c - 1]!.textContent))))
        .toEqual([["admin:USER:CREATE", "failed", "503", "HTTP 503"]]);
      await checkPage(page, "webhook-failed-delivery");
      receiver.status = 204;
      for (let i = 0; i < 50 && (await failedRow.count()) > 0; i++) {
        await page.getByRole("button", { name: "Refresh" }).click();
        await page.waitForTimeout(200);
      }
      await page.getByText("No deliveries.").waitFor();
      // Settled: both deliveries delivered, no retry still to come.
      const settled = await eventually(async () => (await api.get(`${hooks}/${hook!.id}/deliveries?status=delivered`)).body as unknown[], (d) => d.length === 2, 20_000);
      expect(settled).toHaveLength(2);
      // Two events, the first sent twice (the replay): two distinct idempotency keys.
      expect(new Set(receiver.on("/console").map((r) => r.headers["webhook-id"])).size).toBe(2);

      // A range replay from before the webhook existed: the realm's four user creations (erin and
      // fred before it, hank and ivan after), each under its own idempotency key.
      // It goes out after a rotation: the new secret, shown once, signs it, and the old one still
      // does beside it for the webhook's grace period (a day by default).
      await page.getByRole("button", { name: "Rotate secret" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Rotate" }).click();
      const rotated = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
      expect(rotated).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(rotated).not.toBe(secret);
      await page.getByRole("button", { name: "Done" }).click();
      await page.getByRole("button", { name: "Replay range" }).waitFor();
      const before = receiver.on("/console").length;
      const from = new Date(Date.now() - 3600_000);
      const local = new Date(from.getTime() - from.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
      await page.getByLabel("Replay from").fill(local);
      await page.getByRole("button", { name: "Replay range" }).click();
      await page.getByText("4 events queued.").waitFor();
      const all = await eventually(async () => receiver.on("/console"), (r) => r.length >= before + 4, 20_000);
      const sent = all.slice(before);
      expect(new Set(sent.map((r) => r.headers["webhook-id"])).size).toBe(4);
      expect(sent.map((r) => [verifyStandardWebhook(rotated, r.headers, r.body), verifyStandardWebhook(secret, r.headers, r.body)]))
        .toEqual(Array(4).fill([true, true]));

      // An edit (disabled), then the delete behind its confirmation.
      await page.getByLabel("Enabled").uncheck();
      await page.getByRole("form", { name: "Webhook settings" }).getByRole("button", { name: "Save" }).click();
      await page.getByText("Saved.").waitFor();
      expect((await api.get(`${hooks}/${hook!.id}`)).body).toMatchObject({ enabled: false, eventTypes: ["admin:USER:*"], headers: { "X-Tenant": "acme" } });
      await page.getByRole("button", { name: "Delete webhook" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
      await page.getByText("No webhooks.").waitFor();
      expect((await api.get(`${hooks}/${hook!.id}`)).status).toBe(404);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
