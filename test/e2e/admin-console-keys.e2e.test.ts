import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, launchChromium, openAdminConsole } from "./support/console-browser.js";

interface TokenKey { kid: string; alg: string; status: string }
interface SamlKey { id: string; status: string; fingerprintSha256: string; retiresAt?: string }

/**
 * The admin console's Keys page in a real Chromium: the realm's token signing keys and SAML
 * certificates listed and each rotated after a confirmation; the JWKS and the SAML metadata then
 * publish the new key beside the old one.
 */
describeTier("admin console keys in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-console-keys");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("lists and rotates the token and SAML signing keys", async () => {
    const realm = uniqueName("console-keys");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    // The first use of each makes the realm's first key.
    const jwks = async () => (await (await fetch(`${server.url}/realms/${realm}/protocol/openid-connect/certs`)).json()) as { keys: { kid: string }[] };
    const descriptor = async () => (await fetch(`${server.url}/realms/${realm}/protocol/saml/descriptor`)).text();
    const [firstKid] = (await jwks()).keys.map((k) => k.kid);
    await descriptor();
    const [firstSaml] = (await api.get(`/admin/realms/${realm}/saml-keys`)).body as SamlKey[];

    const { context, page, problems } = await openAdminConsole(browser, server, `realms/${realm}/users`);
    try {
      await page.getByRole("navigation", { name: "Realm" }).getByRole("link", { name: "Keys" }).click();
      await page.getByRole("heading", { level: 1, name: "Keys" }).waitFor();
      const tokenKeys = page.getByRole("table", { name: "Token signing keys" });
      await tokenKeys.getByText(firstKid!).waitFor();
      expect((await tokenKeys.locator("tbody tr td").allTextContents()).slice(0, 3)).toEqual([firstKid, "RS256", "active"]);
      const samlKeys = page.getByRole("table", { name: "SAML signing keys" });
      await samlKeys.getByText(firstSaml!.fingerprintSha256).waitFor();
      await checkPage(page, "keys");

      // A token key of the same algorithm: the new one signs, the old one stays published.
      const rotate = async (alg: string) => {
        await page.getByLabel("New key's algorithm").selectOption(alg);
        await page.getByRole("button", { name: "Rotate token key" }).click();
        await dialog.getByText(`Make a new ${alg} key the realm's signing key?`, { exact: false }).waitFor();
        await dialog.getByRole("button", { name: "Rotate" }).click();
        await page.getByText(`A new ${alg} key signs now`, { exact: false }).waitFor();
        return (await api.get(`/admin/realms/${realm}/keys`)).body as TokenKey[];
      };
      const dialog = page.getByRole("dialog");
      const rs = await rotate("RS256");
      const newRs = rs.find((k) => k.status === "active" && k.alg === "RS256")!;
      expect([newRs.kid === firstKid, rs.find((k) => k.kid === firstKid)?.status]).toEqual([false, "passive"]);
      expect((await jwks()).keys.map((k) => k.kid).sort()).toEqual([newRs.kid, firstKid].sort());
      await tokenKeys.getByText(newRs.kid).waitFor();
      // Another algorithm: its first key, active beside the RS256 one.
      const es = await rotate("ES256");
      expect(es.filter((k) => k.status === "active").map((k) => k.alg).sort()).toEqual(["ES256", "RS256"]);
      expect((await jwks()).keys.length).toBe(3);

      // A SAML key: the old certificate stays in the metadata until it retires.
      await page.getByRole("button", { name: "Rotate SAML key" }).click();
      await dialog.getByRole("button", { name: "Rotate" }).click();
      await page.getByText("A new SAML key signs now", { exact: false }).waitFor();
      const saml = (await api.get(`/admin/realms/${realm}/saml-keys`)).body as SamlKey[];
      expect(saml.map((k) => [k.status, k.id === firstSaml!.id])).toEqual([["ACTIVE", false], ["PASSIVE", true]]);
      expect(typeof saml[1]!.retiresAt).toBe("string");
      expect((await descriptor()).match(/<(?:md:)?KeyDescriptor/g)?.length).toBe(2);
      await samlKeys.locator("tbody tr").nth(1).waitFor();
      expect(await samlKeys.locator("tbody tr td:nth-child(3)").allTextContents()).toEqual(["ACTIVE", "PASSIVE"]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
