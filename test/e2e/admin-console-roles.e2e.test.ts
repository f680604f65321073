import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, launchChromium, openAdminConsole } from "./support/console-browser.js";

/**
 * The admin console's realm roles in a real Chromium: a role's associated roles (composites) added
 * from the realm and from a client, one removed, and the role renamed; each read back through the
 * Admin API.
 */
describeTier("admin console composite roles in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-console-roles");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("adds associated roles from the realm and a client, removes one, and renames the role", async () => {
    const realm = uniqueName("console-roles");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    for (const name of ["viewer", "editor"]) expect((await api.post(`/admin/realms/${realm}/roles`, { name })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "billing" })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients/billing/roles`, { name: "read" })).status).toBe(201);
    const composites = async (role: string) => ((await api.get(`/admin/realms/${realm}/roles/${role}/composites`)).body as Array<{ name: string; clientId?: string }>)
      .map((r) => `${r.clientId ? `${r.clientId}:` : ""}${r.name}`).sort();

    const { context, page, problems } = await openAdminConsole(browser, server, `realms/${realm}/roles`);
    try {
      await page.getByRole("table", { name: "Realm roles" }).getByRole("button", { name: "editor", exact: true }).click();
      const add = page.getByRole("form", { name: "Add an associated role" });
      await add.getByLabel("Role", { exact: true }).selectOption("viewer");
      await add.getByRole("button", { name: "Add role" }).click();
      await page.getByText("editor now contains viewer.").waitFor();
      await add.getByLabel("Roles of").selectOption("billing");
      await add.getByLabel("Role", { exact: true }).locator("option", { hasText: "read" }).waitFor({ state: "attached" });
      await add.getByLabel("Role", { exact: true }).selectOption("read");
      await add.getByRole("button", { name: "Add role" }).click();
      await page.getByText("editor now contains read.").waitFor();
      expect(await composites("editor")).toEqual(["billing:read", "viewer"]);
      const row = page.getByRole("table", { name: "Realm roles" }).getByRole("row", { name: /editor/ });
      await row.getByRole("cell", { name: "Yes" }).waitFor();
      await checkPage(page, "roles-composite");

      await page.getByRole("list", { name: "Associated roles" }).getByRole("button", { name: "Remove viewer from editor" }).click();
      await page.getByText("editor no longer contains viewer.").waitFor();
      expect(await composites("editor")).toEqual(["billing:read"]);

      const settings = page.getByRole("form", { name: "Role settings" });
      await settings.getByLabel("Role name").fill("author");
      await settings.getByRole("button", { name: "Save role" }).click();
      await page.getByText("Role author saved.").waitFor();
      expect((await api.get(`/admin/realms/${realm}/roles/editor`)).status).toBe(404);
      expect(await composites("author")).toEqual(["billing:read"]);
      await page.getByRole("heading", { name: "Role author" }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
