import { generate } from "otplib";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, consolePage, launchChromium } from "./support/console-browser.js";

/**
 * The account console's passkey set-up in a real Chromium whose authenticator is a CDP virtual
 * authenticator (CTAP2, resident keys, user verification). The console starts Keycloak's
 * application-initiated action (kc_action=webauthn-register-passwordless) and the hosted pages
 * run their own WebAuthn ceremony; the redirect back is the console itself, served by the server.
 * The server's URL is http://localhost:<port>: browsers refuse WebAuthn on IP addresses.
 */
describeTier("account console passkeys and recovery codes in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;
  const realm = uniqueName("acctsec");
  const PASSWORD = "Gwen-Secret-12";
  let gwenId = "";

  beforeAll(async () => {
    server = await startEmbeddedServer("account-console-security");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true })).status).toBe(201);
    const gwen = await api.post(`/admin/realms/${realm}/users`, { username: "gwen", email: "gwen@example.com", emailVerified: true, password: PASSWORD });
    expect(gwen.status).toBe(201);
    gwenId = gwen.body.id;
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "cli", clientType: "PUBLIC", grantTypes: ["password"] })).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signIn(page: Page, section = ""): Promise<void> {
    await page.goto(`${server.url}/realms/${realm}/account/${section ? `#/${section}` : ""}`);
    await page.waitForSelector("#username");
    await page.fill("#username", "gwen");
    await page.fill("#password", PASSWORD);
    await page.click("button[type=submit]");
    await page.getByText("Signed in as").waitFor();
  }

  it("sets up a passkey through the hosted pages' ceremony (kc_action), lists it, and removes it", async () => {
    const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    try {
      const cdp = await context.newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });
      await signIn(page, "signing-in");
      await page.getByRole("heading", { name: "Signing in", level: 1 }).waitFor();
      await page.getByText("No passkeys yet.").waitFor();

      // The action asks for the password again, then runs the registration ceremony.
      const authorize = page.waitForRequest((r) => r.url().includes("/protocol/openid-connect/auth?"));
      await page.getByRole("button", { name: "Set up passkey" }).click();
      const asked = new URL((await authorize).url());
      expect(asked.searchParams.get("kc_action")).toBe("webauthn-register-passwordless");
      expect(asked.searchParams.get("client_id")).toBe("account-console");
      await page.waitForSelector("#password");
      if (await page.locator("#username").isEditable().catch(() => false)) await page.fill("#username", "gwen");
      await page.fill("#password", PASSWORD);
      await page.click("button[type=submit]");
      await page.waitForSelector("#passkey-button:not([disabled])");
      expect(await page.title()).toBe(`Register a passkey · ${realm}`);
      await page.fill("#passkey-label", "Work laptop");
      await page.click("#passkey-button");

      // Back in the console, on the section it left, with the new passkey listed.
      await page.getByRole("heading", { name: "Signing in", level: 1 }).waitFor();
      await page.getByText("Your passkey has been set up.").waitFor();
      await page.getByText(/^Work laptop, added /).waitFor();
      expect(new URL(page.url()).search).toBe("");
      await checkPage(page, "account-passkey");
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]!.isResidentCredential).toBe(true);
      const listed = await api.get(`/admin/realms/${realm}/users/${gwenId}/passkeys`);
      expect(listed.status).toBe(200);
      expect(listed.body.map((c: { userLabel: string; type: string }) => [c.type, c.userLabel])).toEqual([["webauthn-passwordless", "Work laptop"]]);

      // Removed from the console, after confirmation.
      await page.getByRole("button", { name: "Remove passkey Work laptop" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Remove", exact: true }).click();
      await page.getByText("No passkeys yet.").waitFor();
      expect((await api.get(`/admin/realms/${realm}/users/${gwenId}/passkeys`)).body).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("gives new recovery codes without enrolling again, after the password, shown once", async () => {
    const grant = (otp: string) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "password", client_id: "cli", username: "gwen", password: PASSWORD, otp },
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    try {
      await signIn(page, "signing-in");
      await page.getByRole("button", { name: "Set up authenticator application" }).click();
      const secret = (await page.locator("#otp-secret").textContent())!;
      await page.getByLabel("Authenticator code").fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) }));
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByRole("list", { name: "Recovery codes" }).waitFor();
      const enrolled = await page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allTextContents();
      expect(enrolled).toHaveLength(10);
      await page.getByRole("button", { name: "Done" }).click();

      await page.getByRole("button", { name: "New recovery codes" }).click();
      const password = page.getByLabel("Password for new recovery codes");
      await password.fill("Not-Gwen-Secret-1");
      await page.getByRole("button", { name: "Get new recovery codes" }).click();
      await page.getByText("the current password is not correct").waitFor();
      expect(await password.getAttribute("aria-invalid")).toBe("true");
      await checkPage(page, "account-recovery-codes-error");
      await password.fill(PASSWORD);
      await page.getByRole("button", { name: "Get new recovery codes" }).click();
      await page.getByText("New recovery codes. Keep them somewhere safe").waitFor();
      const codes = await page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allTextContents();
      expect(codes).toHaveLength(10);
      expect(codes.filter((c) => enrolled.includes(c))).toEqual([]);
      await checkPage(page, "account-recovery-codes");
      await page.getByRole("button", { name: "Done" }).click();
      await page.getByRole("button", { name: "New recovery codes" }).waitFor();
      // Shown once: gone from the page once dismissed.
      expect(await page.content()).not.toContain(codes[0]!);

      const old = await grant(enrolled[0]!);
      expect([old.status, old.body.error]).toEqual([400, "invalid_grant"]);
      expect((await grant(codes[0]!)).status).toBe(200);
      const events = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=UPDATE_CREDENTIAL`)).body as any[], (e) => e.length === 1);
      expect(events[0]).toMatchObject({ userId: gwenId, details: { credential_type: "recovery-authn-codes" } });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
