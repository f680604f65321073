import type { Browser } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { startEmbeddedServer } from "./support/embedded-server.js";
import { BrokeringWorld, PASSWORD } from "./support/brokering-world.js";
import { checkPage, consolePage, launchChromium, signInToAccountConsole } from "./support/console-browser.js";

/**
 * Linking an identity provider from the account console in Chromium (Keycloak's client-initiated
 * account linking): the realm's unlinked provider has a "Link account" button; the browser goes
 * through panva's oidc-provider as the upstream and comes back to the console's Linked accounts,
 * which lists the link; an upstream account that belongs to another user comes back with the
 * error shown. axe-core on each state; screenshots under test/artifacts/console/.
 */
describeTier("account console linking in Chromium", ["CHROMIUM_PATH"], () => {
  const w = new BrokeringWorld({ mode: "embedded", start: (name) => startEmbeddedServer(name) }, "account-console-linking");
  let browser: Browser;

  beforeAll(async () => {
    await w.setUp();
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await w.tearDown();
  });

  it("links the provider through its sign-in, lists it, and shows a refused link's error", async () => {
    const rue = await w.api.post(`/admin/realms/${w.realm}/users`, { username: "rue", password: PASSWORD });
    expect(rue.status).toBe(201);
    w.op.accounts.set("u-rue", { sub: "u-rue", preferred_username: "rue.up" });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    try {
      await signInToAccountConsole(page, w.server.url, w.realm, { username: "rue", password: PASSWORD }, "linked-accounts");
      await page.getByRole("heading", { name: "Linked accounts", level: 1 }).waitFor();
      await page.getByText("No linked accounts.").waitFor();
      const button = page.getByRole("button", { name: "Link account Upstream" });
      await button.waitFor();
      await checkPage(page, "account-linked-accounts-unlinked");

      w.op.nextLogin = "u-rue";
      await button.click();
      // Upstream and back: the console signs in again through the SSO cookie, on the same section.
      await page.getByText("Your Upstream account is linked.").waitFor();
      expect(new URL(page.url()).hash).toBe("#/linked-accounts");
      expect(new URL(page.url()).search).toBe("");
      const row = page.getByRole("row", { name: /up rue\.up/ });
      await row.waitFor();
      expect(await page.getByRole("button", { name: "Link account Upstream" }).count()).toBe(0);
      await checkPage(page, "account-linked-accounts-linked");
      expect((await w.api.get(`/admin/realms/${w.realm}/users/${rue.body.id}/federated-identity`)).body)
        .toEqual([{ identityProvider: "up", userId: "u-rue", userName: "rue.up", createdAt: expect.any(String) }]);

      // Unlinked again, then linked to an upstream account another user holds: refused, and said so.
      await page.getByRole("button", { name: "Unlink up" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Unlink" }).click();
      await page.getByText("No linked accounts.").waitFor();
      w.op.accounts.set("u-sol", { sub: "u-sol", preferred_username: "sol" });
      expect((await w.loginAs("u-sol")).back.status).toBe(302);
      // The upstream would sign rue in again from its own session: forget it (its cookies only).
      for (const c of await context.cookies()) if (c.name.startsWith("_session") || c.name.startsWith("_interaction")) await context.clearCookies({ name: c.name });
      w.op.nextLogin = "u-sol";
      await page.getByRole("button", { name: "Link account Upstream" }).click();
      await page.getByRole("alert").filter({ hasText: "That Upstream account is already linked to another user." }).waitFor();
      expect(new URL(page.url()).search).toBe("");
      await page.getByText("No linked accounts.").waitFor();
      await checkPage(page, "account-linked-accounts-refused");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
