import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, consolePage, launchChromium } from "./support/console-browser.js";

/**
 * The login page's language menu in a real Chromium (DESIGN 6 tier 4): a link switches the page's
 * language, the choice holds on the next visit (TESSERA_LOCALE), the show-password toggle speaks
 * it too, and the page has no serious axe finding and no CSP violation.
 */
describeTier("the hosted pages' language menu in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let realm: string;
  const CB = "http://localhost:3988/cb";
  const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

  beforeAll(async () => {
    server = await startEmbeddedServer("localization-browser");
    const api = adminApi(server.url, server.apiKey);
    realm = uniqueName("i18n-ui");
    expect((await api.post("/admin/realms", {
      name: realm, displayName: "Boutique", internationalizationEnabled: true, supportedLocales: ["en", "de", "fr"], defaultLocale: "de",
    })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", name: "Web", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("switches the login page's language from the menu and keeps the choice", async () => {
    const context = await browser.newContext({ locale: "en-US" });
    const { page, problems } = await consolePage(context);
    const auth = `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
      client_id: "web", redirect_uri: CB, response_type: "code", scope: "openid", code_challenge: CHALLENGE, code_challenge_method: "S256",
    })}`;
    // The browser asks for English, which the realm offers.
    await page.goto(auth);
    expect(await page.getAttribute("html", "lang")).toBe("en");
    const nav = page.getByRole("navigation", { name: "Languages" });
    expect(await nav.getByRole("link").allTextContents()).toEqual(["English", "Deutsch", "Français"]);
    expect(await nav.getByRole("link", { name: "English" }).getAttribute("aria-current")).toBe("true");

    await nav.getByRole("link", { name: "Français" }).click();
    await page.getByRole("heading", { name: "Se connecter" }).waitFor();
    expect(await page.getAttribute("html", "lang")).toBe("fr");
    expect(await page.getByRole("navigation", { name: "Langues" }).getByRole("link", { name: "Français" }).getAttribute("aria-current")).toBe("true");
    expect(await page.locator("button.password-toggle").textContent()).toBe("Afficher");
    await page.locator("button.password-toggle").click();
    expect(await page.locator("button.password-toggle").getAttribute("aria-label")).toBe("Masquer le mot de passe");
    await checkPage(page, "login-language-menu-fr");

    // A new authorization in the same browser: the cookie keeps French over Accept-Language.
    await page.goto(auth);
    expect([await page.getAttribute("html", "lang"), await page.locator("h2").textContent()]).toEqual(["fr", "Se connecter"]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
