import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, launchChromium, openAdminConsole } from "./support/console-browser.js";

/**
 * The admin console's client scope page in a real Chromium: a scope's settings edited, protocol
 * mappers added with their type's settings and token switches, edited, and a setting the API
 * refuses shown beside its field. What the console wrote is read back through the Admin API.
 */
describeTier("admin console protocol mappers in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-console-mappers");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("edits a scope, adds and edits mappers with their switches, and shows a refused setting beside its field", async () => {
    const realm = uniqueName("console-mappers");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const scopes = `/admin/realms/${realm}/client-scopes`;
    const scope = await api.post(scopes, { name: "billing", description: "Billing data" });
    expect(scope.status).toBe(201);
    const mappersOf = async () => ((await api.get(`${scopes}/${scope.body.id}`)).body.protocolMappers as { name: string; mapperType: string; config: Record<string, string> }[])
      .map(({ name, mapperType, config }) => ({ name, mapperType, config }));

    const { context, page, problems } = await openAdminConsole(browser, server, `realms/${realm}/client-scopes`);
    try {
      await page.getByRole("button", { name: "billing" }).click();

      // The scope's settings.
      const settings = page.getByRole("form", { name: "Scope settings" });
      await settings.getByLabel("Description").fill("What invoices need");
      await settings.getByRole("button", { name: "Save scope" }).click();
      await page.getByText("Scope saved.").waitFor();
      expect((await api.get(`${scopes}/${scope.body.id}`)).body).toMatchObject({ name: "billing", description: "What invoices need" });

      // A hardcoded claim, kept out of the ID token.
      const add = page.getByRole("form", { name: "Add mapper" });
      await add.getByLabel("Mapper name").fill("tier");
      await add.getByLabel("Mapper type").selectOption("oidc-hardcoded-claim-mapper");
      await add.getByLabel("Token claim name").fill("tier");
      await add.getByLabel("Claim value").fill("gold");
      await add.getByLabel("Add to ID token").uncheck();
      await checkPage(page, "client-scope-mapper-add");
      await add.getByRole("button", { name: "Add mapper" }).click();
      await page.getByText("Mapper tier added.").waitFor();
      expect(await mappersOf()).toEqual([{
        name: "tier", mapperType: "oidc-hardcoded-claim-mapper",
        config: {
          "claim.name": "tier", "claim.value": "gold", "jsonType.label": "String",
          "id.token.claim": "false", "access.token.claim": "true", "userinfo.token.claim": "true", "introspection.token.claim": "true",
        },
      }]);
      const table = page.getByRole("table", { name: "Protocol mappers" });
      // The notice comes before the list is read again: wait for the new row, not only the notice.
      await table.getByRole("cell", { name: "oidc-hardcoded-claim-mapper" }).waitFor();
      expect((await table.locator("tbody tr td").allTextContents()).slice(0, 4)).toEqual(["tier", "oidc-hardcoded-claim-mapper", "tier", "access, userinfo, introspection"]);

      // An audience mapper starts from Keycloak's defaults for its type: the access token only.
      await add.getByLabel("Mapper type").selectOption("oidc-audience-mapper");
      expect([
        await add.getByLabel("Add to ID token").isChecked(), await add.getByLabel("Add to access token").isChecked(),
        await add.getByLabel("Add to userinfo").isChecked(), await add.getByLabel("Add to token introspection").isChecked(),
      ]).toEqual([false, true, false, true]);
      await add.getByLabel("Mapper name").fill("api audience");
      await add.getByLabel("Included custom audience").fill("https://api.example.test");
      await add.getByRole("button", { name: "Add mapper" }).click();
      await page.getByText("Mapper api audience added.").waitFor();
      expect((await mappersOf()).find((m) => m.name === "api audience")?.config).toEqual({
        "included.custom.audience": "https://api.example.test",
        "id.token.claim": "false", "access.token.claim": "true", "userinfo.token.claim": "false", "introspection.token.claim": "true",
      });

      // Edited: a refused claim name is shown beside its field and nothing changes.
      await table.getByRole("button", { name: "Edit tier" }).click();
      const edit = page.getByRole("form", { name: "Edit mapper tier" });
      expect(await edit.getByLabel("Claim value").inputValue()).toBe("gold");
      expect(await edit.getByLabel("Add to ID token").isChecked()).toBe(false);
      await edit.getByLabel("Token claim name").fill("iss");
      await edit.getByRole("button", { name: "Save mapper" }).click();
      const claimName = edit.getByLabel("Token claim name");
      await edit.getByText('config.claim.name must not be the protocol claim "iss"').waitFor();
      expect(await claimName.getAttribute("aria-invalid")).toBe("true");
      await checkPage(page, "client-scope-mapper-refused");
      expect((await mappersOf()).find((m) => m.name === "tier")?.config["claim.name"]).toBe("tier");

      await claimName.fill("tier");
      await edit.getByLabel("Claim value").fill("platinum");
      await edit.getByLabel("Add to ID token").check();
      await edit.getByLabel("Add to token introspection").uncheck();
      await edit.getByRole("button", { name: "Save mapper" }).click();
      await page.getByText("Mapper tier saved.").waitFor();
      expect((await mappersOf()).find((m) => m.name === "tier")).toEqual({
        name: "tier", mapperType: "oidc-hardcoded-claim-mapper",
        config: {
          "claim.name": "tier", "claim.value": "platinum", "jsonType.label": "String",
          "id.token.claim": "true", "access.token.claim": "true", "userinfo.token.claim": "true", "introspection.token.claim": "false",
        },
      });
      await page.getByRole("form", { name: "Add mapper" }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
