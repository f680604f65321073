import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { generate } from "otplib";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { eventually } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { decodeQuotedPrintable, startSmtpSink } from "./support/smtp-sink.js";

/**
 * Every hosted page in a real Chromium (DESIGN 6 tier 4), light and dark (prefers-color-scheme),
 * wide and narrow: screenshots under test/artifacts/pages/ (git-ignored) for a person to look at,
 * and the checks a look can fail: the card stands out from the page, buttons use the page's font,
 * links take the theme colour, the show-password toggle works, no CSP violation.
 */
describeTier("hosted pages in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let browser: Browser;
  let realm: string;
  /** A second realm: the ocean preset with a logo and a colour override, TOTP required. */
  let branded: string;
  const LOGO = "https://cdn.example.test/globex-logo.svg";
  const CB = "http://localhost:3989/cb";
  const out = join(process.cwd(), "test", "artifacts", "pages");

  beforeAll(async () => {
    server = await startEmbeddedServer("browser-pages");
    sink = await startSmtpSink();
    const api = adminApi(server.url, server.apiKey);
    realm = uniqueName("pages");
    expect((await api.post("/admin/realms", {
      name: realm, displayName: "Acme Corporation", themeName: "tessera", resetPasswordAllowed: true, registrationAllowed: true,
      passwordRequireDigits: true, passwordRequireUppercase: true, passwordHistoryCount: 3,
      smtpHost: "127.0.0.1", smtpPort: sink.port, smtpFrom: "id@example.com",
    })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "web-portal-7f3a", name: "Customer Portal", clientType: "PUBLIC", redirectUris: [CB], requireConsent: true,
    })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "tv", name: "Living Room TV", clientType: "PUBLIC", grantTypes: ["urn:ietf:params:oauth:grant-type:device_code"],
    })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "dana", email: "dana@example.com", password: "Dana-Secret-1" })).status).toBe(201);
    branded = uniqueName("globex");
    expect((await api.post("/admin/realms", {
      name: branded, displayName: "Globex", themeName: "ocean", theme: { logoUrl: LOGO, primaryColor: "#0e7490" }, mfaRequired: true, registrationAllowed: false,
    })).status).toBe(201);
    expect((await api.post(`/admin/realms/${branded}/clients`, { clientId: "intranet", name: "Globex Intranet", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    for (const username of ["hank-light", "hank-dark"]) {
      expect((await api.post(`/admin/realms/${branded}/users`, { username, password: "Hank-Secret-1", requirePasswordReset: true })).status).toBe(201);
    }
    mkdirSync(out, { recursive: true });
    // chromium.launch gives each run a fresh temporary profile of its own.
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH!,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sink?.stop();
    await server?.stop();
  });

  const authUrl = () => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "web-portal-7f3a", redirect_uri: CB, response_type: "code", scope: "openid profile email", state: "s",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256",
  })}`;

  /** A page in a fresh context of the scheme and width, with the CSP violations Chromium logs. */
  async function open(scheme: "light" | "dark", width = 1280): Promise<{ page: Page; blocked: string[]; close(): Promise<void> }> {
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width, height: width > 600 ? 860 : 760 } });
    await serveStandIns(context);
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) blocked.push(m.text()); });
    return { page, blocked, close: () => context.close() };
  }

  /**
   * No network here: the logo's https URL is answered by Chromium's request interception with a
   * small SVG, and the client's redirect_uri with an empty page (stand-ins: no real CDN or client).
   */
  async function serveStandIns(context: BrowserContext): Promise<void> {
    await context.route(LOGO, (r) => r.fulfill({
      status: 200, contentType: "image/svg+xml",
      body: "<svg xmlns='http://www.w3.org/2000/svg' width='180' height='48' viewBox='0 0 180 48'><circle cx='24' cy='24' r='20' fill='#0e7490'/>"
        + "<path d='M14 24h20M24 14v20' stroke='#fff' stroke-width='5'/><text x='54' y='33' font-family='sans-serif' font-size='26' font-weight='700' fill='#0e7490'>GLOBEX</text></svg>",
    }));
    await context.route(`${CB}**`, (r) => r.fulfill({ status: 200, contentType: "text/plain", body: "client" }));
  }

  async function shot(page: Page, name: string): Promise<void> {
    const file = join(out, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(5000);
  }

  /** The look every page shares: a card that stands out, the page's font on buttons. */
  async function expectFinishedLook(page: Page): Promise<void> {
    const look = await page.evaluate(() => {
      const card = getComputedStyle(document.querySelector(".card")!);
      const body = getComputedStyle(document.body);
      const button = document.querySelector("button[type=submit]");
      return {
        cardBg: card.backgroundColor, pageBg: body.backgroundColor, shadow: card.boxShadow,
        buttonFont: button ? getComputedStyle(button).fontFamily : body.fontFamily, bodyFont: body.fontFamily,
      };
    });
    expect(look.cardBg).not.toBe(look.pageBg);
    expect(look.shadow).not.toBe("none");
    expect(look.buttonFont).toBe(look.bodyFont);
  }

  for (const scheme of ["light", "dark"] as const) {
    it(`renders the login flow's pages (${scheme})`, async () => {
      const { page, blocked, close } = await open(scheme);
      await page.goto(authUrl());
      expect(await page.title()).toBe("Sign in · Acme Corporation");
      expect((await page.textContent(".subtitle"))?.trim()).toBe("to continue to Customer Portal");
      await expectFinishedLook(page);
      const colours = await page.evaluate(() => ({
        link: getComputedStyle(document.querySelector("#forgot-password-link")!).color,
        button: getComputedStyle(document.querySelector("button[type=submit]")!).backgroundColor,
        bg: getComputedStyle(document.body).backgroundColor,
      }));
      expect(colours.link).toBe("rgb(47, 111, 237)");
      expect(colours.button).toBe("rgb(47, 111, 237)");
      expect(colours.bg).toBe(scheme === "dark" ? "rgb(14, 17, 22)" : "rgb(244, 246, 251)");
      // The toggle: added by the page's hashed script, shows and hides the password.
      await page.fill("#username", "dana");
      await page.fill("#password", "Dana-Secret-1");
      expect(await page.getAttribute("#password", "type")).toBe("password");
      await page.click("button.password-toggle");
      expect(await page.getAttribute("#password", "type")).toBe("text");
      expect(await page.getAttribute("button.password-toggle", "aria-pressed")).toBe("true");
      await page.click("button.password-toggle");
      expect(await page.getAttribute("#password", "type")).toBe("password");
      await shot(page, `login-${scheme}`);
      await page.fill("#password", "wrong-password");
      await page.click("button[type=submit]");
      await page.waitForSelector("p.alert");
      await shot(page, `login-error-${scheme}`);
      await page.fill("#password", "Dana-Secret-1");
      await page.click("button[type=submit]");
      await page.waitForSelector("form button[value=approve]");
      await shot(page, `consent-${scheme}`);
      expect(blocked).toEqual([]);
      await close();
    }, 60_000);

    it(`renders registration, forgot password and reset pages (${scheme})`, async () => {
      const { page, blocked, close } = await open(scheme);
      await page.goto(authUrl());
      await page.click("#register-link");
      await page.waitForSelector("#password-rules");
      await expectFinishedLook(page);
      await shot(page, `register-${scheme}`);
      await page.fill("#username", "newbie");
      await page.fill("#password", "short");
      await page.fill("#password-confirm", "short");
      await page.click("button[type=submit]");
      await page.waitForSelector("#registration-errors");
      await shot(page, `register-error-${scheme}`);
      await page.click("#back-to-login");
      await page.waitForSelector("#forgot-password-link");
      await page.click("#forgot-password-link");
      await page.waitForSelector("form #username");
      await shot(page, `forgot-password-${scheme}`);
      const before = sink.mails.length;
      await page.fill("#username", "dana");
      await page.click("button[type=submit]");
      await page.waitForSelector("#reset-email-sent");
      await shot(page, `forgot-password-sent-${scheme}`);
      const mails = await eventually(async () => sink.mails.slice(before), (l) => l.length > 0);
      const link = /\/realms\/[^/\s]+\/login-actions\/reset-password\?key=[A-Za-z0-9_-]+/.exec(decodeQuotedPrintable(mails[0]!.raw))![0];
      await page.goto(`${server.url}${link}`);
      await page.waitForSelector("#password-rules");
      await shot(page, `reset-password-${scheme}`);
      await page.fill("#password-new", "Dana-Secret-1");
      await page.fill("#password-confirm", "Dana-Secret-1");
      await page.click("button[type=submit]");
      await page.waitForSelector("#password-errors");
      await shot(page, `reset-password-error-${scheme}`);
      expect(blocked).toEqual([]);
      await close();
    }, 60_000);

    it(`renders the password update, TOTP, recovery code and logout pages of a branded realm (${scheme})`, async () => {
      const { page, blocked, close } = await open(scheme);
      const auth = `${server.url}/realms/${branded}/protocol/openid-connect/auth?${new URLSearchParams({
        client_id: "intranet", redirect_uri: CB, response_type: "code", scope: "openid", state: "s",
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256",
      })}`;
      await page.goto(auth);
      expect(await page.evaluate(() => (document.querySelector("img.logo") as HTMLImageElement).naturalWidth)).toBe(180);
      expect(await page.evaluate(() => getComputedStyle(document.querySelector("button[type=submit]")!).backgroundColor)).toBe("rgb(14, 116, 144)");
      await shot(page, `branded-login-${scheme}`);
      await page.fill("#username", `hank-${scheme}`);
      await page.fill("#password", "Hank-Secret-1");
      await page.click("button[type=submit]");
      // Keycloak's order of required actions: the authenticator first, then the password.
      await page.waitForSelector("#otp-secret");
      await shot(page, `otp-enroll-${scheme}`);
      const secret = (await page.textContent("#otp-secret"))!;
      await page.fill("#otp", await generate({ secret }));
      await page.click("button[type=submit]");
      await page.waitForSelector("ul.codes");
      await shot(page, `recovery-codes-${scheme}`);
      await page.click("button[type=submit]");
      await page.waitForSelector("#password-new");
      expect(await page.textContent("#password-rules")).toBe("At least 8 characters");
      await expectFinishedLook(page);
      await shot(page, `update-password-${scheme}`);
      await page.fill("#password-new", "Hank-Secret-2");
      await page.fill("#password-confirm", "Hank-Secret-2");
      await page.click("button[type=submit]");
      await page.waitForURL(`${CB}**`);
      await page.goto(`${server.url}/realms/${branded}/protocol/openid-connect/logout`);
      await page.waitForSelector("button[value=yes]");
      await shot(page, `logout-confirm-${scheme}`);
      await page.click("button[value=yes]");
      await page.waitForSelector("#logout-result");
      await shot(page, `logged-out-${scheme}`);
      await page.goto(auth);
      await page.fill("#username", `hank-${scheme}`);
      await page.fill("#password", "Hank-Secret-2");
      await page.click("button[type=submit]");
      await page.waitForSelector("#otp");
      await shot(page, `otp-${scheme}`);
      expect(blocked).toEqual([]);
      await close();
    }, 60_000);

    it(`renders the device, error and logout pages, and a narrow screen (${scheme})`, async () => {
      const { page, blocked, close } = await open(scheme);
      await page.goto(`${server.url}/realms/${realm}/device`);
      await page.waitForSelector("#user_code");
      await shot(page, `device-${scheme}`);
      await page.goto(`${server.url}/realms/${realm}/protocol/openid-connect/auth?client_id=nope&response_type=code`);
      await page.waitForSelector("#error-description");
      await expectFinishedLook(page);
      await shot(page, `error-${scheme}`);
      await page.goto(`${server.url}/realms/${realm}/protocol/openid-connect/logout`);
      await page.waitForSelector("#logout-result");
      await shot(page, `logout-no-session-${scheme}`);
      expect(blocked).toEqual([]);
      await close();
      const narrow = await open(scheme, 375);
      await narrow.page.goto(authUrl());
      const width = await narrow.page.evaluate(() => ({ card: document.querySelector(".card")!.getBoundingClientRect().width, doc: document.documentElement.scrollWidth }));
      expect(width.doc).toBe(375);
      expect(width.card).toBe(375);
      await shot(narrow.page, `login-narrow-${scheme}`);
      await narrow.close();
    }, 60_000);
  }
});
