import type { Browser, Page } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, consolePage, launchChromium, openAdminConsole } from "./support/console-browser.js";
import { ADMIN_ROLES } from "../../services/kit/src/validation/admin-roles.js";

const PASSWORD = "a-long-admin-password-1";
const NEW_PASSWORD = "another-long-password-2";

/**
 * The admin console's Administrators page in a real Chromium: a server admin creates an
 * administrator with realm access, changes its roles and password, is refused deleting itself
 * (the API's 409 shown in the dialog) and deletes the other after a confirmation; a realm admin
 * has no link to the page, and opening it shows the API's 403.
 */
describeTier("admin console administrators in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;
  let acme: string;
  let other: string;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-console-administrators");
    api = adminApi(server.url, server.apiKey);
    acme = uniqueName("acme");
    other = uniqueName("other");
    for (const name of [acme, other]) expect((await api.post("/admin/realms", { name })).status).toBe(201);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const tableRows = async (page: Page): Promise<string[][]> => {
    const rows = page.getByRole("table", { name: "Administrators" }).locator("tbody tr");
    const out: string[][] = [];
    for (const row of await rows.all()) {
      const cells = row.locator("td");
      const grants = await cells.nth(2).locator("li").allTextContents();
      out.push([await cells.nth(0).innerText(), await cells.nth(1).innerText(), ...(grants.length ? grants : [await cells.nth(2).innerText()])]);
    }
    return out;
  };
  const grant = (page: Page, n: number) => page.getByRole("group", { name: `Realm access ${n}`, exact: true });

  it("creates an administrator with realm access, changes its roles and password, and deletes it; not the signed-in one", async () => {
    const username = uniqueName("ops").toLowerCase();
    const { context, page, problems } = await openAdminConsole(browser, server, "realms");
    try {
      await page.getByRole("heading", { level: 1, name: "Realms" }).waitFor();
      await page.getByRole("banner").getByRole("link", { name: "Administrators" }).click();
      await page.getByRole("heading", { level: 1, name: "Administrators" }).waitFor();
      await page.getByRole("table", { name: "Administrators" }).getByRole("link", { name: server.adminUsername, exact: true }).waitFor();
      expect(await tableRows(page)).toEqual([[server.adminUsername, "Yes", "Every realm"]]);
      await checkPage(page, "administrators");

      // Create: two realms' grants; a third row added and removed again.
      await page.getByRole("button", { name: "Create administrator" }).click();
      const form = page.getByRole("form", { name: "Create administrator" });
      await form.getByLabel("Username").fill(username);
      await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
      for (let n = 1; n <= 3; n++) await form.getByRole("button", { name: "Add realm access" }).click();
      // The check boxes are the server's roles, in its order (the console's copy has not drifted).
      expect(await grant(page, 1).locator("input[type=checkbox] + label").allTextContents()).toEqual([...ADMIN_ROLES]);
      await grant(page, 1).getByLabel("Realm name").fill(acme);
      await grant(page, 1).getByLabel("view-users", { exact: true }).check();
      await grant(page, 1).getByLabel("manage-clients", { exact: true }).check();
      await grant(page, 2).getByLabel("Realm name").fill("scratch");
      await grant(page, 3).getByLabel("Realm name").fill(other);
      await grant(page, 3).getByLabel("realm-admin", { exact: true }).check();
      await form.getByRole("button", { name: "Remove realm access 2" }).click();
      expect(await grant(page, 2).getByLabel("Realm name").inputValue()).toBe(other);
      await checkPage(page, "administrators-create");
      await form.getByRole("button", { name: "Create", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: username }).waitFor();
      const id = decodeURIComponent(new URL(page.url()).hash.replace("#/administrators/", ""));

      const created = await api.get(`/admin/admins/${id}`);
      expect(created.status).toBe(200);
      expect(created.body).toEqual({
        id, username, createdAt: expect.any(String), serverAdmin: false,
        realmAccess: [{ realm: acme, roles: ["view-users", "manage-clients"] }, { realm: other, roles: ["realm-admin"] }],
      });
      expect(created.text).not.toContain(PASSWORD);
      await checkPage(page, "administrator");

      // Edit: manage-users instead of manage-clients in acme, nothing in the other realm.
      const access = page.getByRole("form", { name: "Access" });
      expect(await grant(page, 1).getByLabel("Realm name").inputValue()).toBe(acme);
      await grant(page, 1).getByLabel("manage-clients", { exact: true }).uncheck();
      await grant(page, 1).getByLabel("manage-users", { exact: true }).check();
      await access.getByRole("button", { name: "Remove realm access 2" }).click();
      // A realm name the API refuses: its message under the rows, that row marked.
      await access.getByRole("button", { name: "Add realm access" }).click();
      await grant(page, 2).getByLabel("Realm name").fill("Not A Realm");
      await grant(page, 2).getByLabel("view-events", { exact: true }).check();
      await access.getByRole("button", { name: "Save" }).click();
      await access.getByRole("alert").waitFor();
      expect(await access.getByRole("alert").innerText()).toBe("realmAccess[1].realm must be a realm name (a lowercase slug)");
      expect(await grant(page, 2).getByLabel("Realm name").getAttribute("aria-invalid")).toBe("true");
      expect(await grant(page, 1).getByLabel("Realm name").getAttribute("aria-invalid")).toBeNull();
      await checkPage(page, "administrator-invalid-access");
      await access.getByRole("button", { name: "Remove realm access 2" }).click();
      await access.getByRole("button", { name: "Save" }).click();
      await access.getByText("Access saved.").waitFor();
      const edited = await api.get(`/admin/admins/${id}`);
      expect(edited.body).toEqual({ ...created.body, realmAccess: [{ realm: acme, roles: ["view-users", "manage-users"] }] });

      // A new password: the old one stops working, and the page never shows it.
      const password = page.getByRole("form", { name: "Set password" });
      await password.getByLabel("New password").fill(NEW_PASSWORD);
      await password.getByRole("button", { name: "Set password" }).click();
      await page.getByText("Password set; the administrator's sign-ins have ended.").waitFor();
      expect(await password.getByLabel("New password").inputValue()).toBe("");
      expect(await page.content()).not.toContain(NEW_PASSWORD);
      const login = (pw: string) => http("POST", `${server.url}/admin/auth/login`, { body: { username, password: pw } });
      expect((await login(PASSWORD)).status).toBe(401);
      const fresh = await login(NEW_PASSWORD);
      expect([fresh.status, fresh.body.user]).toEqual([200, edited.body]);

      // The list shows the new grants.
      await page.getByRole("link", { name: "Back to administrators" }).click();
      await page.getByLabel("Search administrators").fill(username);
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("table", { name: "Administrators" }).getByRole("link", { name: server.adminUsername, exact: true }).waitFor({ state: "detached" });
      expect(await tableRows(page)).toEqual([[username, "No", `${acme}: view-users, manage-users`]]);

      // The signed-in admin: its own server admin role and account stay (409 shown where asked).
      const dialog = page.getByRole("dialog");
      await page.getByLabel("Search administrators").fill("");
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("table", { name: "Administrators" }).getByRole("link", { name: server.adminUsername, exact: true }).click();
      await page.getByRole("heading", { level: 1, name: server.adminUsername, exact: true }).waitFor();
      await page.getByText("This is the account you are signed in with.").waitFor();
      await access.getByLabel("Server admin").uncheck();
      await access.getByRole("button", { name: "Save" }).click();
      await access.getByText("an admin may not take its own server admin role away").waitFor();
      await page.getByRole("button", { name: "Delete administrator" }).click();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await dialog.getByRole("alert").waitFor();
      expect(await dialog.getByRole("alert").innerText()).toBe("an admin may not delete itself");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      const bootstrap = (await api.get("/admin/admins")).body.find((a: { username: string }) => a.username === server.adminUsername);
      expect([bootstrap.serverAdmin, decodeURIComponent(new URL(page.url()).hash)]).toEqual([true, `#/administrators/${bootstrap.id}`]);

      // The other one goes after the confirmation.
      await page.getByRole("link", { name: "Back to administrators" }).click();
      await page.getByRole("table", { name: "Administrators" }).getByRole("link", { name: username }).click();
      await page.getByRole("heading", { level: 1, name: username }).waitFor();
      await page.getByRole("button", { name: "Delete administrator" }).click();
      await dialog.getByText(`Delete the administrator ${username}?`).waitFor();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await page.getByRole("heading", { level: 1, name: "Administrators" }).waitFor();
      const gone = await api.get(`/admin/admins/${id}`);
      expect([gone.status, gone.body]).toEqual([404, { error: "admin_not_found", message: `admin "${id}" not found` }]);
      await page.getByRole("table", { name: "Administrators" }).getByRole("link", { name: username }).waitFor({ state: "detached" });
      expect(await tableRows(page)).toEqual([[server.adminUsername, "Yes", "Every realm"]]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it("shows a realm admin no Administrators link nor realm creation, and the API's 403 if it opens the page", async () => {
    const username = uniqueName("viewer").toLowerCase();
    const made = await api.post("/admin/admins", { username, password: PASSWORD, realmAccess: [{ realm: acme, roles: ["view-users"] }] });
    expect(made.status).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const { page, problems } = await consolePage(context);
    try {
      await page.goto(`${server.url}/admin/console#/realms`);
      await page.getByLabel("Username").fill(username);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("table", { name: "Realms" }).getByRole("link", { name: acme }).waitFor();
      expect(await page.getByRole("banner").innerText()).toContain(`Signed in as ${username}`);
      expect(await page.getByRole("link", { name: "Administrators" }).count()).toBe(0);
      // Creating and importing realms needs a server admin: the realm list offers neither.
      expect(await page.getByRole("link", { name: "Create realm" }).count()).toBe(0);
      expect(await page.getByRole("link", { name: "Import realm" }).count()).toBe(0);

      await page.evaluate(() => { location.hash = "#/administrators"; });
      await page.getByRole("heading", { level: 1, name: "Administrators" }).waitFor();
      await page.getByRole("alert").waitFor();
      expect(await page.getByRole("alert").innerText()).toBe("this needs a server admin");
      expect(await page.getByRole("button", { name: "Create administrator" }).count()).toBe(0);
      expect(await page.getByRole("link", { name: "Administrators" }).count()).toBe(0);
      await checkPage(page, "administrators-forbidden");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      expect((await api.del(`/admin/admins/${made.body.id}`)).status).toBe(204);
    }
  }, 120_000);
});
