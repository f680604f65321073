import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";

/**
 * The API reference page (GET /admin/docs) in a real Chromium under its own Content-Security-Policy:
 * Scalar renders the document from the gateway alone (no CDN, no request elsewhere), without a
 * CSP violation (it needs no eval and no inline script). Screenshot: test/artifacts/api-reference.png.
 */
describeTier("API reference page in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startEmbeddedServer("api-reference-browser");
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH!,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("renders the operations from /admin/openapi.json with no CSP violation and no request off the server", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const violations: string[] = [];
    const elsewhere: string[] = [];
    page.on("console", (m) => { if (/Content Security Policy|unsafe-eval/i.test(m.text())) violations.push(m.text()); });
    page.on("requestfailed", (r) => violations.push(`failed: ${r.url()}`));
    page.on("pageerror", (e) => violations.push(`page error: ${e.message}`));
    page.on("request", (r) => { if (!r.url().startsWith(server.url) && !r.url().startsWith("data:")) elsewhere.push(r.url()); });
    const res = await page.goto(`${server.url}/admin/docs`);
    expect(res?.status()).toBe(200);
    // Scalar lists each operation by its summary; these come from the document, not the page.
    await page.getByText("Create a realm").first().waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "OpenID Connect" }).first().click();
    await page.getByText("Token endpoint (RFC 6749 section 3.2)").first().waitFor({ timeout: 30_000 });
    const out = join(process.cwd(), "test", "artifacts");
    mkdirSync(out, { recursive: true });
    await page.screenshot({ path: join(out, "api-reference.png") });
    expect(violations).toEqual([]);
    expect(elsewhere).toEqual([]);
    await context.close();
  }, 90_000);
});
