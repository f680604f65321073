import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { describeTier } from "../support/tier.js";

/**
 * The hosted login page in a real Chromium (DESIGN 6 tier 4), when CHROMIUM_PATH names one. Saves
 * a screenshot of the login page to test/artifacts/login-page.png, and signs in to see the code
 * redirect.
 */
const CHROMIUM = process.env.CHROMIUM_PATH as string;

describeTier("browser tier", ["CHROMIUM_PATH"], () => {
  describe("hosted login page in Chromium", () => {
    let server: TestServer;
    let context: BrowserContext;
    let userDataDir: string;
    let realm: string;
    const CB = "http://localhost:3997/cb";
    /** A native app's private-use redirect URI (RFC 8252 section 7.1). */
    const NATIVE_CB = "com.example.app:/cb";

    beforeAll(async () => {
      server = await startEmbeddedServer("browser-login");
      const api = adminApi(server.url, server.apiKey);
      realm = uniqueName("browser");
      expect((await api.post("/admin/realms", { name: realm, displayName: "Browser Realm", themeName: "tessera" })).status).toBe(201);
      expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", name: "Web App", clientType: "CONFIDENTIAL", redirectUris: [CB] })).status).toBe(201);
      expect((await api.post(`/admin/realms/${realm}/users`, { username: "carol", password: "Carol-Secret-1" })).status).toBe(201);
      expect((await api.post(`/admin/realms/${realm}/clients`, {
        clientId: "asks", name: "Asking App", clientType: "PUBLIC", redirectUris: [CB], requireConsent: true,
      })).status).toBe(201);
      expect((await api.post(`/admin/realms/${realm}/clients`, {
        clientId: "tv", name: "TV App", clientType: "PUBLIC", grantTypes: ["urn:ietf:params:oauth:grant-type:device_code"],
      })).status).toBe(201);
      expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "native", clientType: "PUBLIC", redirectUris: [NATIVE_CB] })).status).toBe(201);
      userDataDir = mkdtempSync(join(tmpdir(), "tessera-chromium-"));
      // A fresh profile per run (launchPersistentContext takes the userDataDir Playwright would refuse in args).
      context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
          "--disable-component-update", "--disable-sync"],
      });
    }, 120_000);

    afterAll(async () => {
      await context?.close();
      await server?.stop();
      if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    });

    const authUrl = () => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
      client_id: "web", redirect_uri: CB, response_type: "code", scope: "openid", state: "browser-state", login_hint: "carol",
    })}`;

    it("renders the login page, prefilled from login_hint, and saves a screenshot", async () => {
      const page = await context.newPage();
      const res = await page.goto(authUrl());
      expect(res?.status()).toBe(200);
      expect(await page.title()).toBe("Sign in · Browser Realm");
      expect(await page.inputValue("#username")).toBe("carol");
      expect(await page.isVisible("#password")).toBe(true);
      expect(await page.textContent("h1")).toBe("Browser Realm");
      const primary = await page.evaluate(() => getComputedStyle(document.querySelector("button[type=submit]")!).backgroundColor);
      expect(primary).toBe("rgb(47, 111, 237)");
      mkdirSync(join(process.cwd(), "test", "artifacts"), { recursive: true });
      const file = join(process.cwd(), "test", "artifacts", "login-page.png");
      await page.screenshot({ path: file, fullPage: true });
      expect(statSync(file).size).toBeGreaterThan(1000);
      await page.close();
    }, 60_000);

    it("cannot be framed (frame-ancestors 'none')", async () => {
      const page = await context.newPage();
      await page.goto(`${server.url}/health`);
      const framed = await page.evaluate(async (src) => {
        const f = document.createElement("iframe");
        f.src = src;
        document.body.appendChild(f);
        await new Promise((r) => setTimeout(r, 1500));
        try {
          return f.contentDocument?.querySelector("#username") !== null && f.contentDocument !== null;
        } catch {
          return false;
        }
      }, authUrl());
      expect(framed).toBe(false);
      await page.close();
    }, 60_000);

    it("signs in and is redirected to the client with a code", async () => {
      const page = await context.newPage();
      await page.goto(authUrl());
      await page.fill("#password", "Carol-Secret-1");
      const redirected = page.waitForRequest((r) => r.url().startsWith(CB));
      await page.click("button[type=submit]");
      const url = new URL((await redirected).url());
      expect(url.searchParams.get("state")).toBe("browser-state");
      expect(url.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await page.close();
    }, 60_000);

    /** A page on the authorization endpoint with carol's password filled in, and the CSP violations Chromium logs. */
    async function carolsLoginPage(params: Record<string, string>) {
      const page = await context.newPage();
      const blocked: string[] = [];
      page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) blocked.push(m.text()); });
      await page.goto(`${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams(params)}`);
      await page.fill("#password", "Carol-Secret-1");
      return { page, blocked };
    }

    it("signs in for a native app and navigates to its private-use scheme (CSP form-action admits it)", async () => {
      await context.clearCookies();
      const { page, blocked } = await carolsLoginPage({
        client_id: "native", redirect_uri: NATIVE_CB, response_type: "code", scope: "openid", state: "native-state", login_hint: "carol",
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256",
      });
      // Chromium applies the login page's form-action to the 302 that answers its POST (CSP3 section
      // 6.3.1): blocked, it logs a violation and never requests the app's URI. Headless Chromium has
      // no handler for the scheme, so the navigation then fails; the request is what matters.
      const redirected = page.waitForRequest((r) => r.url().startsWith(`${NATIVE_CB}?`), { timeout: 10_000 });
      await page.click("button[type=submit]");
      const url = new URL((await redirected).url());
      expect(url.protocol).toBe("com.example.app:");
      expect(url.searchParams.get("state")).toBe("native-state");
      expect(url.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(blocked).toEqual([]);
      await page.close();
    }, 60_000);

    it("with response_mode=form_post, posts the code to the client from the page's own script (CSP nonce)", async () => {
      const { page, blocked } = await carolsLoginPage({
        client_id: "web", redirect_uri: CB, response_type: "code", scope: "openid", state: "posted-state", login_hint: "carol",
        response_mode: "form_post", prompt: "login",
      });
      const posted = page.waitForRequest((r) => r.url() === CB && r.method() === "POST");
      await page.click("button[type=submit]");
      const form = new URLSearchParams((await posted).postData() ?? "");
      expect(form.get("state")).toBe("posted-state");
      expect(form.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(form.get("iss")).toBe(`${server.url}/realms/${realm}`);
      expect(blocked).toEqual([]);
      await page.close();
    }, 60_000);

    it("asks for consent on the consent page and redirects with a code after Allow", async () => {
      await context.clearCookies();
      const page = await context.newPage();
      await page.goto(`${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
        client_id: "asks", redirect_uri: CB, response_type: "code", scope: "openid profile", state: "consent-state",
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256",
      })}`);
      await page.fill("#username", "carol");
      await page.fill("#password", "Carol-Secret-1");
      await page.click("button[type=submit]");
      await page.waitForSelector("button[name=decision][value=approve]");
      expect(await page.textContent("body")).toContain("Asking App");
      const redirected = page.waitForRequest((r) => r.url().startsWith(CB));
      await page.click("button[name=decision][value=approve]");
      const url = new URL((await redirected).url());
      expect(url.searchParams.get("state")).toBe("consent-state");
      expect(url.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await page.close();
    }, 60_000);

    it("verifies a device: enter the user code, sign in, approve; the device then gets tokens", async () => {
      await context.clearCookies();
      const oidcBase = `${server.url}/realms/${realm}/protocol/openid-connect`;
      const started = await fetch(`${oidcBase}/auth/device`, {
        method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ client_id: "tv", scope: "openid" }),
      });
      expect(started.status).toBe(200);
      const device = await started.json() as { device_code: string; user_code: string; verification_uri: string };
      const page = await context.newPage();
      await page.goto(device.verification_uri);
      await page.fill("#user_code", device.user_code);
      await page.click("button[type=submit]");
      await page.fill("#username", "carol");
      await page.fill("#password", "Carol-Secret-1");
      await page.click("button[type=submit]");
      await page.waitForSelector("button[name=decision][value=approve]");
      expect(await page.textContent("body")).toContain("TV App");
      await page.click("button[name=decision][value=approve]");
      await page.waitForSelector("#device-result");
      expect(await page.textContent("#device-result")).toBe("Your device is connected to TV App. You can return to it now.");
      await page.close();
      const tokens = await fetch(`${oidcBase}/token`, {
        method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: device.device_code, client_id: "tv" }),
      });
      expect(tokens.status).toBe(200);
      expect(typeof (await tokens.json() as { access_token: string }).access_token).toBe("string");
    }, 60_000);
  });
});
