import { adminApi, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, type PageResponse } from "./support/browser-session.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// The hosted pages of a realm that could exist but does not, or is disabled (Keycloak serves no
// login for a disabled realm): every page answers what the authorization endpoint answers for it,
// the realm_not_found 404 page (page-realm-guard.ts covers names no realm can have).
describe.each(targets())("hosted pages of a realm that does not exist or is disabled ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  // Named now: it.each reads them when the tests are collected, before beforeAll runs.
  const live = uniqueName("live");
  const off = uniqueName("off");
  const CSP = "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
  const STALE = "<p class=\"alert\" role=\"alert\" id=\"error-description\">This login page has expired or was already used. Please start again from the application.</p>";
  const NOT_FOUND = "<p class=\"alert\" role=\"alert\" id=\"error-description\">This realm does not exist or is disabled.</p>";

  beforeAll(async () => {
    server = await target.start("unknown-realm-pages");
    api = adminApi(server.url, server.apiKey);
    expect((await api.post("/admin/realms", { name: live })).status).toBe(201);
    expect((await api.post("/admin/realms", { name: off, displayName: "Off Realm" })).status).toBe(201);
    // Seen once while enabled, so the gateway holds the realm in its caches when it is disabled.
    expect((await new BrowserSession(server.url).get(`${server.url}/realms/${off}/protocol/openid-connect/auth`)).status).toBe(400);
    expect((await api.put(`/admin/realms/${off}`, { enabled: false })).status).toBe(200);
  }, 90_000);
  afterAll(async () => server?.stop());

  const realms = () => [["a realm that does not exist", "no-such-realm"], ["a disabled realm", off]] as const;

  /** A browser that already holds a browser cookie for the realm's path (one from before the realm went away). */
  function returningBrowser(): BrowserSession {
    const b = new BrowserSession(server.url);
    b.cookies.set("TESSERA_BROWSER", "b".repeat(43));
    return b;
  }

  function expectPageHeaders(res: PageResponse) {
    expect(res.headers.get("content-security-policy")).toBe(CSP);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  }

  /** What GET /auth answers for the realm: the page every other page must answer. */
  async function authorizationPage(realm: string): Promise<PageResponse> {
    const res = await returningBrowser().get(`${server.url}/realms/${realm}/protocol/openid-connect/auth?client_id=spa`);
    expect(res.status).toBe(404);
    expect(res.text).toContain("<code id=\"error-code\">realm_not_found</code>");
    expect(res.text).toContain(NOT_FOUND);
    // A disabled realm's page keeps its look (the directory still knows it).
    expect(res.text).toContain(`<title>Error · ${realm === off ? "Off Realm" : "Tessera"}</title>`);
    return res;
  }

  // A form post continuing a login transaction: each reaches the token service's transaction check.
  const TX = { tx: "t".repeat(32), csrf: "c".repeat(32) };
  const transactionPosts: Array<[string, Record<string, string>]> = [
    ["protocol/openid-connect/auth", { ...TX, step: "login", username: "u", password: "p" }],
    ["protocol/openid-connect/auth", { ...TX, step: "otp", otp: "123456" }],
    ["protocol/openid-connect/auth", { ...TX, step: "otp_enroll", otp: "123456" }],
    ["protocol/openid-connect/auth", { ...TX, step: "recovery_codes" }],
    ["protocol/openid-connect/auth", { ...TX, step: "update_password", "password-new": "p", "password-confirm": "p" }],
    ["protocol/openid-connect/auth", { ...TX, step: "consent", decision: "approve" }],
    ["device", { ...TX, step: "consent", decision: "approve" }],
    ["login-actions/registration", { ...TX, username: "u", password: "p", "password-confirm": "p" }],
    ["login-actions/verify-email", TX],
    ["protocol/openid-connect/logout", { ...TX, confirm: "yes" }],
    ["protocol/saml", { ...TX, step: "login", username: "u", password: "p" }],
  ];

  it.each(realms())("answers a form post continuing a login in %s with the authorization endpoint's 404 page, not the expired page", async (_what, realm) => {
    const expected = await authorizationPage(realm);
    for (const [rest, form] of transactionPosts) {
      const res = await returningBrowser().post(`${server.url}/realms/${realm}/${rest}`, form);
      expect([rest, form.step, res.status]).toEqual([rest, form.step, 404]);
      expectPageHeaders(res);
      expect(res.text).toBe(expected.text);
    }
    const form = await returningBrowser().get(`${server.url}/realms/${realm}/login-actions/registration?tx=${TX.tx}`);
    expect(form.status).toBe(404);
    expect(form.text).toBe(expected.text);
  });

  it("keeps the expired page for a stale login of a realm that exists", async () => {
    for (const [rest, form] of transactionPosts) {
      const res = await returningBrowser().post(`${server.url}/realms/${live}/${rest}`, form);
      expect([rest, form.step, res.status]).toEqual([rest, form.step, 400]);
      expect(res.text).toContain("<code id=\"error-code\">invalid_transaction</code>");
      expect(res.text).toContain(STALE);
    }
  });

  // Every hosted page a browser may open or post to, as a first visit (no browser cookie yet).
  const pages: Array<[string, string, Record<string, string>?]> = [
    ["GET", "protocol/openid-connect/auth?client_id=spa&redirect_uri=http%3A%2F%2Flocalhost%3A3999%2Fcb&response_type=code"],
    ["POST", "protocol/openid-connect/auth", { client_id: "spa", response_type: "code" }],
    ["POST", "protocol/openid-connect/auth", { ...TX, step: "login", username: "u", password: "p" }],
    ["GET", "device"],
    ["GET", "device?user_code=WDJB-MJHT"],
    ["POST", "device", { ...TX, step: "consent", decision: "approve" }],
    ["GET", `login-actions/registration?tx=${TX.tx}`],
    ["POST", "login-actions/registration", { ...TX, username: "u", password: "p", "password-confirm": "p" }],
    ["GET", "login-actions/verify-email?key=x"],
    ["POST", "login-actions/verify-email", TX],
    ["GET", "protocol/openid-connect/logout"],
    ["POST", "protocol/openid-connect/logout", { ...TX, confirm: "yes" }],
    ["POST", "protocol/openid-connect/logout", { client_id: "spa" }],
    ["GET", "protocol/saml?SAMLRequest=x"],
    ["POST", "protocol/saml", { SAMLRequest: "x" }],
    ["POST", "protocol/saml", { ...TX, step: "login", username: "u", password: "p" }],
  ];

  it.each(realms())("sets no cookie on any page of %s, and answers each with the authorization endpoint's 404 page", async (_what, realm) => {
    const expected = await authorizationPage(realm);
    for (const [method, rest, form] of pages) {
      const b = new BrowserSession(server.url);
      const url = `${server.url}/realms/${realm}/${rest}`;
      const res = method === "GET" ? await b.get(url) : await b.post(url, form ?? {});
      expect([method, rest, res.status, res.headers.getSetCookie()]).toEqual([method, rest, 404, []]);
      expectPageHeaders(res);
      expect(res.text).toBe(expected.text);
    }
  });

  it("still sets the browser cookie on a first visit to a realm that exists, and again once a disabled realm is enabled", async () => {
    const first = await new BrowserSession(server.url).get(`${server.url}/realms/${live}/device`);
    expect(first.status).toBe(200);
    expect(first.headers.getSetCookie()).toEqual([expect.stringMatching(new RegExp(`^TESSERA_BROWSER=[A-Za-z0-9_-]{43}; Path=/realms/${live}/; HttpOnly; SameSite=Lax$`))]);
    expect((await api.put(`/admin/realms/${off}`, { enabled: true })).status).toBe(200);
    try {
      const back = await new BrowserSession(server.url).get(`${server.url}/realms/${off}/device`);
      expect(back.status).toBe(200);
      expect(back.headers.getSetCookie()).toEqual([expect.stringMatching(new RegExp(`^TESSERA_BROWSER=[A-Za-z0-9_-]{43}; Path=/realms/${off}/; HttpOnly; SameSite=Lax$`))]);
    } finally {
      expect((await api.put(`/admin/realms/${off}`, { enabled: false })).status).toBe(200);
    }
  });

  // The saml service passes the directory's NotFound on; the page shows the pages' one wording,
  // not the Admin API's `realm "<name>" not found`.
  it("answers a SAML message to a realm that does not exist with the same 404 page as the OIDC pages", async () => {
    const expected = await authorizationPage("no-such-realm");
    const url = `${server.url}/realms/no-such-realm/protocol/saml`;
    for (const res of [
      await returningBrowser().get(`${url}?SAMLRequest=x&RelayState=r`),
      await returningBrowser().get(`${url}?SAMLResponse=x`),
      await returningBrowser().post(url, { SAMLRequest: "x", RelayState: "r" }),
      await returningBrowser().post(url, { SAMLResponse: "x" }),
    ]) {
      expect([res.status, res.headers.getSetCookie()]).toEqual([404, []]);
      expectPageHeaders(res);
      expect(res.text).toBe(expected.text);
    }
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
