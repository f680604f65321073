import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { describeTier } from "../support/tier.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { checkPage, consolePage, launchChromium, signInToAdminConsole } from "./support/console-browser.js";

/**
 * The admin console in a real Chromium (DESIGN 6 tier 4): a day of realm administration through
 * the browser only, each page checked by axe-core and saved as a screenshot under
 * test/artifacts/console/, no CSP violation anywhere.
 */
describeTier("admin console in Chromium", ["CHROMIUM_PATH"], () => {
  let server: TestServer;
  let browser: Browser;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await startEmbeddedServer("admin-console");
    api = adminApi(server.url, server.apiKey);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signIn = (page: Page) => signInToAdminConsole(page, server);

  it("serves the console with a CSP that admits no inline script or style and no eval", async () => {
    const res = await http("GET", `${server.url}/admin/console`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    const script = /src="(\/resources\/console\/assets\/[^"]+\.js)"/.exec(res.text)![1]!;
    const asset = await http("GET", `${server.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await http("GET", `${server.url}/resources/console/assets/..%2Fadmin.html`)).status).toBe(404);
    expect((await http("GET", `${server.url}/resources/console/assets/nope.js`)).status).toBe(404);
  });

  it("signs in, creates a realm, a user, a client (secret copied once), a group with a member, and lists their admin events", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] });
    const { page, problems } = await consolePage(context);
    try {
      await page.goto(`${server.url}/admin/console`);
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      await checkPage(page, "sign-in");
      await signIn(page);
      await checkPage(page, "realms");

      // Realm, with admin events switched on at creation.
      const realm = uniqueName("console");
      await page.getByRole("link", { name: "Create realm" }).click();
      await page.getByLabel("Realm name").fill(realm);
      await page.getByLabel("Display name").fill("Console Corp");
      await page.getByLabel("Save admin events").check();
      await page.getByLabel("Save login events").check();
      await checkPage(page, "create-realm");
      await page.getByRole("button", { name: "Create realm" }).click();
      await page.getByRole("heading", { level: 1, name: "Users" }).waitFor();
      const stored = await api.get(`/admin/realms/${realm}`);
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({ name: realm, displayName: "Console Corp", adminEventsEnabled: true, eventsEnabled: true });

      // User.
      await page.getByRole("button", { name: "Create user" }).click();
      await page.getByLabel("Username").fill("dana");
      await page.getByLabel("Email").fill("dana@example.com");
      await page.getByLabel("Initial password").fill("Dana-Secret-1");
      await checkPage(page, "users-create");
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await page.getByRole("heading", { name: "dana" }).waitFor();
      await checkPage(page, "user");
      const users = await api.get(`/admin/realms/${realm}/users?username=dana`);
      expect(users.body.users.map((u: { email: string }) => u.email)).toEqual(["dana@example.com"]);

      // Client: the secret is shown once, copied with Copy, and works at the token endpoint.
      await page.getByRole("navigation", { name: "Realm" }).getByRole("link", { name: "Clients" }).click();
      await page.getByRole("button", { name: "Create client" }).click();
      await page.getByLabel("Client ID").fill("billing-api");
      await page.getByLabel("Client credentials (service account)").check();
      await page.getByLabel("Valid redirect URIs").fill("https://billing.example.com/cb");
      await page.getByRole("button", { name: "Create", exact: true }).click();
      const secretBox = page.getByRole("textbox", { name: "Client secret" });
      const secret = await secretBox.inputValue();
      expect(secret.length).toBeGreaterThanOrEqual(32);
      await checkPage(page, "client-secret-once");
      await page.getByRole("button", { name: "Copy" }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      const token = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
        form: { grant_type: "client_credentials" },
        headers: { authorization: `Basic ${Buffer.from(`billing-api:${secret}`).toString("base64")}` },
      });
      expect(token.status).toBe(200);
      await page.getByRole("button", { name: "Done" }).click();
      await page.getByRole("heading", { name: "billing-api" }).waitFor();
      expect(await secretBox.count()).toBe(0);
      expect(await page.content()).not.toContain(secret);
      await checkPage(page, "client");

      // Group with a member.
      await page.getByRole("navigation", { name: "Realm" }).getByRole("link", { name: "Groups" }).click();
      await page.getByLabel("Group name").fill("staff");
      await page.getByRole("button", { name: "Create group" }).click();
      await page.getByLabel("Member username").fill("dana");
      await page.getByRole("button", { name: "Add member" }).click();
      await page.getByRole("list", { name: "Members" }).getByRole("link", { name: "dana" }).waitFor();
      await checkPage(page, "groups");
      const groups = await api.get(`/admin/realms/${realm}/groups`);
      const members = await api.get(`/admin/realms/${realm}/groups/${groups.body[0].id}/members`);
      expect(members.body.map((u: { username: string }) => u.username)).toEqual(["dana"]);

      // The admin events of all of it, then filtered to the client's.
      await page.getByRole("navigation", { name: "Realm" }).getByRole("link", { name: "Admin events" }).click();
      const table = page.getByRole("table", { name: "Admin event list" });
      await table.waitFor();
      const kinds = async (): Promise<string[]> => (await table.locator("tbody tr").evaluateAll((rows) =>
        rows.map((r) => `${r.children[1]!.textContent} ${r.children[2]!.textContent}`))).sort();
      expect(await kinds()).toEqual(expect.arrayContaining(["CREATE CLIENT", "CREATE GROUP", "CREATE GROUP_MEMBERSHIP", "CREATE USER"]));
      await checkPage(page, "admin-events");
      await page.getByLabel("Resource type").selectOption("CLIENT");
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForFunction(() => Array.from(document.querySelectorAll("tbody tr")).every((r) => r.children[2]?.textContent === "CLIENT"));
      expect(await kinds()).toEqual(["CREATE CLIENT"]);

      // A session of dana's (a password grant of a public client), seen on Sessions and signed out there.
      expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "cli-app", clientType: "PUBLIC", grantTypes: ["password", "refresh_token"] })).status).toBe(201);
      const grant = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
        form: { grant_type: "password", client_id: "cli-app", username: "dana", password: "Dana-Secret-1", scope: "openid" },
      });
      expect(grant.status).toBe(200);
      await page.getByRole("navigation", { name: "Realm" }).getByRole("link", { name: "Sessions" }).click();
      const sessions = page.getByRole("table", { name: "Active sessions" });
      await sessions.getByRole("link", { name: "dana" }).waitFor();
      await checkPage(page, "sessions");
      await sessions.getByRole("button", { name: /^Sign out dana/ }).first().click();
      await page.getByText("No active sessions.").waitFor();
      const user = users.body.users[0] as { id: string };
      expect((await api.get(`/admin/realms/${realm}/users/${user.id}/sessions`)).body).toEqual([]);

      await page.getByRole("navigation", { name: "Realm" }).getByRole("link", { name: "Events", exact: true }).click();
      await page.getByRole("table", { name: "Login events" }).or(page.getByText("No events match.")).waitFor();
      await checkPage(page, "events");
      for (const [link, name] of [["Realm settings", "realm-settings"], ["Realm roles", "roles"], ["Client scopes", "client-scopes"],
        ["Identity providers", "identity-providers"], ["User federation", "user-federation"], ["SAML service providers", "saml-service-providers"]] as const) {
        await page.getByRole("navigation", { name: "Realm" }).getByRole("link", { name: link }).click();
        await page.getByRole("heading", { level: 1, name: link }).waitFor();
        await page.getByRole("status").filter({ hasText: "Loading" }).waitFor({ state: "detached" });
        await checkPage(page, name);
      }

      // A SAML service provider through the generic resource page, then its edit form.
      await page.getByRole("button", { name: "Add SAML service provider" }).click();
      await page.getByLabel("Entity ID").fill("https://wiki.example.com/saml");
      await page.getByLabel("Name", { exact: true }).fill("Wiki");
      await page.getByLabel("Assertion consumer service URL").fill("https://wiki.example.com/saml/acs");
      await page.getByRole("button", { name: "Add", exact: true }).click();
      await page.getByRole("form", { name: "Edit SAML service provider" }).waitFor();
      await checkPage(page, "saml-service-provider");
      const sps = await api.get(`/admin/realms/${realm}/saml-service-providers`);
      expect(sps.body.map((sp: { entityId: string; name: string }) => [sp.entityId, sp.name])).toEqual([["https://wiki.example.com/saml", "Wiki"]]);

      // Realm settings: Keycloak's "Edit username" (editUsernameAllowed) among the login settings.
      await page.getByRole("navigation", { name: "Realm" }).getByRole("link", { name: "Realm settings" }).click();
      await page.getByRole("heading", { level: 1, name: "Realm settings" }).waitFor();
      const editUsername = page.getByLabel("Edit username");
      await editUsername.waitFor();
      expect(await editUsername.isChecked()).toBe(false);
      await editUsername.check();
      // Keycloak's "Remember me" (Login) and its SSO Session Max Remember Me (Sessions).
      const rememberMe = page.getByLabel("Remember me", { exact: true });
      expect(await rememberMe.isChecked()).toBe(false);
      await rememberMe.check();
      const rememberMeMax = page.getByLabel("SSO Session Max Remember Me (seconds)");
      expect(await rememberMeMax.inputValue()).toBe("0");
      await rememberMeMax.fill("1209600");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Realm settings saved.").waitFor();
      const saved = (await api.get(`/admin/realms/${realm}`)).body;
      expect([saved.editUsernameAllowed, saved.rememberMe, saved.ssoSessionMaxLifespanRememberMe, saved.ssoSessionIdleTimeoutRememberMe]).toEqual([true, true, 1_209_600, 0]);

      await page.getByRole("link", { name: "Switch realm" }).click();
      await page.getByRole("link", { name: "Import realm" }).click();
      await page.getByRole("heading", { name: "Import realm" }).waitFor();
      await checkPage(page, "import-realm");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("shows the API's field error beside the field it names", async () => {
    const realm = uniqueName("console-err");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const expected = await api.post(`/admin/realms/${realm}/clients`, { clientId: "x" });
    expect(expected.status).toBe(400);
    expect(expected.body.field).toBe("clientId");
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    try {
      await signIn(page);
      await page.goto(`${server.url}/admin/console#/realms/${realm}/clients`);
      await page.getByRole("button", { name: "Create client" }).click();
      const field = page.getByLabel("Client ID");
      await field.fill("x");
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await page.locator("[aria-invalid=true]").waitFor();
      expect(await field.getAttribute("aria-invalid")).toBe("true");
      const describedBy = (await field.getAttribute("aria-describedby"))!.split(" ");
      const texts = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()));
      expect(texts).toContain(expected.body.message);
      await checkPage(page, "client-field-error");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("renews the admin token with the login's refresh token (never the password), and forgets it at sign-out", async () => {
    const realm = uniqueName("console-jwt");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await consolePage(context);
    let logins = 0;
    const renewals: Request[] = [];
    page.on("request", (r: Request) => {
      if (r.url().endsWith("/admin/auth/login") && r.method() === "POST") logins++;
      if (r.url().endsWith("/admin/auth/refresh") && r.method() === "POST") renewals.push(r);
    });
    try {
      // The page's clock is Playwright's: half an hour passes in the page without the test waiting for it.
      await page.clock.install();
      const signedIn = page.waitForResponse((r) => r.url().endsWith("/admin/auth/login"));
      await signIn(page);
      const login = (await (await signedIn).json()) as { accessToken: string; refreshToken: string; refreshExpiresIn: number };
      const first = `Bearer ${login.accessToken}`;
      expect(login.refreshExpiresIn).toBe(1800);
      expect(logins).toBe(1);
      const exp = (jwt: string): number => JSON.parse(Buffer.from(jwt.replace(/^Bearer /, "").split(".")[1]!, "base64url").toString()).exp as number;
      // The JWT's iat and exp have one-second resolution: let a second pass so the renewed token differs.
      await new Promise((r) => setTimeout(r, 1100));
      // The refresh token dies after 30 minutes unused, before the hour of the access token: the renewal comes a minute before it.
      const renewal = page.waitForResponse((r) => r.url().endsWith("/admin/auth/refresh"));
      await page.clock.fastForward(1800_000 - 59_000);
      const renewed = await renewal;
      expect(renewed.status()).toBe(200);
      expect(logins).toBe(1);
      expect(renewals).toHaveLength(1);
      // The renewal carries the refresh token alone: the password was not kept for it.
      expect(JSON.parse(renewals[0]!.postData()!)).toEqual({ refreshToken: login.refreshToken });
      const next = (await renewed.json()) as { refreshToken: string };
      expect(next.refreshToken).not.toBe(login.refreshToken);
      // The page has taken the new token (the response event can come before its script reads the body).
      await page.locator("[data-renewals='1']").waitFor();
      await page.getByRole("searchbox", { name: "Search realms" }).fill(realm);
      const searched = page.waitForRequest((r) => r.url().includes(`search=${realm}`));
      await page.getByRole("button", { name: "Search" }).click();
      const used = (await searched).headers().authorization!;
      await page.getByRole("link", { name: realm }).waitFor();
      expect(used).not.toBe(first);
      expect(exp(used)).toBeGreaterThan(exp(first));

      // The next renewal uses the rotated token; the server refusing it (here: tampered on the way)
      // ends the session with the server's reason on the sign-in page.
      await page.route("**/admin/auth/refresh", async (route) => {
        const body = JSON.parse(route.request().postData()!) as { refreshToken: string };
        expect(body).toEqual({ refreshToken: next.refreshToken });
        await route.continue({ postData: JSON.stringify({ refreshToken: `${body.refreshToken.slice(0, -4)}AAAA` }) });
      });
      const refused = page.waitForResponse((r) => r.url().endsWith("/admin/auth/refresh"));
      await page.clock.fastForward(1800_000);
      expect((await refused).status()).toBe(401);
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      await page.getByText("Your session ended: the refresh token is not valid or has expired; log in again").waitFor();
      await page.unroute("**/admin/auth/refresh");

      const second = page.waitForResponse((r) => r.url().endsWith("/admin/auth/login"));
      await signIn(page);
      const held = (await (await second).json()) as { accessToken: string; refreshToken: string };
      const loggedOut = page.waitForResponse((r) => r.url().endsWith("/admin/auth/logout"));
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      // The server ended the sign-in: neither of its tokens is accepted any more.
      expect((await loggedOut).status()).toBe(204);
      expect((await fetch(`${server.url}/admin/realms`, { headers: { authorization: `Bearer ${held.accessToken}` } })).status).toBe(401);
      expect((await fetch(`${server.url}/admin/auth/refresh`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ refreshToken: held.refreshToken }),
      })).status).toBe(401);
      // Forgotten: the document no longer holds the session (a fresh sign-in is asked for).
      await page.goto(`${server.url}/admin/console#/realms/${realm}/users`);
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
