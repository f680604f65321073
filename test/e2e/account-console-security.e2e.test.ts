import { generate } from "otplib";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, consolePage, launchChromium, signInToAccountConsole } from "./support/console-browser.js";

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

  const signIn = (page: Page, section = "") => signInToAccountConsole(page, server.url, realm, { username: "gwen", password: PASSWORD }, section);

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

  it("wears the realm's theme: its colours from theme.css, its logo and display name in the masthead", async () => {
    const themed = uniqueName("acct-theme");
    const LOGO = "https://cdn.example.test/globex-logo.svg";
    expect((await api.post("/admin/realms", { name: themed, displayName: "Globex", themeName: "ocean", theme: { primaryColor: "#0e7490", logoUrl: LOGO } })).status).toBe(201);
    expect((await api.post(`/admin/realms/${themed}/users`, { username: "kim", password: PASSWORD })).status).toBe(201);

    // The document: the theme linked after the console's styles, the logo's origin alone added to img-src.
    const doc = await http("GET", `${server.url}/realms/${themed}/account/`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get("content-security-policy")).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https://cdn.example.test; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    expect(doc.text).toContain(`<meta name="tessera-realm-logo" content="${LOGO}">`);
    expect(doc.text).toContain('<meta name="tessera-realm-title" content="Globex">');
    const href = new RegExp(`<link rel="stylesheet" href="(/realms/${themed}/account/theme\\.css\\?v=[0-9a-f]{12})">`).exec(doc.text)![1]!;
    expect(doc.text.indexOf(href)).toBeGreaterThan(doc.text.indexOf("/resources/console/assets/"));
    const css = await http("GET", `${server.url}${href}`);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(css.text).toContain("--brand: #0e7490; --brand-dark: #155e75; --on-brand: #ffffff;");
    expect(css.text).toContain("--bg: #ecfeff; --ink: #083344;");
    // Another realm's document has no logo and the consoles' own policy.
    const plain = await http("GET", `${server.url}/realms/${realm}/account/`);
    expect(plain.headers.get("content-security-policy")).toContain("img-src 'self' data:; ");
    expect(plain.text).not.toContain("tessera-realm-logo");

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // No network here: the logo's https URL is answered by Chromium's interception (a stand-in CDN).
    await context.route(LOGO, (r) => r.fulfill({
      status: 200, contentType: "image/svg+xml",
      body: "<svg xmlns='http://www.w3.org/2000/svg' width='120' height='32'><rect width='120' height='32' fill='#0e7490'/></svg>",
    }));
    const { page, problems } = await consolePage(context);
    try {
      await signInToAccountConsole(page, server.url, themed, { username: "kim", password: PASSWORD });
      await page.getByRole("heading", { name: "Personal info", level: 1 }).waitFor();
      const logo = page.getByRole("img", { name: "Globex" });
      await logo.waitFor();
      await page.waitForFunction(() => (document.querySelector("img.realm-logo") as HTMLImageElement | null)?.naturalWidth === 120);
      const look = await page.evaluate(() => {
        const css = (sel: string, prop: string) => getComputedStyle(document.querySelector(sel)!).getPropertyValue(prop);
        return {
          background: css("body", "background-color"), ink: css("body", "color"), save: css("button.primary", "background-color"),
          saveText: css("button.primary", "color"), mastBorder: css(".masthead", "border-bottom-color"), logo: (document.querySelector("img.realm-logo") as HTMLImageElement).src,
        };
      });
      expect(look).toEqual({
        background: "rgb(236, 254, 255)", ink: "rgb(8, 51, 68)", save: "rgb(14, 116, 144)", saveText: "rgb(255, 255, 255)",
        mastBorder: "rgb(14, 116, 144)", logo: LOGO,
      });
      await checkPage(page, "account-themed");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
