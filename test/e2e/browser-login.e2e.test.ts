import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";

/**
 * The hosted login page in a real Chromium (DESIGN 6 tier 4), when CHROMIUM_PATH names one. Saves
 * a screenshot of the login page to test/artifacts/login-page.png, and signs in to see the code
 * redirect.
 */
const CHROMIUM = process.env.CHROMIUM_PATH;

if (!CHROMIUM) {
  describe("hosted login page in Chromium", () => {
    it("did not run: CHROMIUM_PATH is not set", () => {
      expect(CHROMIUM).toBeUndefined();
    });
  });
} else {
  describe("hosted login page in Chromium", () => {
    let server: TestServer;
    let context: BrowserContext;
    let userDataDir: string;
    let realm: string;
    const CB = "http://localhost:3997/cb";

    beforeAll(async () => {
      server = await startEmbeddedServer("browser-login");
      const api = adminApi(server.url, server.apiKey);
      realm = uniqueName("browser");
      expect((await api.post("/admin/realms", { name: realm, displayName: "Browser Realm", themeName: "tessera" })).status).toBe(201);
      expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", name: "Web App", clientType: "CONFIDENTIAL", redirectUris: [CB] })).status).toBe(201);
      expect((await api.post(`/admin/realms/${realm}/users`, { username: "carol", password: "Carol-Secret-1" })).status).toBe(201);
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
      const primary = await page.evaluate(() => getComputedStyle(document.querySelector("button")!).backgroundColor);
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
  });
}
