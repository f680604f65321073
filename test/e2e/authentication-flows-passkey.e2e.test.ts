import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import * as oidc from "openid-client";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { adminApi, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { describeTier } from "../support/tier.js";

/**
 * Passkey steps of a custom browser flow (docs/authentication-flows.md) in a real Chromium with a
 * CDP virtual authenticator: a REQUIRED passkey after the password registers one for a user who
 * has none, then asks for it; a flow whose password step is REQUIRED refuses a passkey sign-in,
 * one listing both as ALTERNATIVE accepts it. openid-client redeems the codes. The public URL is
 * http://localhost:<port>: browsers refuse WebAuthn on IP addresses.
 */
const CHROMIUM = process.env.CHROMIUM_PATH as string;
const UP = { type: "username-password", requirement: "REQUIRED" };

describeTier("browser tier", ["CHROMIUM_PATH"], () => {
  describe("passkey steps of an authentication flow in Chromium", () => {
    let client: Server;
    let CB = "";
    let server: TestServer;
    let api: ReturnType<typeof adminApi>;
    let context: BrowserContext;
    let userDataDir: string;
    let realm: string;
    let userId: string;
    let flowId: string;
    let config: oidc.Configuration;
    let page: Page;

    beforeAll(async () => {
      client = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>client</title>"));
      await new Promise<void>((resolve) => client.listen(0, "127.0.0.1", resolve));
      CB = `http://localhost:${(client.address() as AddressInfo).port}/cb`;
      server = await startEmbeddedServer("flows-passkey");
      api = adminApi(server.url, server.apiKey);
      realm = uniqueName("flowpk");
      expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
      expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
      const created = await api.post(`/admin/realms/${realm}/users`, { username: "erin", password: "Erin-Secret-1" });
      expect(created.status).toBe(201);
      userId = created.body.id;
      const flow = await api.post(`/admin/realms/${realm}/authentication/flows`, { alias: "passkey 2fa", steps: [UP, { type: "passkey", requirement: "REQUIRED" }] });
      expect(flow.status).toBe(201);
      flowId = flow.body.id;
      expect((await api.put(`/admin/realms/${realm}/clients/web`, { browserFlowOverride: "passkey 2fa" })).status).toBe(200);
      config = await oidc.discovery(new URL(`${server.url}/realms/${realm}`), "web", undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
      userDataDir = mkdtempSync(join(tmpdir(), "tessera-chromium-"));
      context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
          "--disable-component-update", "--disable-sync"],
      });
      page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });
    }, 120_000);

    afterAll(async () => {
      await context?.close();
      await server?.stop();
      await new Promise((resolve) => (client ? client.close(resolve) : resolve(undefined)));
      if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    });

    async function start() {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: CB, scope: "openid", state, prompt: "login",
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
      });
      await page.goto(url.href).catch(async (e: unknown) => {
        if (!String(e).includes("interrupted by another navigation")) throw e;
        await page.goto(url.href);
      });
      return { verifier, state };
    }

    async function toClient(selector: string, s: { verifier: string; state: string }): Promise<string> {
      const redirected = page.waitForRequest((r) => r.url().startsWith(CB));
      await page.click(selector);
      const back = new URL((await redirected).url());
      await page.waitForURL((u) => u.href.startsWith(CB));
      const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: s.verifier, expectedState: s.state });
      return tokens.claims()?.sub ?? "";
    }

    async function password(): Promise<void> {
      await page.fill("#username", "erin");
      await page.fill("#password", "Erin-Secret-1");
      await page.click("button[type=submit]");
    }

    it("registers a passkey for a user without one, then asks for it after the password", async () => {
      const first = await start();
      await password();
      await page.waitForSelector("#passkey-button:not([disabled])");
      expect(await page.title()).toBe(`Register a passkey · ${realm}`);
      await page.fill("#passkey-label", "Laptop");
      expect(await toClient("#passkey-button", first)).toBe(userId);
      expect((await api.get(`/admin/realms/${realm}/users/${userId}/passkeys`)).body).toHaveLength(1);

      const second = await start();
      await password();
      await page.waitForSelector("#passkey-button:not([disabled])");
      expect(await page.title()).toBe(`Sign in with a passkey · ${realm}`);
      expect(await toClient("#passkey-button", second)).toBe(userId);
    }, 90_000);

    it("refuses a passkey sign-in when the password step is REQUIRED, accepts it when both are ALTERNATIVE", async () => {
      await start();
      await page.click("#passkey-login");
      await page.waitForSelector("#passkey-button:not([disabled])");
      await page.click("#passkey-button");
      await page.waitForSelector("#password");
      expect(await page.textContent("body")).toContain("Please sign in with your username and password.");

      const both = [{ ...UP, requirement: "ALTERNATIVE" }, { type: "passkey", requirement: "ALTERNATIVE" }];
      expect((await api.put(`/admin/realms/${realm}/authentication/flows/${flowId}`, { steps: both })).status).toBe(200);
      const s = await start();
      await page.click("#passkey-login");
      await page.waitForSelector("#passkey-button:not([disabled])");
      expect(await toClient("#passkey-button", s)).toBe(userId);
    }, 90_000);
  });
});
