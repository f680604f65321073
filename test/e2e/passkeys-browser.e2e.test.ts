import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import * as oidc from "openid-client";
import { chromium, type BrowserContext, type CDPSession, type Page } from "playwright-core";
import { adminApi, recordResponses, uniqueName } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { eventually } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { describeTier } from "../support/tier.js";

/**
 * Passkeys (WebAuthn Level 2) on the hosted pages, in a real Chromium whose authenticator is a
 * CDP virtual authenticator (CTAP2, resident keys, user verification): registration through
 * kc_action, a username-less login ending in tokens openid-client accepts, a replayed assertion,
 * a cloned authenticator caught by its signature counter, and removal through the Admin API.
 * The server's public URL is http://localhost:<port>: browsers refuse WebAuthn on IP addresses.
 */
const CHROMIUM = process.env.CHROMIUM_PATH as string;
const recorded = recordResponses();

describeTier("browser tier", ["CHROMIUM_PATH"], () => {
  describe("passkeys in Chromium", () => {
    // The client's callback is served: an unanswered redirect leaves Chromium on its error page,
    // and a navigation away from an error page swaps processes and is reported as interrupted.
    let client: Server;
    let CB = "";
    let server: TestServer;
    let api: ReturnType<typeof adminApi>;
    let context: BrowserContext;
    let userDataDir: string;
    let realm: string;
    let userId: string;
    let config: oidc.Configuration;
    let page: Page;
    let cdp: CDPSession;
    let authenticatorId: string;

    beforeAll(async () => {
      client = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>client</title>"));
      await new Promise<void>((resolve) => client.listen(0, "127.0.0.1", resolve));
      CB = `http://localhost:${(client.address() as AddressInfo).port}/cb`;
      server = await startEmbeddedServer("passkeys");
      api = adminApi(server.url, server.apiKey);
      realm = uniqueName("passkeys");
      expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true, adminEventsEnabled: true })).status).toBe(201);
      expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
      const created = await api.post(`/admin/realms/${realm}/users`, { username: "dave", password: "Dave-Secret-1" });
      expect(created.status).toBe(201);
      userId = created.body.id;
      config = await oidc.discovery(new URL(`${server.url}/realms/${realm}`), "web", undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
      userDataDir = mkdtempSync(join(tmpdir(), "tessera-chromium-"));
      context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
          "--disable-component-update", "--disable-sync"],
      });
      page = await context.newPage();
      ({ cdp, authenticatorId } = await virtualAuthenticator(page));
    }, 120_000);

    afterAll(async () => {
      await context?.close();
      await server?.stop();
      await new Promise((resolve) => (client ? client.close(resolve) : resolve(undefined)));
      if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    });

    async function virtualAuthenticator(p: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
      const session = await context.newCDPSession(p);
      await session.send("WebAuthn.enable");
      const { authenticatorId: id } = await session.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      return { cdp: session, authenticatorId: id };
    }

    /** An authorization request with PKCE; `prompt=login` so an earlier SSO session is not reused. */
    async function start(extra: Record<string, string> = {}) {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: CB, scope: "openid", state, nonce, prompt: "login",
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", ...extra,
      });
      return { url, verifier, state, nonce };
    }

    /** Clicks `selector` and answers the URL of the redirect to the client, once its page loaded. */
    async function clickToClient(p: Page, selector: string): Promise<URL> {
      const redirected = p.waitForRequest((r) => r.url().startsWith(CB));
      await p.click(selector);
      const url = new URL((await redirected).url());
      await p.waitForURL((u) => u.href.startsWith(CB));
      return url;
    }

    /** A navigation a late redirect may still interrupt: then it is made again. */
    async function goto(p: Page, url: string): Promise<void> {
      await p.goto(url).catch(async (e: unknown) => {
        if (!String(e).includes("interrupted by another navigation")) throw e;
        await p.goto(url);
      });
    }

    async function passkeyLogin(p: Page, s: Awaited<ReturnType<typeof start>>): Promise<void> {
      await goto(p, s.url.href);
      await p.click("#passkey-login");
      await p.waitForSelector("#passkey-button:not([disabled])");
      expect(await p.title()).toBe(`Sign in with a passkey · ${realm}`);
    }

    let idToken = "";

    it("registers a passkey after a password login (kc_action=webauthn-register-passwordless)", async () => {
      const s = await start({ kc_action: "webauthn-register-passwordless", login_hint: "dave" });
      await goto(page, s.url.href);
      await page.fill("#password", "Dave-Secret-1");
      await page.click("button[type=submit]");
      await page.waitForSelector("#passkey-button:not([disabled])");
      expect(await page.title()).toBe(`Register a passkey · ${realm}`);
      await page.fill("#passkey-label", "Laptop");
      const back = await clickToClient(page, "#passkey-button");
      const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: s.verifier, expectedState: s.state, expectedNonce: s.nonce });
      expect(tokens.claims()?.sub).toBe(userId);
      idToken = tokens.id_token ?? "";

      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]!.isResidentCredential).toBe(true);
      const listed = await api.get(`/admin/realms/${realm}/users/${userId}/passkeys`);
      expect(listed.status).toBe(200);
      expect(listed.body).toHaveLength(1);
      expect(listed.body[0]).toMatchObject({
        type: "webauthn-passwordless", userLabel: "Laptop", credentialId: credentials[0]!.credentialId.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"),
        transports: ["internal"], lastUsedDate: null,
      });
    }, 90_000);

    it("logs out, then signs in with the passkey alone and gets tokens", async () => {
      const logout = oidc.buildEndSessionUrl(config, { id_token_hint: idToken });
      await goto(page, logout.href);
      expect(await page.title()).toBe(`Logged out · ${realm}`);
      const s = await start();
      await passkeyLogin(page, s);
      const back = await clickToClient(page, "#passkey-button");
      const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: s.verifier, expectedState: s.state, expectedNonce: s.nonce });
      const claims = tokens.claims()!;
      expect(claims.sub).toBe(userId);
      expect(claims.preferred_username).toBe("dave");
      const info = await oidc.fetchUserInfo(config, tokens.access_token, userId);
      expect(info.preferred_username).toBe("dave");

      const events = await eventually(
        () => api.get(`/admin/realms/${realm}/events?type=LOGIN&userId=${userId}`),
        (r) => r.status === 200 && r.body.some((e: { details?: Record<string, string> }) => e.details?.credential_type === "webauthn-passwordless"),
      );
      // The password login before it names no credential type (as Keycloak's LOGIN does not).
      expect(events.body.map((e: { details?: Record<string, string> }) => e.details?.credential_type ?? "")).toEqual(
        expect.arrayContaining(["webauthn-passwordless", ""]),
      );
      const listed = await api.get(`/admin/realms/${realm}/users/${userId}/passkeys`);
      expect(listed.body[0].lastUsedDate).toEqual(expect.any(Number));
    }, 90_000);

    it("asks a user with a passkey for it after the password (second factor)", async () => {
      const s = await start({ login_hint: "dave" });
      await goto(page, s.url.href);
      await page.fill("#password", "Dave-Secret-1");
      await page.click("button[type=submit]");
      await page.waitForSelector("#passkey-button:not([disabled])");
      expect(await page.title()).toBe(`Sign in with a passkey · ${realm}`);
      expect((await page.textContent("#passkey-button"))?.trim()).toBe("Use your passkey");
      const back = await clickToClient(page, "#passkey-button");
      const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: s.verifier, expectedState: s.state, expectedNonce: s.nonce });
      expect(tokens.claims()?.sub).toBe(userId);
      const events = await eventually(
        () => api.get(`/admin/realms/${realm}/events?type=LOGIN&userId=${userId}`),
        (r) => r.status === 200 && r.body.some((e: { details?: Record<string, string> }) => e.details?.credential_type === "webauthn"),
      );
      expect(events.body.some((e: { details?: Record<string, string> }) => e.details?.credential_type === "webauthn")).toBe(true);
    }, 90_000);

    it("refuses the same assertion posted twice", async () => {
      const s = await start();
      await passkeyLogin(page, s);
      let posted = "";
      await page.route(`**/realms/${realm}/protocol/openid-connect/auth`, async (route) => {
        if (route.request().method() === "POST") posted = route.request().postData() ?? "";
        await route.continue();
      });
      await clickToClient(page, "#passkey-button");
      await page.unroute(`**/realms/${realm}/protocol/openid-connect/auth`);
      expect(new URLSearchParams(posted).get("step")).toBe("passkey");
      const replay = await page.request.post(`${server.url}/realms/${realm}/protocol/openid-connect/auth`, {
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url }, data: posted, maxRedirects: 0,
      });
      expect(replay.status()).toBe(400);
      expect(await replay.text()).toContain("This login page has expired or was already used.");
    }, 90_000);

    it("refuses a cloned authenticator whose signature counter went back", async () => {
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      const original = credentials[0]!;
      const stored = (await api.get(`/admin/realms/${realm}/users/${userId}/passkeys`)).body[0].signCount as number;
      expect(stored).toBe(original.signCount);
      const clonePage = await context.newPage();
      const clone = await virtualAuthenticator(clonePage);
      // The same key with the counter one behind: its next assertion repeats the stored count.
      await clone.cdp.send("WebAuthn.addCredential", { authenticatorId: clone.authenticatorId, credential: { ...original, signCount: original.signCount - 1 } });
      const s = await start();
      await passkeyLogin(clonePage, s);
      await clonePage.click("#passkey-button");
      await clonePage.waitForSelector(".alert");
      expect((await clonePage.textContent(".alert"))?.trim()).toBe("The passkey was not accepted.");
      const errors = await eventually(
        () => api.get(`/admin/realms/${realm}/events?type=LOGIN_ERROR&userId=${userId}`),
        (r) => r.status === 200 && r.body.length > 0,
      );
      expect(errors.body[0]).toMatchObject({ type: "LOGIN_ERROR", error: "invalid_authenticator_counter" });
      await clonePage.close();
    }, 90_000);

    it("lists and deletes the passkey in the Admin API; it then no longer signs in", async () => {
      const listed = await api.get(`/admin/realms/${realm}/users/${userId}/passkeys`);
      expect(listed.status).toBe(200);
      const id = listed.body[0].id as string;
      expect((await api.del(`/admin/realms/${realm}/users/${userId}/passkeys/${id}`)).status).toBe(204);
      const again = await api.del(`/admin/realms/${realm}/users/${userId}/passkeys/${id}`);
      expect(again.status).toBe(404);
      expect(again.body.error).toBe("passkey_not_found");
      expect((await api.get(`/admin/realms/${realm}/users/${userId}/passkeys`)).body).toEqual([]);
      const audit = await eventually(
        () => api.get(`/admin/realms/${realm}/admin-events?operationType=DELETE&resourceType=USER`),
        (r) => r.status === 200 && r.body.length > 0,
      );
      expect(audit.body[0].resourcePath).toBe(`users/${userId}/passkeys/${id}`);

      const s = await start();
      await passkeyLogin(page, s);
      await page.click("#passkey-button");
      await page.waitForSelector(".alert");
      expect((await page.textContent(".alert"))?.trim()).toBe("The passkey was not accepted.");
      expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
    }, 90_000);
  });
});
