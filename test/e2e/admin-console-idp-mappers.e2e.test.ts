import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, launchChromium, openAdminConsole } from "./support/console-browser.js";

/**
 * The admin console's identity provider page in a real Chromium: the provider's Mappers section
 * adds a mapper with its type's config fields, shows a refused setting beside its field, and
 * deletes a mapper. What the console wrote is read back through the Admin API.
 */
describeTier("admin console identity provider mappers in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-console-idp-mappers");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("adds a claim-to-role mapper, shows a refused setting beside its field, and deletes the mapper", async () => {
    const realm = uniqueName("console-idpmap");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const idps = `/admin/realms/${realm}/identity-providers`;
    expect((await api.post(idps, { alias: "corp", providerType: "oidc", clientId: "c", clientSecret: "s",
      authorizationUrl: "https://idp.example.test/a", tokenUrl: "https://idp.example.test/t", issuer: "https://idp.example.test" })).status).toBe(201);
    const mappers = async () => ((await api.get(`${idps}/corp/mappers`)).body as Array<{ name: string; identityProviderMapper: string; config: Record<string, string> }>)
      .map(({ name, identityProviderMapper, config }) => ({ name, identityProviderMapper, config }));

    const { context, page, problems } = await openAdminConsole(browser, server, `realms/${realm}/identity-providers`);
    try {
      await page.getByRole("button", { name: "corp" }).click();
      const section = page.getByRole("region", { name: "Mappers" });
      await section.getByText("No mappers.").waitFor();
      const add = page.getByRole("form", { name: "Add mapper" });
      await add.getByLabel("Mapper name").fill("admins");
      await add.getByLabel("Mapper type").selectOption("oidc-role-idp-mapper");
      await add.getByLabel("Claim", { exact: true }).fill("groups");
      await add.getByLabel("Claim Value").fill("admins");
      await add.getByLabel("Sync mode override").selectOption("FORCE");
      // No role: the API's refusal is shown beside the Role field.
      await add.getByRole("button", { name: "Add mapper" }).click();
      await add.getByText("config.role is required for oidc-role-idp-mapper").waitFor();
      expect(await add.getByLabel("Role").getAttribute("aria-invalid")).toBe("true");
      await checkPage(page, "identity-provider-mapper-refused");
      expect(await mappers()).toEqual([]);

      await add.getByLabel("Role").fill("admin");
      await add.getByRole("button", { name: "Add mapper" }).click();
      await page.getByText("Mapper admins added.").waitFor();
      expect(await mappers()).toEqual([{ name: "admins", identityProviderMapper: "oidc-role-idp-mapper", config: { claim: "groups", "claim.value": "admins", role: "admin", syncMode: "FORCE" } }]);
      const table = page.getByRole("table", { name: "Identity provider mappers" });
      expect((await table.locator("tbody tr td").allTextContents()).slice(0, 3)).toEqual(["admins", "Claim to Role", "FORCE"]);
      await checkPage(page, "identity-provider-mappers");

      await table.getByRole("button", { name: "Delete admins" }).click();
      await page.getByRole("dialog", { name: "Delete the mapper admins?" }).getByRole("button", { name: "Delete" }).click();
      await section.getByText("No mappers.").waitFor();
      expect(await mappers()).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
