import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, launchChromium, openAdminConsole } from "./support/console-browser.js";

/**
 * The admin console's attribute editors in a real Chromium (Keycloak's Attributes tabs): a
 * group's and a user's attributes written as `key=value` lines, read back through the Admin API,
 * and a malformed line refused beside its field without a request; and the client page's scope
 * evaluation showing a member's inherited attribute in the example access token.
 */
describeTier("admin console group and user attributes in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-console-attributes");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("edits a group's attributes and a user's, and refuses a line that is not key=value", async () => {
    const realm = uniqueName("console-attrs");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const group = await api.post(`/admin/realms/${realm}/groups`, { name: "sales", attributes: { region: ["emea"] } });
    expect(group.status).toBe(201);
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "lea", attributes: { dept: ["sales"] } });
    expect(user.status).toBe(201);

    const { context, page, problems } = await openAdminConsole(browser, server, `realms/${realm}/groups`);
    try {
      await page.getByRole("button", { name: "sales" }).click();
      const details = page.getByRole("form", { name: "Group details" });
      const groupAttributes = details.getByLabel("Attributes");
      expect(await groupAttributes.inputValue()).toBe("region=emea");
      await groupAttributes.fill("region=emea\nsite=lisbon\nsite=porto");
      await checkPage(page, "group-attributes");
      const saved = page.waitForResponse((r) => r.request().method() === "PUT" && r.url().endsWith(`/groups/${group.body.id}`));
      await details.getByRole("button", { name: "Save group" }).click();
      expect((await saved).status()).toBe(200);
      expect((await api.get(`/admin/realms/${realm}/groups/${group.body.id}`)).body.attributes).toEqual({ region: ["emea"], site: ["lisbon", "porto"] });

      await groupAttributes.fill("no equals sign here");
      await details.getByRole("button", { name: "Save group" }).click();
      await details.getByText('"no equals sign here" is not a key=value line').waitFor();
      expect((await api.get(`/admin/realms/${realm}/groups/${group.body.id}`)).body.attributes).toEqual({ region: ["emea"], site: ["lisbon", "porto"] });

      await page.goto(`${server.url}/admin/console#/realms/${realm}/users/${user.body.id}`);
      const userForm = page.getByRole("form", { name: "User attributes" });
      const userAttributes = userForm.getByLabel("Attributes");
      expect(await userAttributes.inputValue()).toBe("dept=sales");
      await userAttributes.fill("dept=marketing\nphone=+351 555 0100");
      await checkPage(page, "user-attributes");
      await userForm.getByRole("button", { name: "Save attributes" }).click();
      await page.getByText("Attributes saved.").waitFor();
      const after = (await api.get(`/admin/realms/${realm}/users/${user.body.id}`)).body;
      expect([after.username, after.attributes]).toEqual(["lea", { dept: ["marketing"], phone: ["+351 555 0100"] }]);

      await userAttributes.fill("");
      const cleared = page.waitForResponse((r) => r.request().method() === "PUT" && r.url().endsWith(`/users/${user.body.id}`));
      await userForm.getByRole("button", { name: "Save attributes" }).click();
      expect((await cleared).status()).toBe(200);
      expect((await api.get(`/admin/realms/${realm}/users/${user.body.id}`)).body).not.toHaveProperty("attributes");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("evaluates a client's scopes for a user: the example access token holds the group's attribute", async () => {
    const realm = uniqueName("console-eval");
    const admin = `/admin/realms/${realm}`;
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    expect((await api.post(`${admin}/clients`, { clientId: "shop", grantTypes: ["password"] })).status).toBe(201);
    const scope = await api.post(`${admin}/client-scopes`, { name: "org" });
    expect((await api.post(`${admin}/client-scopes/${scope.body.id}/protocol-mappers`, {
      name: "region", mapperType: "oidc-usermodel-attribute-mapper", config: { "user.attribute": "region", "claim.name": "region", "access.token.claim": "true" },
    })).status).toBe(201);
    expect((await api.post(`${admin}/clients/shop/optional-client-scopes`, { clientScopeId: scope.body.id })).status).toBe(200);
    const group = await api.post(`${admin}/groups`, { name: "sales", attributes: { region: ["emea"] } });
    const user = await api.post(`${admin}/users`, { username: "max" });
    expect((await api.put(`${admin}/users/${user.body.id}/groups/${group.body.id}`, {})).status).toBe(200);

    const { context, page, problems } = await openAdminConsole(browser, server, `realms/${realm}/clients/shop`);
    try {
      const form = page.getByRole("form", { name: "Evaluate scopes" });
      await form.getByLabel("User").fill("max");
      await form.getByLabel("Scope parameter").fill("org");
      await form.getByRole("button", { name: "Evaluate" }).click();
      const shown = page.getByLabel("Example claims");
      await shown.waitFor();
      const claims = JSON.parse(await shown.innerText()) as Record<string, unknown>;
      expect(claims).toMatchObject({ sub: user.body.id, azp: "shop", region: "emea", scope: expect.stringContaining("org") });
      await checkPage(page, "client-evaluate");

      await form.getByLabel("Show").selectOption("userinfo");
      await form.getByLabel("User").fill("nobody");
      await form.getByRole("button", { name: "Evaluate" }).click();
      await form.getByText("no user named nobody in this realm").waitFor();
      expect(await shown.count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
