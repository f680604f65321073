import { decodeJwt } from "jose";
import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";
import { builtin, listed } from "./support/consent-page.js";

/**
 * The device verification page (RFC 8628 section 3.3) driven over HTTP as a browser: user code,
 * login, consent, approval, and the poll that follows. The device endpoints themselves:
 * oidc-device.e2e.test.ts.
 */
for (const target of targets()) describe(`OIDC device verification (${target.mode})`, () => {
  let server: TestServer;
  let realm: string;
  let api: ReturnType<typeof adminApi>;
  let aliceId: string;
  const CB = "http://localhost:3998/cb";
  const PASSWORD = "Correct-Horse-9";

  beforeAll(async () => {
    server = await target.start("oidc-device-verification");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("device-verify");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "app-one", clientType: "PUBLIC", redirectUris: [CB],
      grantTypes: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
    })).status).toBe(201);
    const alice = await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", password: PASSWORD });
    expect(alice.status).toBe(201);
    aliceId = alice.body.id;
  }, 90_000);
  afterAll(async () => server?.stop());

  const { login } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();

  it("verifies a device: user code, login, consent, approval (RFC 8628 3.3)", async () => {
    const res = await fetch(`${server.url}/realms/${realm}/protocol/openid-connect/auth/device`, {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: "app-one", scope: "openid" }),
    });
    expect(res.status).toBe(200);
    const device = await res.json() as { user_code: string; verification_uri_complete: string; device_code: string };
    const b = new BrowserSession(server.url);
    const loginPage = await b.get(`${server.url}/realms/${realm}/device?user_code=${encodeURIComponent(device.user_code.toLowerCase())}`);
    const wording = "<p class=\"subtitle\">Sign in to connect a device to app-one.</p>";
    expect(loginPage.text).toContain(wording);
    // A wrong password re-renders the page with the device wording.
    const wrong = await login(b, loginPage, "alice", "nope-nope-1");
    expect(wrong.text).toContain("<p class=\"alert\" role=\"alert\">Invalid username or password.</p>");
    expect(wrong.text).toContain(wording);
    expect(wrong.text).not.toContain("to continue to");
    const consent = await login(b, wrong);
    // The code as the device shows it, dash included (RFC 8628 section 6.1: the user compares them).
    expect(device.user_code).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);
    expect(consent.text).toContain(`on a device showing the code <code>${device.user_code}</code> wants to access your account (alice).`);
    // The scopes its tokens will carry that the consent screen shows, as on an authorization request's page.
    expect(listed(consent.text)).toEqual([builtin("email"), builtin("profile")]);
    const approved = await b.submit(consent, { decision: "approve" });
    expect(approved.status).toBe(200);
    expect(approved.text).toContain("<p id=\"device-result\">Your device is connected to app-one. You can return to it now.</p>");
    const poll = (device_code: string) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: "app-one", device_code },
    });
    const tokens = await poll(device.device_code);
    expect(tokens.status).toBe(200);
    // The user authenticated to approve it: acr "1" (OIDC Core 2).
    expect(decodeJwt(tokens.body.id_token).acr).toBe("1");

    // A second device approved in the same browser: the SSO session authenticated it, acr "0".
    const second = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/auth/device`, { form: { client_id: "app-one", scope: "openid" } });
    expect(second.status).toBe(200);
    const ssoConsent = await b.get(second.body.verification_uri_complete);
    expect(ssoConsent.status).toBe(200);
    expect(ssoConsent.text).toContain(`on a device showing the code <code>${second.body.user_code}</code> wants to access your account (alice).`);
    expect((await b.submit(ssoConsent, { decision: "approve" })).status).toBe(200);
    const ssoTokens = await poll(second.body.device_code);
    expect(ssoTokens.status).toBe(200);
    expect(decodeJwt(ssoTokens.body.id_token).acr).toBe("0");
    expect(decodeJwt(ssoTokens.body.access_token).acr).toBe("0");
  });

  it("refuses the device's poll once the SSO session that approved its code has ended: 400 invalid_grant, no session issued (RFC 8628 3.5)", async () => {
    const form = (path: string, body: Record<string, string>) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/${path}`, { form: body });
    const sessionsOfAlice = async () => (await api.get(`/admin/realms/${realm}/users/${aliceId}/sessions`)).body as Array<{ id: string; type: string }>;
    const before = (await sessionsOfAlice()).map((s) => s.id);
    const started = await form("auth/device", { client_id: "app-one", scope: "openid" });
    expect(started.status).toBe(200);
    const b = new BrowserSession(server.url);
    const consent = await login(b, await b.get(`${server.url}/realms/${realm}/device?user_code=${started.body.user_code}`));
    expect((await b.submit(consent, { decision: "approve" })).text).toContain("<p id=\"device-result\">Your device is connected to app-one. You can return to it now.</p>");
    const approving = (await sessionsOfAlice()).filter((s) => !before.includes(s.id));
    expect(approving).toEqual([expect.objectContaining({ type: "sso", clients: ["app-one"] })]);
    // The user signs out (here: the admin ends the session) before the device polls.
    expect((await api.del(`/admin/realms/${realm}/sessions/${approving[0]!.id}?type=sso`)).status).toBe(200);
    const poll = await form("token", { grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: "app-one", device_code: started.body.device_code });
    expect(poll.status).toBe(400);
    expect(poll.body).toEqual({ error: "invalid_grant", error_description: "the session that approved the device code has ended" });
    expect(poll.headers.get("cache-control")).toBe("no-store");
    // No OAuth session was started without its SSO session.
    expect((await sessionsOfAlice()).filter((s) => !before.includes(s.id))).toEqual([]);
  });
});

/**
 * RFC 8628 section 5.1: wrong user codes are bounded per realm and client IP whatever the realm's
 * throttle says (rateLimitPerIp is 0 here). Its own server: a bound of 3 in a 5 s window, so the
 * window's end is seen, and client IPs from X-Forwarded-For (TESSERA_TRUST_PROXY), so two clients
 * can be told apart. Embedded only: that the replicas of a cluster share the bound is
 * token-replicas.e2e.test.ts's.
 */
describe("OIDC device verification: the bound on wrong user codes (embedded)", () => {
  let server: TestServer;
  let realm: string;

  beforeAll(async () => {
    server = await startEmbeddedServer("oidc-device-guessing", {
      TESSERA_DEVICE_USER_CODE_FAILURES: "3", TESSERA_DEVICE_USER_CODE_WINDOW_SECONDS: "5", TESSERA_TRUST_PROXY: "loopback",
    });
    const api = adminApi(server.url, server.apiKey);
    realm = uniqueName("device-guess");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "tv", clientType: "PUBLIC", grantTypes: ["urn:ietf:params:oauth:grant-type:device_code"],
    })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const lookUp = (code: string, ip: string, method = "GET") =>
    http(method, `${server.url}/realms/${realm}/device?user_code=${encodeURIComponent(code)}`, { headers: { "x-forwarded-for": ip } });
  const INVALID = "Invalid or expired code. Please check the code and try again.";
  const LOGIN = "<p class=\"subtitle\">Sign in to connect a device to tv.</p>";

  it("refuses a client with 429 and Retry-After after 3 wrong codes, its right code too, until the window has passed; another client is served", async () => {
    const started = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/auth/device`, { form: { client_id: "tv" } });
    expect(started.status).toBe(200);
    const code: string = started.body.user_code;
    const guesser = "203.0.113.7";
    // A right code costs nothing, however often.
    for (let i = 0; i < 5; i++) expect((await lookUp(code, guesser)).text).toContain(LOGIN);
    const wrong = ["BCDF-GHJK", "CDFG-HJKL", "DFGH-JKLM", "GHJK-LMNP"].filter((c) => c !== code);
    for (const guess of wrong.slice(0, 3)) {
      const page = await lookUp(guess, guesser);
      expect(page.status).toBe(200);
      expect(page.text).toContain(INVALID);
    }
    const refused = await lookUp("FGHJ-KLMN", guesser);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(refused.text).toContain("<p class=\"alert\" role=\"alert\" id=\"error-description\">Too many invalid or expired codes were entered. Please try again later.</p>");
    expect(refused.text).toContain("<code id=\"error-code\">too_many_requests</code>");
    expect(refused.headers.get("cache-control")).toBe("no-store");
    const retry = Number(refused.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(5);
    // The right code from the same client is refused as well (else the bound would tell nothing
    // apart), and so is a HEAD, which runs the same lookup.
    const right = await lookUp(code, guesser);
    expect(right.status).toBe(429);
    expect(right.text).not.toContain(LOGIN);
    expect((await lookUp(code, guesser, "HEAD")).status).toBe(429);
    // Another client (the user at their own address) is served.
    expect((await lookUp(code, "198.51.100.20")).text).toContain(LOGIN);
    // Once the window has passed, the right code works again from the first client.
    await new Promise((r) => setTimeout(r, Number(right.headers.get("retry-after")) * 1000 + 200));
    const after = await lookUp(code.toLowerCase(), guesser);
    expect(after.status).toBe(200);
    expect(after.text).toContain(LOGIN);
  });
});
