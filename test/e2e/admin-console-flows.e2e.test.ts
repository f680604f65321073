import type { Browser, Page } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, consolePage, launchChromium, signInToAdminConsole } from "./support/console-browser.js";

/**
 * Authentication flows in the admin console (Chromium): the built-in flows shown and not editable,
 * a new flow whose steps are refused first as JSON that does not parse and then by the API (each
 * message under the steps), then created, bound as the realm's browser flow in Realm settings, and
 * refused deletion while bound; every result checked through the Admin API.
 */
describeTier("admin console authentication flows in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-console-flows");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signIn = (page: Page) => signInToAdminConsole(page, server);

  /** The messages under a control, by its aria-describedby. */
  async function describedText(page: Page, label: string): Promise<string> {
    const control = page.getByLabel(label, { exact: true });
    const ids = ((await control.getAttribute("aria-describedby")) ?? "").split(" ").filter(Boolean);
    return (await Promise.all(ids.map(async (id) => (await page.locator(`[id="${id}"]`).textContent()) ?? ""))).join(" | ");
  }

  it("lists the built-in flows, creates a checked flow, binds it to the realm and refuses its deletion while bound", async () => {
    const realm = uniqueName("console-flows");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    try {
      await signIn(page);
      await page.goto(`${server.url}/admin/console#/realms/${realm}/authentication`);
      await page.getByRole("heading", { name: "Authentication", level: 1 }).waitFor();
      const table = page.getByRole("table", { name: "Authentication" });
      await table.getByRole("button", { name: "browser" }).waitFor();
      expect(await table.locator("tbody tr").allInnerTexts()).toEqual([
        expect.stringMatching(/^browser\tBuilt-in\t\d+\t/), expect.stringMatching(/^direct grant\tBuilt-in\t\d+\t/),
      ]);
      await table.getByRole("button", { name: "browser" }).click();
      await page.getByText("A built-in flow cannot be changed.").waitFor();
      expect(await page.getByRole("form", { name: "Edit flow" }).count()).toBe(0);
      await checkPage(page, "flows-built-in");

      await page.getByRole("button", { name: "Add flow" }).click();
      const form = page.getByRole("form", { name: "Add flow" });
      await form.getByLabel("Alias").fill("strict");
      await form.getByLabel("Steps").fill("[{ \"type\": ");
      await form.getByRole("button", { name: "Add" }).click();
      await page.locator("[aria-invalid=true]").waitFor();
      expect(await describedText(page, "Steps")).toContain("Steps is not valid JSON");

      await form.getByLabel("Steps").fill(JSON.stringify([{ type: "pasword", requirement: "REQUIRED" }]));
      await form.getByRole("button", { name: "Add" }).click();
      await page.getByText('unknown step type "pasword"', { exact: false }).first().waitFor();
      expect(await describedText(page, "Steps")).toContain('unknown step type "pasword"; one of ');
      await checkPage(page, "flows-refused");

      const steps = [{ type: "username-password", requirement: "REQUIRED" }, { type: "otp", requirement: "REQUIRED" }];
      await form.getByLabel("Steps").fill(JSON.stringify(steps));
      await form.getByLabel("Description").fill("Password and TOTP, always");
      await form.getByRole("button", { name: "Add" }).click();
      await page.getByRole("form", { name: "Edit flow" }).waitFor();
      const listed = (await api.get(`/admin/realms/${realm}/authentication/flows`)).body as Array<Record<string, unknown>>;
      const strict = listed.find((f) => f.alias === "strict")!;
      expect(strict).toMatchObject({ alias: "strict", description: "Password and TOTP, always", builtIn: false, steps });

      await page.goto(`${server.url}/admin/console#/realms/${realm}/settings`);
      await page.getByLabel("Browser flow").fill("strict");
      await page.getByRole("button", { name: "Save" }).first().click();
      await page.getByText("Saved.").first().waitFor();
      expect((await api.get(`/admin/realms/${realm}`)).body.browserFlow).toBe("strict");

      await page.goto(`${server.url}/admin/console#/realms/${realm}/authentication`);
      await page.getByRole("table", { name: "Authentication" }).getByRole("button", { name: "strict" }).click();
      await page.getByRole("button", { name: "Delete flow" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await page.getByText(`flow "strict" is used by`).waitFor();
      expect((await api.get(`/admin/realms/${realm}/authentication/flows/${String(strict.id)}`)).status).toBe(200);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
