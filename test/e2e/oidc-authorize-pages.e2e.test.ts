import { createHash } from "node:crypto";
import { adminApi, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms } from "./support/browser-session.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// The authorization endpoint and hosted pages up to the login form (OIDC Core 1.0 section 3.1.2,
// RFC 6749 section 4.1.2.1, RFC 7636, RFC 9207, RFC 8628 section 3.3, OIDC RP-Initiated Logout 1.0).
describe.each(targets())("authorization endpoint and hosted pages ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  const CB = "http://localhost:3999/cb";
  const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

  beforeAll(async () => {
    server = await target.start("authorize-pages");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("authz");
    expect((await api.post("/admin/realms", {
      name: realm, displayName: "Acme <Corp>", themeName: "ocean",
      theme: { primaryColor: "#ff5500", logoUrl: "https://cdn.example.com/logo.png" },
    })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "spa", name: "Single <Page>", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", clientType: "CONFIDENTIAL", redirectUris: [`${CB}?tenant=1`] })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "off", enabled: false, redirectUris: [CB] })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const issuer = () => `${server.url}/realms/${realm}`;
  const authUrl = (params: Record<string, string>, r = realm) =>
    `${server.url}/realms/${r}/protocol/openid-connect/auth?${new URLSearchParams(params)}`;
  const spaParams = (extra: Record<string, string> = {}) => ({
    client_id: "spa", redirect_uri: CB, response_type: "code", scope: "openid profile", state: "st-1",
    nonce: "n-1", code_challenge: CHALLENGE, code_challenge_method: "S256", ...extra,
  });
  const errorRedirect = (error: string, description: string, state = "st-1", base = CB) => {
    const u = new URL(base);
    u.searchParams.append("error", error);
    u.searchParams.append("error_description", description);
    if (state) u.searchParams.append("state", state);
    u.searchParams.append("iss", issuer());
    return u.href;
  };
  const CSP = "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; form-action 'self' http://localhost:3999; frame-ancestors 'none'; base-uri 'none'";

  /**
   * A password page's CSP: its one inline script (the show-password toggle) is admitted by its
   * SHA-256 alone (CSP3 hash-source), computed here from the script the page carries.
   */
  function withToggleHash(csp: string, html: string): string {
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    const hash = createHash("sha256").update(scripts[0]![1]!, "utf8").digest("base64");
    return csp.replace("default-src 'none';", `default-src 'none'; script-src 'sha256-${hash}';`);
  }

  function expectPageHeaders(headers: Headers, csp = CSP) {
    expect(headers.get("content-security-policy")).toBe(csp);
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("referrer-policy")).toBe("no-referrer");
    expect(headers.get("cache-control")).toBe("no-store");
    expect(headers.get("content-type")).toBe("text/html; charset=utf-8");
  }

  it("renders the themed login page with CSRF fields, escaping, security headers and the browser cookie", async () => {
    const b = new BrowserSession(server.url);
    const res = await b.get(authUrl(spaParams({ login_hint: "bob\"><script>alert(1)</script>" })));
    expect(res.status).toBe(200);
    expectPageHeaders(res.headers, withToggleHash(CSP, res.text));
    const setCookie = res.headers.getSetCookie();
    expect(setCookie).toHaveLength(1);
    expect(setCookie[0]).toMatch(new RegExp(`^TESSERA_BROWSER=[A-Za-z0-9_-]{43}; Path=/realms/${realm}/; HttpOnly; SameSite=Lax$`));
    const forms = parseForms(res.text);
    // The password form, then "Sign in with a passkey" (docs/passkeys.md) on the same transaction.
    expect(forms).toHaveLength(2);
    expect(forms[1]).toEqual({ action: `/realms/${realm}/protocol/openid-connect/auth`, method: "post", fields: { csrf: forms[0]!.fields.csrf, step: "passkey_begin", tx: forms[0]!.fields.tx } });
    expect(forms[0]!.action).toBe(`/realms/${realm}/protocol/openid-connect/auth`);
    expect(forms[0]!.method).toBe("post");
    expect(Object.keys(forms[0]!.fields).sort()).toEqual(["csrf", "password", "step", "tx", "username"]);
    expect(forms[0]!.fields.csrf).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(forms[0]!.fields.username).toBe("bob\"><script>alert(1)</script>");
    expect(res.text).not.toContain("<script>alert(1)");
    expect(res.text).toContain("value=\"bob&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\"");
    // Realm display name and client name are escaped; the ocean preset with the overrides.
    expect(res.text).toContain("<h1>Acme &lt;Corp&gt;</h1>");
    expect(res.text).toContain("to continue to Single &lt;Page&gt;");
    expect(res.text).toContain(":root { --primary: #ff5500; --secondary: #155e75; --bg: #ecfeff; --text: #083344; }");
    expect(res.text).toContain("<img class=\"logo\" src=\"https://cdn.example.com/logo.png\"");
    expect(res.text).toContain("<body class=\"theme-ocean\">");
  });

  it("answers an authorization request sent as a form POST (OIDC Core 3.1.2.1)", async () => {
    const b = new BrowserSession(server.url);
    const res = await b.post(`${server.url}/realms/${realm}/protocol/openid-connect/auth`, spaParams());
    expect(res.status).toBe(200);
    expect(parseForms(res.text)[0]!.fields.step).toBe("login");
  });

  it.each([
    ["unknown client", { client_id: "nope" }, 400, "invalid_client", "The application is unknown or disabled."],
    ["disabled client", { client_id: "off" }, 400, "invalid_client", "The application is unknown or disabled."],
    ["missing client_id", { client_id: "" }, 400, "invalid_request", "The client_id parameter is missing."],
    ["unregistered redirect_uri", { redirect_uri: "http://localhost:3999/evil" }, 400, "invalid_request", "The redirect_uri is not registered for this application."],
    ["redirect_uri differing in its query", { redirect_uri: `${CB}?x=1` }, 400, "invalid_request", "The redirect_uri is not registered for this application."],
    ["missing redirect_uri", { redirect_uri: "" }, 400, "invalid_request", "The redirect_uri parameter is missing."],
  ])("shows an error page, never a redirect, for %s", async (_name, extra, status, code, description) => {
    const params = spaParams(extra as Record<string, string>);
    for (const [k, v] of Object.entries(params)) if (v === "") delete (params as Record<string, string>)[k];
    const res = await new BrowserSession(server.url).get(authUrl(params));
    expect(res.status).toBe(status);
    expect(res.location).toBe("");
    expectPageHeaders(res.headers, CSP.replace(" http://localhost:3999", ""));
    expect(res.text).toContain(`<p class="alert" role="alert" id="error-description">${description}</p>`);
    expect(res.text).toContain(`<code id="error-code">${code}</code>`);
  });

  it("shows a 404 page for an unknown realm", async () => {
    const res = await new BrowserSession(server.url).get(authUrl(spaParams(), "no-such-realm"));
    expect(res.status).toBe(404);
    expect(res.text).toContain("<code id=\"error-code\">realm_not_found</code>");
    expect(res.location).toBe("");
  });

  // A realm name that cannot exist (not a lowercase slug) used to reach the cookie Path
  // `/realms/<realm>/`, which express refuses: an unlogged 500. It is an unknown realm.
  it.each([
    ["GET", "protocol/openid-connect/auth?client_id=spa"],
    ["POST", "protocol/openid-connect/auth"],
    ["GET", "device"],
    ["POST", "device"],
    ["GET", "login-actions/registration?tx=x"],
    ["POST", "login-actions/registration"],
    ["GET", "login-actions/verify-email?key=x"],
    ["POST", "login-actions/verify-email"],
    ["GET", "protocol/openid-connect/logout"],
    ["POST", "protocol/openid-connect/logout"],
    ["GET", "protocol/saml?SAMLRequest=x"],
    ["POST", "protocol/saml"],
  ])("answers %s /realms/<not a realm name>/%s with the unknown realm's 404 page and no cookie", async (method, rest) => {
    const unknown = await new BrowserSession(server.url).get(authUrl(spaParams(), "no-such-realm"));
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("<p class=\"alert\" role=\"alert\" id=\"error-description\">This realm does not exist or is disabled.</p>");
    for (const name of ["a;b", "%3C", "%0A", "é", "Upper", "a%2Fb", "x".repeat(65)]) {
      const b = new BrowserSession(server.url);
      const url = `${server.url}/realms/${name}/${rest}`;
      const res = method === "GET" ? await b.get(url) : await b.post(url, { tx: "x", step: "login", csrf: "c", SAMLRequest: "x" });
      expect([name, res.status]).toEqual([name, 404]);
      expect(res.headers.getSetCookie()).toEqual([]);
      expectPageHeaders(res.headers, CSP.replace(" http://localhost:3999", ""));
      expect(res.text).toBe(unknown.text);
    }
  });

  it("keeps the refresh-token logout's JSON answer for a name that cannot be a realm (spec 4.16)", async () => {
    // A content type the lean lane (oauth-form-lane.ts) leaves to express, whose routes the guard is on.
    const res = await fetch(`${server.url}/realms/a;b/protocol/openid-connect/logout`, {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8; x=1" }, body: "client_id=spa&refresh_token=r",
    });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual({ error: "realm_not_found", error_description: "realm not found" });
  });

  it.each([
    ["response_type=token", { response_type: "token" }, "unsupported_response_type", "Only response_type=code is supported."],
    ["missing response_type", { response_type: "" }, "invalid_request", "The response_type parameter is missing."],
    ["PKCE plain", { code_challenge_method: "plain", code_challenge: "a".repeat(43) }, "invalid_request", "Only code_challenge_method=S256 is supported."],
    ["a challenge without method (plain by default)", { code_challenge_method: "" }, "invalid_request", "Only code_challenge_method=S256 is supported."],
    ["no PKCE for a public client", { code_challenge: "", code_challenge_method: "" }, "invalid_request", "PKCE (code_challenge with S256) is required for public clients."],
    ["a malformed challenge", { code_challenge: "short" }, "invalid_request", "The code_challenge is malformed."],
    ["prompt=none combined", { prompt: "none login" }, "invalid_request", "prompt=none cannot be combined with other values."],
    ["a bad max_age", { max_age: "-5" }, "invalid_request", "max_age must be a non-negative integer."],
    ["an unknown response_mode", { response_mode: "jwt" }, "invalid_request", "response_mode must be query, fragment or form_post."],
    ["a request object that is not a JWT", { request: "eyJ.x.y" }, "invalid_request_object", "The request object is not a JWT."],
    ["a foreign id_token_hint", { id_token_hint: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0." }, "invalid_request", "The id_token_hint is not valid."],
    ["prompt=none without a session", { prompt: "none" }, "login_required", "The user is not logged in."],
  ])("redirects %s back to the registered redirect_uri with error, state and iss", async (_name, extra, error, description) => {
    const params: Record<string, string> = spaParams(extra as Record<string, string>);
    for (const [k, v] of Object.entries(params)) if (v === "") delete params[k];
    const res = await new BrowserSession(server.url).get(authUrl(params));
    expect(res.status).toBe(302);
    expect(res.location).toBe(errorRedirect(error, description));
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("keeps the registered redirect_uri's own query and omits an absent state", async () => {
    const res = await new BrowserSession(server.url).get(authUrl({ client_id: "web", redirect_uri: `${CB}?tenant=1`, response_type: "token" }));
    expect(res.status).toBe(302);
    expect(res.location).toBe(errorRedirect("unsupported_response_type", "Only response_type=code is supported.", "", `${CB}?tenant=1`));
  });

  it("refuses a repeated parameter (RFC 6749 section 3.1)", async () => {
    const res = await new BrowserSession(server.url).get(`${authUrl(spaParams())}&scope=email`);
    expect(res.status).toBe(302);
    expect(res.location).toBe(errorRedirect("invalid_request", "A parameter was repeated."));
  });

  it("neither echoes a repeated state nor cuts an over-long parameter short", async () => {
    const b = new BrowserSession(server.url);
    const repeated = await b.get(`${authUrl(spaParams())}&state=st-2`);
    expect(repeated.status).toBe(302);
    expect(repeated.location).toBe(errorRedirect("invalid_request", "A parameter was repeated.", ""));
    const longState = await b.get(authUrl(spaParams({ state: "s".repeat(4097) })));
    expect(longState.status).toBe(302);
    expect(longState.location).toBe(errorRedirect("invalid_request", "The state parameter is too long.", ""));
    // A hint this long only fits a form POST (a URL's limit is node's 16 KB of headers).
    const post = `${server.url}/realms/${realm}/protocol/openid-connect/auth`;
    const longHint = await b.post(post, spaParams({ id_token_hint: "h".repeat(16_385) }));
    expect(longHint.location).toBe(errorRedirect("invalid_request", "The id_token_hint parameter is too long."));
    // At the limit: kept whole (a hint of 16 KB is still read, and refused only as not a token).
    const atLimit = await b.get(authUrl(spaParams({ state: "s".repeat(4096) })));
    expect(atLimit.status).toBe(200);
    const hint = await b.post(post, spaParams({ id_token_hint: "h".repeat(16_384) }));
    expect(hint.location).toBe(errorRedirect("invalid_request", "The id_token_hint is not valid."));
  });

  it("refuses a scope the client does not have at once, and follows its scope assignments (RFC 6749 4.1.2.1)", async () => {
    const b = new BrowserSession(server.url);
    const bogus = await b.get(authUrl(spaParams({ scope: "openid bogus profile other" })));
    expect(bogus.status).toBe(302);
    expect(bogus.location).toBe(errorRedirect("invalid_scope", "Invalid scopes: bogus other."));
    // An optional scope of the client (new clients get address, offline_access, phone) is allowed...
    expect((await b.get(authUrl(spaParams({ scope: "openid address" })))).status).toBe(200);
    // ...until it is no longer assigned: the token service's cached client follows at once.
    const opt = `/admin/realms/${realm}/clients/spa/optional-client-scopes`;
    const address = (await api.get(opt)).body.find((s: { name: string }) => s.name === "address") as { id: string };
    expect((await api.del(`${opt}/${address.id}`)).status).toBe(204);
    const gone = await b.get(authUrl(spaParams({ scope: "openid address" })));
    expect(gone.location).toBe(errorRedirect("invalid_scope", "Invalid scopes: address."));
    expect((await api.post(opt, { clientScopeId: address.id })).status).toBe(200);
    expect((await b.get(authUrl(spaParams({ scope: "openid address" })))).status).toBe(200);
  });

  it("lets a confidential client omit PKCE", async () => {
    const res = await new BrowserSession(server.url).get(authUrl({ client_id: "web", redirect_uri: `${CB}?tenant=1`, response_type: "code", scope: "openid" }));
    expect(res.status).toBe(200);
    expect(parseForms(res.text)[0]!.fields.step).toBe("login");
  });

  it("refuses a form post with a wrong CSRF token, from another browser, or without a known step", async () => {
    const b = new BrowserSession(server.url);
    const page = await b.get(authUrl(spaParams()));
    const fields = parseForms(page.text)[0]!.fields;
    const post = `${server.url}/realms/${realm}/protocol/openid-connect/auth`;
    const stale = "This login page has expired or was already used. Please start again from the application.";

    const wrongCsrf = await b.post(post, { ...fields, csrf: "x".repeat(32), username: "a", password: "b" });
    expect(wrongCsrf.status).toBe(400);
    expect(wrongCsrf.text).toContain(`id="error-description">${stale}</p>`);

    const other = new BrowserSession(server.url);
    const otherBrowser = await other.post(post, { ...fields, username: "a", password: "b" });
    expect(otherBrowser.status).toBe(400);
    expect(otherBrowser.text).toContain(`id="error-description">${stale}</p>`);

    const unknownStep = await b.post(post, { ...fields, step: "teleport" });
    expect(unknownStep.status).toBe(400);
    expect(unknownStep.text).toContain("<code id=\"error-code\">invalid_request</code>");

    const empty = await b.post(post, { ...fields, username: "", password: "" });
    expect(empty.status).toBe(200);
    expect(empty.text).toContain("<p class=\"alert\" role=\"alert\">Invalid username or password.</p>");
  });

  // A form the gateway cannot read used to get the gateway's JSON error body, without the pages'
  // headers; a browser showed raw JSON. It is the realm's error page, with the same status.
  const FORM = "application/x-www-form-urlencoded";
  const unreadable: Array<[string, Record<string, string>, string, number, string, string]> = [
    ["a 70 KB form", { "content-type": FORM }, `tx=x&username=${"a".repeat(70 * 1024)}`, 413, "payload_too_large", "The form is too large. Please go back and try again."],
    ["a form of 101 fields", { "content-type": FORM }, Array.from({ length: 101 }, (_, i) => `f${i}=1`).join("&"), 413, "payload_too_large", "The form is too large. Please go back and try again."],
    ["a Latin-1 form", { "content-type": `${FORM}; charset=latin1` }, "tx=x", 415, "unsupported_media_type", "The form could not be read. Please go back and try again."],
    ["a gzip form that is not gzip", { "content-type": FORM, "content-encoding": "gzip" }, "tx=x", 400, "invalid_request", "The form could not be read. Please go back and try again."],
  ];
  it.each(["protocol/openid-connect/auth", "device", "login-actions/registration", "login-actions/verify-email", "protocol/saml"])(
    "answers an unreadable POST to /realms/:realm/%s with the realm's HTML error page and the page headers", async (rest) => {
      for (const [name, headers, body, status, code, description] of unreadable) {
        const res = await fetch(`${server.url}/realms/${realm}/${rest}`, { method: "POST", headers, body, redirect: "manual" });
        expect([name, res.status]).toEqual([name, status]);
        expectPageHeaders(res.headers, CSP.replace(" http://localhost:3999", ""));
        expect(res.headers.get("pragma")).toBe("no-cache");
        expect(res.headers.getSetCookie()).toEqual([]);
        const text = await res.text();
        expect(text).toContain(`<p class="alert" role="alert" id="error-description">${description}</p>`);
        expect(text).toContain(`<code id="error-code">${code}</code>`);
        expect(text).toContain("<h1>Acme &lt;Corp&gt;</h1>");
      }
    });

  it("answers a page path it cannot decode with an HTML 400 page in the default look", async () => {
    const res = await fetch(`${server.url}/realms/%E0%A4%A/protocol/openid-connect/auth?client_id=spa`);
    expect(res.status).toBe(400);
    expectPageHeaders(res.headers, CSP.replace(" http://localhost:3999", ""));
    const text = await res.text();
    expect(text).toContain("<p class=\"alert\" role=\"alert\" id=\"error-description\">The address of this page is not valid.</p>");
    expect(text).toContain("<code id=\"error-code\">invalid_request</code>");
    expect(text).toContain("<h1>Tessera</h1>");
  });

  it("keeps the OAuth endpoints' RFC 6749 body for a form they cannot read, POST /logout included", async () => {
    for (const rest of ["token", "logout"]) {
      // A charset parameter the lean lane (oauth-form-lane.ts) leaves to express, as a browser might send.
      const res = await fetch(`${server.url}/realms/${realm}/protocol/openid-connect/${rest}`, {
        method: "POST", headers: { "content-type": `${FORM}; charset=UTF-8; x=1` }, body: `client_id=spa&x=${"a".repeat(70 * 1024)}`,
      });
      expect([rest, res.status]).toEqual([rest, 400]);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toEqual({ error: "invalid_request", error_description: "request body is too large" });
    }
  });

  it("answers 405 with Allow for other methods", async () => {
    const res = await fetch(authUrl(spaParams()), { method: "PUT" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, POST, HEAD");
  });

  it("serves the device verification page and rejects unknown user codes (RFC 8628 3.3)", async () => {
    const b = new BrowserSession(server.url);
    const enter = await b.get(`${server.url}/realms/${realm}/device`);
    expect(enter.status).toBe(200);
    expectPageHeaders(enter.headers, CSP.replace(" http://localhost:3999", ""));
    expect(parseForms(enter.text)).toEqual([{ action: `/realms/${realm}/device`, method: "get", fields: { user_code: "" } }]);
    const bad = await b.get(`${server.url}/realms/${realm}/device?user_code=WDJB-MJHT`);
    expect(bad.status).toBe(200);
    expect(bad.text).toContain("<p class=\"alert\" role=\"alert\">Invalid or expired code. Please check the code and try again.</p>");
    expect(parseForms(bad.text)[0]!.fields.user_code).toBe("WDJB-MJHT");
  });

  describe("RP-initiated logout without a session", () => {
    const logout = (q: Record<string, string>) => `${server.url}/realms/${realm}/protocol/openid-connect/logout?${new URLSearchParams(q)}`;

    it("shows the logged-out page and clears the SSO cookie", async () => {
      const res = await new BrowserSession(server.url).get(logout({}));
      expect(res.status).toBe(200);
      expectPageHeaders(res.headers, CSP.replace(" http://localhost:3999", ""));
      expect(res.text).toContain("<p id=\"logout-result\">You are logged out.</p>");
      expect(res.headers.getSetCookie()).toContain(`TESSERA_SESSION=; Path=/realms/${realm}/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax`);
    });

    it("redirects to a registered post_logout_redirect_uri with state", async () => {
      const res = await new BrowserSession(server.url).get(logout({ client_id: "spa", post_logout_redirect_uri: CB, state: "bye" }));
      expect(res.status).toBe(302);
      expect(res.location).toBe(`${CB}?state=bye`);
    });

    it.each([
      ["an unregistered URI", { client_id: "spa", post_logout_redirect_uri: "http://localhost:3999/evil" }, "The post_logout_redirect_uri is not registered for this application."],
      ["no client to check it against", { post_logout_redirect_uri: CB }, "post_logout_redirect_uri requires client_id or id_token_hint."],
      ["an invalid id_token_hint", { id_token_hint: "not-a-jwt" }, "The id_token_hint is not valid."],
    ])("shows an error page for %s", async (_n, q, description) => {
      const res = await new BrowserSession(server.url).get(logout(q));
      expect(res.status).toBe(400);
      expect(res.location).toBe("");
      expect(res.text).toContain(`id="error-description">${description}</p>`);
    });

    it("refuses a repeated or over-long parameter with an error page, never echoing it", async () => {
      for (const url of [`${logout({ client_id: "spa", post_logout_redirect_uri: CB, state: "a" })}&state=b`, logout({ client_id: "spa", post_logout_redirect_uri: CB, state: "s".repeat(4097) })]) {
        const res = await new BrowserSession(server.url).get(url);
        expect(res.status).toBe(400);
        expect(res.location).toBe("");
        expect(res.text).toContain("id=\"error-description\">A parameter was repeated or too long.</p>");
      }
    });

    it("accepts the logout request as a form POST", async () => {
      const res = await new BrowserSession(server.url).post(`${server.url}/realms/${realm}/protocol/openid-connect/logout`, { client_id: "spa", post_logout_redirect_uri: CB, state: "p" });
      expect(res.status).toBe(302);
      expect(res.location).toBe(`${CB}?state=p`);
    });
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
