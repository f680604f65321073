import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, consolePage, launchChromium } from "./support/console-browser.js";

/**
 * The admin console's member list with a MANAGED member (Keycloak 26) in a real Chromium: its
 * removal, which deletes the account, is asked first, while an UNMANAGED member's is not. The
 * MANAGED membership comes from a realm import (`managedOrganizations`), as it would travel from
 * another server; organization-managed-members.e2e.test.ts makes one through a real broker login.
 */
describeTier("admin console managed organization members in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-console-managed");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("asks before removing a MANAGED member, whose account goes with it; an UNMANAGED one is removed at once", async () => {
    const realm = uniqueName("console-managed");
    expect((await api.post("/admin/realms", { name: realm, organizationsEnabled: true })).status).toBe(201);
    const orgs = `/admin/realms/${realm}/organizations`;
    const org = await api.post(orgs, { name: "Acme", alias: "acme" });
    const ids: Record<string, string> = {};
    for (const username of ["mia", "ned"]) {
      const u = await api.post(`/admin/realms/${realm}/users`, { username });
      ids[username] = u.body.id;
      expect((await api.post(`${orgs}/${org.body.id}/members`, JSON.stringify(u.body.id))).status).toBe(201);
    }
    const doc = (await api.get(`/admin/realms/${realm}/export?includeUsers=true`)).body;
    doc.users = doc.users.map((u: Record<string, unknown>) => (u.username === "mia" ? { ...u, managedOrganizations: ["acme"] } : u));
    expect((await api.post("/admin/realms/import?overwrite=true", doc)).status).toBe(201);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    try {
      await page.goto(`${server.url}/admin/console#/realms/${realm}/organizations/${org.body.id}`);
      await page.getByLabel("Username").fill(server.adminUsername);
      await page.getByLabel("Password").fill(server.adminPassword);
      await page.getByRole("button", { name: "Sign in" }).click();
      const members = page.getByRole("table", { name: "Organization members" });
      await members.getByRole("link", { name: "mia" }).waitFor();
      const rows = await members.locator("tbody tr").all();
      expect(await Promise.all(rows.map(async (r) => (await r.locator("td").allTextContents()).slice(0, 3))))
        .toEqual([["mia", "—", "MANAGED"], ["ned", "—", "UNMANAGED"]]);

      // MANAGED: a confirmation that says the account is deleted; cancelled, nothing changes.
      await members.getByRole("button", { name: "Remove member mia" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("Remove mia? The organization's identity provider created this account, so it is deleted too.").waitFor();
      await checkPage(page, "organization-member-managed-remove");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      expect((await api.get(`/admin/realms/${realm}/users/${ids.mia}`)).status).toBe(200);
      await members.getByRole("button", { name: "Remove member mia" }).click();
      await dialog.getByRole("button", { name: "Remove and delete the account" }).click();
      await page.getByText("mia is no longer a member; the account was deleted.").waitFor();
      await members.getByRole("link", { name: "mia" }).waitFor({ state: "detached" });
      expect((await api.get(`/admin/realms/${realm}/users/${ids.mia}`)).status).toBe(404);

      // UNMANAGED: removed at once; the account stays.
      await members.getByRole("button", { name: "Remove member ned" }).click();
      await page.getByText("ned is no longer a member.").waitFor();
      expect((await api.get(`/admin/realms/${realm}/users/${ids.ned}`)).status).toBe(200);
      expect((await api.get(`${orgs}/${org.body.id}/members`)).body).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
