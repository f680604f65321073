import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, consolePage, launchChromium, signInToAdminConsole } from "./support/console-browser.js";

/**
 * The realm's WebAuthn passwordless policy in the admin console's Realm settings (Chromium): the
 * defaults shown, every kind of control saved (text, list, select, number, switch), an invalid
 * AAGUID refused beside its field, and an emptied list clearing the realm's; each checked through
 * the Admin API.
 */
describeTier("admin console passkey policy in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-console-passkey-policy");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the policy, saves it, and names a refused value beside its field", async () => {
    const realm = uniqueName("console-wa");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 1800 } });
    const { page, problems } = await consolePage(context);
    try {
      await signInToAdminConsole(page, server);
      await page.goto(`${server.url}/admin/console#/realms/${realm}/settings`);
      const group = page.getByRole("group", { name: "Passkeys (WebAuthn passwordless policy)" });
      await group.waitFor();
      expect(await group.getByLabel("Signature algorithms").inputValue()).toBe("Ed25519\nES256\nRS256");
      expect(await group.getByLabel("User verification requirement").inputValue()).toBe("preferred");
      expect(await group.getByLabel("Require discoverable credential").inputValue()).toBe("Yes");
      expect(await group.getByLabel("Timeout (seconds)").inputValue()).toBe("120");
      expect(await group.getByLabel("Avoid registering the same authenticator twice").isChecked()).toBe(true);

      await group.getByLabel("Relying party name").fill("Acme Corp");
      await group.getByLabel("Signature algorithms").fill("ES256\nRS256");
      await group.getByLabel("Attestation conveyance preference").selectOption("direct");
      await group.getByLabel("Authenticator attachment").selectOption("cross-platform");
      await group.getByLabel("User verification requirement").selectOption("required");
      await group.getByLabel("Timeout (seconds)").fill("300");
      await group.getByLabel("Avoid registering the same authenticator twice").uncheck();
      await group.getByLabel("Extra origins").fill("https://app.example.com\nhttps://admin.example.com");
      await page.getByRole("button", { name: "Save" }).first().click();
      await page.getByText("Realm settings saved.").waitFor();
      const saved = (await api.get(`/admin/realms/${realm}`)).body;
      expect(saved).toMatchObject({
        webAuthnPolicyPasswordlessRpEntityName: "Acme Corp", webAuthnPolicyPasswordlessSignatureAlgorithms: ["ES256", "RS256"],
        webAuthnPolicyPasswordlessAttestationConveyancePreference: "direct", webAuthnPolicyPasswordlessAuthenticatorAttachment: "cross-platform",
        webAuthnPolicyPasswordlessUserVerificationRequirement: "required", webAuthnPolicyPasswordlessCreateTimeout: 300,
        webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister: false, webAuthnPolicyPasswordlessAcceptableAaguids: [],
        webAuthnPolicyPasswordlessExtraOrigins: ["https://app.example.com", "https://admin.example.com"],
      });

      await group.getByLabel("Acceptable AAGUIDs").fill("yubikey");
      await page.getByRole("button", { name: "Save" }).first().click();
      const field = group.getByLabel("Acceptable AAGUIDs");
      await page.locator("[aria-invalid=true]").waitFor();
      expect(await field.getAttribute("aria-invalid")).toBe("true");
      await group.getByText("webAuthnPolicyPasswordlessAcceptableAaguids[0] must be an AAGUID").waitFor();
      await checkPage(page, "realm-settings-passkey-policy-refused");
      expect((await api.get(`/admin/realms/${realm}`)).body.webAuthnPolicyPasswordlessAcceptableAaguids).toEqual([]);

      await field.fill("cb69481e-8ff7-4039-93ec-0a2729a154a8");
      await group.getByLabel("Extra origins").fill("");
      await page.getByRole("button", { name: "Save" }).first().click();
      await page.getByText("Realm settings saved.").waitFor();
      const after = (await api.get(`/admin/realms/${realm}`)).body;
      expect([after.webAuthnPolicyPasswordlessAcceptableAaguids, after.webAuthnPolicyPasswordlessExtraOrigins])
        .toEqual([["cb69481e-8ff7-4039-93ec-0a2729a154a8"], []]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
