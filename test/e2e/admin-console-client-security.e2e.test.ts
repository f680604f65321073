import { generateKeyPairSync } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, consolePage, launchChromium, signInToAdminConsole } from "./support/console-browser.js";

/**
 * A client's authentication, token signing algorithms, request objects, token exchange and FAPI
 * 2.0 profile edited in the admin console (Chromium): the API's refusal shown beside the field it
 * names, then the settings saved, read back after a reload, and checked through the Admin API.
 */
describeTier("admin console client security settings in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-console-client-security");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signIn = (page: Page) => signInToAdminConsole(page, server);

  /** The message under a control, by its aria-describedby. */
  async function describedText(page: Page, label: string): Promise<string[]> {
    const control = page.getByLabel(label, { exact: true });
    expect(await control.getAttribute("aria-invalid")).toBe("true");
    const ids = (await control.getAttribute("aria-describedby"))!.split(" ");
    return Promise.all(ids.map(async (id) => (await page.locator(`[id="${id}"]`).textContent()) ?? ""));
  }

  it("sets the authenticator, keys, signing algorithms, PAR, token exchange and the FAPI 2.0 profile, and reads them back", async () => {
    const realm = uniqueName("console-sec");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "bank-app", clientType: "CONFIDENTIAL", grantTypes: ["authorization_code", "refresh_token"], redirectUris: ["https://bank.example.com/cb"],
    })).status).toBe(201);
    const jwk = { ...generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ format: "jwk" }), kid: "bank-1", use: "sig", alg: "ES256" };
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    try {
      await signIn(page);
      await page.goto(`${server.url}/admin/console#/realms/${realm}/clients/bank-app`);
      const settings = page.getByRole("form", { name: "Client settings" });
      await settings.waitFor();
      expect(await page.getByLabel("Client authenticator").inputValue()).toBe("client_secret_basic");
      expect(await page.getByLabel("Client profile").inputValue()).toBe("");

      // The profile alone: the API refuses, naming the first setting the profile needs.
      await page.getByLabel("Client profile").selectOption("fapi2-security");
      await page.getByRole("button", { name: "Save" }).click();
      await page.locator("[aria-invalid=true]").waitFor();
      expect(await describedText(page, "Client authenticator")).toEqual(['clientProfile "fapi2-security" (FAPI 2.0 Security Profile) requires tokenEndpointAuthMethod "private_key_jwt"']);
      await checkPage(page, "client-security-error");

      // private_key_jwt without keys: the API names jwks, shown under the key set.
      await page.getByLabel("Client profile").selectOption("");
      await page.getByLabel("Client authenticator").selectOption("private_key_jwt");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("private_key_jwt needs the client's public keys in jwks or jwksUri").waitFor();
      expect(await describedText(page, "JSON Web Key Set")).toContain("private_key_jwt needs the client's public keys in jwks or jwksUri");

      // Everything the profile asks for, and the profile.
      await page.getByLabel("JSON Web Key Set").fill(JSON.stringify({ keys: [jwk] }));
      await page.getByLabel("ID token signature algorithm").selectOption("ES256");
      await page.getByLabel("Access token signature algorithm").selectOption("PS256");
      await page.getByLabel("Request object signature algorithm").selectOption("ES256");
      await page.getByLabel("Pushed authorization requests required").check();
      await page.getByLabel("DPoP bound access tokens required").check();
      await page.getByLabel("Standard token exchange").check();
      await page.getByLabel("Client profile").selectOption("fapi2-security");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Client saved.").waitFor();
      expect(await page.locator("[aria-invalid=true]").count()).toBe(0);

      const stored = await api.get(`/admin/realms/${realm}/clients/bank-app`);
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({
        tokenEndpointAuthMethod: "private_key_jwt", clientAuthenticatorType: "client-jwt", jwksUri: "",
        idTokenSignedResponseAlg: "ES256", accessTokenSignedResponseAlg: "PS256", requestObjectSignatureAlg: "ES256",
        requirePushedAuthorizationRequests: true, dpopBoundAccessTokens: true, standardTokenExchangeEnabled: true, clientProfile: "fapi2-security",
      });
      expect(stored.body.jwks).toEqual({ keys: [jwk] });

      // Read back after a reload.
      await page.reload();
      await signIn(page);
      await page.goto(`${server.url}/admin/console#/realms/${realm}/clients/bank-app`);
      await settings.waitFor();
      expect(await page.getByLabel("Client authenticator").inputValue()).toBe("private_key_jwt");
      expect(JSON.parse(await page.getByLabel("JSON Web Key Set").inputValue())).toEqual({ keys: [jwk] });
      expect(await page.getByLabel("ID token signature algorithm").inputValue()).toBe("ES256");
      expect(await page.getByLabel("Access token signature algorithm").inputValue()).toBe("PS256");
      expect(await page.getByLabel("Request object signature algorithm").inputValue()).toBe("ES256");
      expect(await page.getByLabel("Pushed authorization requests required").isChecked()).toBe(true);
      expect(await page.getByLabel("Standard token exchange").isChecked()).toBe(true);
      expect(await page.getByLabel("Client profile").inputValue()).toBe("fapi2-security");
      await checkPage(page, "client-security");

      // Back to the realm's algorithm and no profile; the keys stay (unchanged text is not resent).
      await page.getByLabel("Client profile").selectOption("");
      await page.getByLabel("Access token signature algorithm").selectOption("");
      await page.getByLabel("Standard token exchange").uncheck();
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Client saved.").waitFor();
      const after = await api.get(`/admin/realms/${realm}/clients/bank-app`);
      expect(after.body).toMatchObject({ clientProfile: "", accessTokenSignedResponseAlg: "", standardTokenExchangeEnabled: false, idTokenSignedResponseAlg: "ES256" });
      expect(after.body.jwks).toEqual({ keys: [jwk] });

      // JSON that does not parse is refused beside the field, before any request.
      await page.getByLabel("JSON Web Key Set").fill("{ not json");
      await page.getByRole("button", { name: "Save" }).click();
      await page.locator("[aria-invalid=true]").waitFor();
      expect(await describedText(page, "JSON Web Key Set")).toContain('jwks must be JSON: a JWK Set, {"keys": [...]}');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("refuses token exchange for a public client at creation, beside its box", async () => {
    const realm = uniqueName("console-sec-pub");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    try {
      await signIn(page);
      await page.goto(`${server.url}/admin/console#/realms/${realm}/clients`);
      await page.getByRole("button", { name: "Create client" }).click();
      await page.getByLabel("Client ID").fill("spa");
      await page.getByLabel("Client authentication").selectOption("PUBLIC");
      await page.getByLabel("Valid redirect URIs").fill("https://spa.example.com/cb");
      await page.getByLabel("Standard token exchange").check();
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await page.locator("[aria-invalid=true]").waitFor();
      expect(await describedText(page, "Standard token exchange")).toEqual(["a PUBLIC client cannot use token exchange"]);
      await page.getByLabel("Standard token exchange").uncheck();
      await page.getByLabel("ID token signature algorithm").selectOption("EdDSA");
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await page.getByRole("heading", { name: "spa" }).waitFor();
      const stored = await api.get(`/admin/realms/${realm}/clients/spa`);
      expect(stored.body).toMatchObject({ clientType: "PUBLIC", tokenEndpointAuthMethod: "none", idTokenSignedResponseAlg: "EdDSA", standardTokenExchangeEnabled: false });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
