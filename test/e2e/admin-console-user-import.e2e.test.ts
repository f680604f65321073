import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, launchChromium, openAdminConsole } from "./support/console-browser.js";

/**
 * The admin console's user import in a real Chromium: a CSV file chosen in the page, its users
 * sent to the Admin API's import, the taken username skipped and the invalid row reported by its
 * line; a file with a bad boolean refused before anything is sent. Read back through the Admin API.
 */
describeTier("admin console user import in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-console-user-import");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("imports the users of a CSV file, skips a taken username, reports an invalid row by line, refuses a bad boolean", async () => {
    const realm = uniqueName("console-import");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "ana" })).status).toBe(201);
    const csv = [
      "username,email,firstName,lastName,password,enabled",
      "ana,ana@acme.test,Ana,Lima,Ana-password-1,true",
      'bea,bea@acme.test,Bea,"Berg, Jr",Bea-password-1,no',
      "carl,not-an-email,Carl,Ek,Carl-password-1,yes",
    ].join("\r\n");

    const { context, page, problems } = await openAdminConsole(browser, server, `realms/${realm}/users`);
    try {
      await page.getByRole("button", { name: "Import users" }).click();
      const card = page.getByRole("region", { name: "Import users" });

      // A bad boolean stops the file before anything is sent.
      await card.getByLabel("User file").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("username,enabled\nzed,maybe\n") });
      await card.getByText('bad.csv line 2: enabled must be true or false, not "maybe"').waitFor();
      expect(await card.getByRole("button", { name: /^Import/ }).isDisabled()).toBe(true);

      await card.getByLabel("User file").setInputFiles({ name: "users.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await card.getByText("users.csv: 3 users.").waitFor();
      await card.getByRole("button", { name: "Import 3 users" }).click();
      await card.getByText("Imported 1, skipped 1, failed 1 of 3.").waitFor();
      const failures = await card.getByRole("table", { name: "Users not imported" }).locator("tbody tr").evaluateAll((rows) =>
        rows.map((r) => Array.from(r.querySelectorAll("td")).map((td) => td.textContent)));
      expect(failures).toEqual([
        ["line 2", "ana", "conflict: username \"ana\" already exists"],
        ["line 4", "carl", "invalid_request: email must be a valid email address"],
      ]);
      await checkPage(page, "users-import");

      const listed = (await api.get(`/admin/realms/${realm}/users?search=bea`)).body.users as Array<Record<string, unknown>>;
      expect(listed.map(({ username, email, firstName, lastName, enabled }) => ({ username, email, firstName, lastName, enabled })))
        .toEqual([{ username: "bea", email: "bea@acme.test", firstName: "Bea", lastName: "Berg, Jr", enabled: false }]);
      expect((await api.get(`/admin/realms/${realm}/users?search=carl`)).body.users).toEqual([]);
      // The user list reloaded behind the card.
      await page.getByRole("table", { name: "Users", exact: true }).getByRole("link", { name: "bea" }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
