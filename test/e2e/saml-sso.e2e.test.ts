import { createRequire } from "node:module";
import { SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import samlify from "samlify";
import { generate } from "otplib";
import { adminApi, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms, type PageResponse } from "./support/browser-session.js";
import { autoPost as autoPostTo, htmlField, logoutFrames, spCredentials } from "./support/saml-pages.js";

const require = createRequire(import.meta.url);
const { validate } = require("@authenio/samlify-xmllint-wasm") as { validate: (xml: string) => Promise<boolean> };

const EMAIL = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const SP_BASE = "http://localhost:3997";
const ACS = `${SP_BASE}/acs`;
const SLO = `${SP_BASE}/slo`;
const ACS2 = "http://localhost:3996/acs";
const PASSWORD = "Correct-Horse-9";



// SAML 2.0 Web Browser SSO and Single Logout through the gateway (spec 1.3, 4.18), driven over HTTP
// with @node-saml/node-saml and samlify as the SPs, in every run mode.
describe.each(targets())("SAML SSO through the gateway ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let endpoint: string;
  let idpCert: string;
  let userId: string;
  const creds = spCredentials("sp-node");

  beforeAll(async () => {
    server = await target.start("saml-sso");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("saml-sso");
    endpoint = `${server.url}/realms/${realm}/protocol/saml`;
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true })).status).toBe(201);
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.test", firstName: "Alice", lastName: "<b>Liddell</b>", password: PASSWORD });
    expect(user.status).toBe(201);
    userId = user.body.id;
    const sp = await api.post(`/admin/realms/${realm}/saml-service-providers`, {
      entityId: "urn:sp:node", name: "Node <SP>", acsUrl: ACS, sloUrl: SLO, certificate: creds.certificate,
      attributeStatements: { mail: "email", sn: "lastName" },
    });
    expect(sp.status).toBe(201);
    expect(sp.body.requireSignedRequests).toBe(true);
    const sp2 = await api.post(`/admin/realms/${realm}/saml-service-providers`, {
      entityId: "urn:sp:samlify", name: "Samlify SP", acsUrl: ACS2, attributeStatements: { mail: "email" },
    });
    expect(sp2.status).toBe(201);
    expect(sp2.body.requireSignedRequests).toBe(false);
    idpCert = (await api.get(`/admin/realms/${realm}/saml-keys`)).body[0].certificate;
  }, 90_000);
  afterAll(async () => server?.stop());

  function nodeSp(binding: "HTTP-Redirect" | "HTTP-POST" = "HTTP-Redirect", extra: Record<string, unknown> = {}): SAML {
    return new SAML({
      entryPoint: endpoint, issuer: "urn:sp:node", callbackUrl: ACS, idpCert, privateKey: creds.privateKey, publicCert: creds.certificate,
      signatureAlgorithm: "sha256", digestAlgorithm: "sha256", audience: "urn:sp:node", wantAssertionsSigned: true,
      wantAuthnResponseSigned: true, validateInResponseTo: ValidateInResponseTo.always, authnRequestBinding: binding,
      skipRequestCompression: binding === "HTTP-POST", identifierFormat: EMAIL, logoutUrl: endpoint, logoutCallbackUrl: SLO,
      idpIssuer: `${server.url}/realms/${realm}`, ...extra,
    });
  }

  const autoPost = (page: PageResponse, acs = ACS) => autoPostTo(page, acs);

  async function login(b: BrowserSession, page: PageResponse, username = "alice", password = PASSWORD): Promise<PageResponse> {
    expect(page.status).toBe(200);
    const form = parseForms(page.text)[0]!;
    expect(form.fields.step).toBe("login");
    expect(form.action).toBe(`/realms/${realm}/protocol/saml`);
    return b.submit(page, { username, password });
  }


  it("Redirect binding: login page, then node-saml validates the signed Response with exact values; RelayState with markup round-trips", async () => {
    const b = new BrowserSession(server.url);
    const saml = nodeSp();
    const relay = `<script>alert("x")</script>&'`;
    const page = await b.get(await saml.getAuthorizeUrlAsync(relay, undefined, {}));
    expect(page.text).toContain("to continue to Node &lt;SP&gt;");
    const posted = autoPost(await login(b, page));
    expect(posted.RelayState).toBe(relay);
    expect(b.cookies.get("TESSERA_SESSION")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { profile, loggedOut } = await saml.validatePostResponseAsync({ SAMLResponse: posted.SAMLResponse });
    expect(loggedOut).toBe(false);
    expect(profile!.nameID).toBe("alice@example.test");
    expect(profile!.nameIDFormat).toBe(EMAIL);
    expect(profile!.issuer).toBe(`${server.url}/realms/${realm}`);
    expect(profile!["mail"]).toBe("alice@example.test");
    expect(profile!["sn"]).toBe("<b>Liddell</b>");
    expect(typeof profile!.sessionIndex).toBe("string");

    // The LOGIN event carries the SP as the client (CompleteSso records it).
    const events = await eventually(
      () => api.get(`/admin/realms/${realm}/events?type=LOGIN&clientId=urn:sp:node`),
      (r) => r.status === 200 && r.body.length >= 1,
    );
    expect(events.body[0].userId).toBe(userId);
  });

  it("POST binding and SSO reuse: the signed POST request and a second SP (samlify) get Responses without a password", async () => {
    const b = new BrowserSession(server.url);
    const first = nodeSp();
    autoPost(await login(b, await b.get(await first.getAuthorizeUrlAsync("", undefined, {}))));

    const post = nodeSp("HTTP-POST");
    const html = await post.getAuthorizeFormAsync("rs-post");
    const page = await b.post(endpoint, { SAMLRequest: htmlField(html, "SAMLRequest"), RelayState: "rs-post" });
    const posted = autoPost(page);
    expect(posted.RelayState).toBe("rs-post");
    expect((await post.validatePostResponseAsync({ SAMLResponse: posted.SAMLResponse })).profile!.nameID).toBe("alice@example.test");

    samlify.setSchemaValidator({ validate });
    const idp = samlify.IdentityProvider({ metadata: (await fetch(`${endpoint}/descriptor`).then((r) => r.text())) });
    const sp = samlify.ServiceProvider({
      entityID: "urn:sp:samlify", wantAssertionsSigned: true, wantMessageSigned: true,
      assertionConsumerService: [{ Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST", Location: ACS2 }],
    });
    const { context } = sp.createLoginRequest(idp, "redirect") as { context: string };
    const second = autoPost(await b.get(context), ACS2);
    const { extract } = await sp.parseLoginResponse(idp, "post", { body: { SAMLResponse: second.SAMLResponse } });
    expect(extract.attributes?.mail).toBe("alice@example.test");
    expect(extract.audience).toBe("urn:sp:samlify");
  });

  it("ForceAuthn shows the login page despite the session; IsPassive without a session answers NoPassive to the ACS", async () => {
    const b = new BrowserSession(server.url);
    const saml = nodeSp();
    autoPost(await login(b, await b.get(await saml.getAuthorizeUrlAsync("", undefined, {}))));
    const forced = nodeSp("HTTP-Redirect", { forceAuthn: true });
    const again = await b.get(await forced.getAuthorizeUrlAsync("", undefined, {}));
    const posted = autoPost(await login(b, again));
    expect((await forced.validatePostResponseAsync({ SAMLResponse: posted.SAMLResponse })).profile!.nameID).toBe("alice@example.test");

    const passive = nodeSp("HTTP-Redirect", { passive: true });
    const answer = autoPost(await new BrowserSession(server.url).get(await passive.getAuthorizeUrlAsync("", undefined, {})));
    const xml = Buffer.from(answer.SAMLResponse, "base64").toString("utf8");
    expect(xml).toContain("urn:oasis:names:tc:SAML:2.0:status:NoPassive");
    // node-saml checks the signature and InResponseTo, then reports NoPassive as "no profile".
    await expect(passive.validatePostResponseAsync({ SAMLResponse: answer.SAMLResponse })).resolves.toEqual({ profile: null, loggedOut: false });
  });

  it("a user of an MFA realm enrols TOTP in the SAML login, then needs the code next time", async () => {
    const mfaRealm = uniqueName("saml-mfa");
    expect((await api.post("/admin/realms", { name: mfaRealm, mfaRequired: true })).status).toBe(201);
    expect((await api.post(`/admin/realms/${mfaRealm}/users`, { username: "bob", email: "bob@example.test", password: PASSWORD })).status).toBe(201);
    expect((await api.post(`/admin/realms/${mfaRealm}/saml-service-providers`, { entityId: "urn:sp:node", name: "Node SP", acsUrl: ACS, certificate: creds.certificate })).status).toBe(201);
    const mfaCert = (await api.get(`/admin/realms/${mfaRealm}/saml-keys`)).body[0].certificate;
    const mfaEndpoint = `${server.url}/realms/${mfaRealm}/protocol/saml`;
    const sp = () => nodeSp("HTTP-Redirect", { entryPoint: mfaEndpoint, idpCert: mfaCert, idpIssuer: `${server.url}/realms/${mfaRealm}`, logoutUrl: mfaEndpoint });

    const b = new BrowserSession(server.url);
    const saml = sp();
    const page = await b.get(await saml.getAuthorizeUrlAsync("", undefined, {}));
    const enrol = await b.submit(page, { username: "bob", password: PASSWORD });
    expect(parseForms(enrol.text)[0]!.fields.step).toBe("otp_enroll");
    const secret = /id="otp-secret">([A-Z2-7]+)</.exec(enrol.text)![1]!;
    const codes = await b.submit(enrol, { otp: await generate({ secret }) });
    expect(parseForms(codes.text)[0]!.fields.step).toBe("recovery_codes");
    const posted = autoPost(await b.submit(codes, {}));
    expect((await saml.validatePostResponseAsync({ SAMLResponse: posted.SAMLResponse })).profile!.nameID).toBe("bob@example.test");

    const b2 = new BrowserSession(server.url);
    const saml2 = sp();
    const otpPage = await b2.submit(await b2.get(await saml2.getAuthorizeUrlAsync("", undefined, {})), { username: "bob", password: PASSWORD });
    expect(parseForms(otpPage.text)[0]!.fields.step).toBe("otp");
    const wrong = await b2.submit(otpPage, { otp: "000000" });
    expect(wrong.text).toContain("Invalid authenticator code.");
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const done = autoPost(await b2.submit(wrong, { otp: next }));
    expect((await saml2.validatePostResponseAsync({ SAMLResponse: done.SAMLResponse })).profile!.nameID).toBe("bob@example.test");
  });

  it("SP-initiated single logout: node-saml validates the LogoutResponse and the SSO session is gone", async () => {
    const b = new BrowserSession(server.url);
    const saml = nodeSp();
    const posted = autoPost(await login(b, await b.get(await saml.getAuthorizeUrlAsync("", undefined, {}))));
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: posted.SAMLResponse });
    const sessions = await api.get(`/admin/realms/${realm}/users/${userId}/sessions`);
    expect(sessions.body.map((s: { id: string }) => s.id)).toContain(profile!.sessionIndex);

    const res = await b.get(await saml.getLogoutUrlAsync(profile!, "bye<&>", {}));
    expect(res.status).toBe(302);
    expect(b.cookies.has("TESSERA_SESSION")).toBe(false);
    const back = new URL(res.location);
    expect(back.origin + back.pathname).toBe(SLO);
    const result = await saml.validateRedirectAsync(Object.fromEntries(back.searchParams), back.search.slice(1));
    expect(result.loggedOut).toBe(true);
    expect(back.searchParams.get("RelayState")).toBe("bye<&>");

    const after = await api.get(`/admin/realms/${realm}/users/${userId}/sessions`);
    expect(after.body.map((s: { id: string }) => s.id)).not.toContain(profile!.sessionIndex);
    // A new AuthnRequest shows the login page again.
    const again = await b.get(await saml.getAuthorizeUrlAsync("", undefined, {}));
    expect(parseForms(again.text)[0]!.fields.step).toBe("login");
    // One LOGIN (the login page's, by the token service, naming the protocol; the saml service no
    // longer records a second) and one LOGOUT, recorded with the session's end.
    const ofSession = async () => {
      const r = await api.get(`/admin/realms/${realm}/events?clientId=urn:sp:node&max=1000`);
      return (r.body as Array<{ type: string; sessionId?: string; userId?: string; ipAddress?: string; details?: Record<string, string> }>)
        .filter((e) => e.sessionId === profile!.sessionIndex)
        .map((e) => ({ type: e.type, userId: e.userId, ipAddress: e.ipAddress, auth: e.details?.auth_method, username: e.details?.username }))
        .sort((a, b) => a.type.localeCompare(b.type));
    };
    await eventually(ofSession, (events) => events.some((e) => e.type === "LOGOUT"));
    expect(await ofSession()).toEqual([
      { type: "LOGIN", userId, ipAddress: expect.any(String), auth: "saml", username: "alice" },
      { type: "LOGOUT", userId, ipAddress: expect.any(String), auth: "saml", username: "alice" },
    ]);
  });


  it("OIDC RP-initiated logout propagates to the SAML SP front-channel: node-saml validates the IdP's LogoutRequest", async () => {
    const b = new BrowserSession(server.url);
    const saml = nodeSp();
    const posted = autoPost(await login(b, await b.get(await saml.getAuthorizeUrlAsync("", undefined, {}))));
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: posted.SAMLResponse });
    const confirm = await b.get(`${server.url}/realms/${realm}/protocol/openid-connect/logout`);
    expect(confirm.status).toBe(200);
    const page = await b.submit(confirm, { confirm: "yes" });
    expect(page.text).toContain("You are logged out.");
    expect(b.cookies.has("TESSERA_SESSION")).toBe(false);
    const [frame, ...rest] = logoutFrames(page);
    expect(rest).toEqual([]);
    expect(frame!.origin + frame!.pathname).toBe(SLO);
    const result = await saml.validateRedirectAsync(Object.fromEntries(frame!.searchParams), frame!.search.slice(1));
    expect(result.loggedOut).toBe(true);
    expect(result.profile!.nameID).toBe("alice@example.test");
    expect(result.profile!.sessionIndex).toBe(profile!.sessionIndex);
  });

  it("SP-initiated logout with two SAML SPs: the other SP gets a LogoutRequest, then the initiator its LogoutResponse", async () => {
    const slo3 = "http://localhost:3995/slo";
    expect((await api.post(`/admin/realms/${realm}/saml-service-providers`, {
      entityId: "urn:sp:node3", name: "Node 3", acsUrl: "http://localhost:3995/acs", sloUrl: slo3, certificate: creds.certificate,
    })).status).toBe(201);
    const third = nodeSp("HTTP-Redirect", { issuer: "urn:sp:node3", audience: "urn:sp:node3", callbackUrl: "http://localhost:3995/acs", logoutCallbackUrl: slo3 });
    const b = new BrowserSession(server.url);
    const saml = nodeSp();
    const first = autoPost(await login(b, await b.get(await saml.getAuthorizeUrlAsync("", undefined, {}))));
    await saml.validatePostResponseAsync({ SAMLResponse: first.SAMLResponse });
    const second = autoPost(await b.get(await third.getAuthorizeUrlAsync("", undefined, {})), "http://localhost:3995/acs");
    const { profile } = await third.validatePostResponseAsync({ SAMLResponse: second.SAMLResponse });

    const page = await b.get(await third.getLogoutUrlAsync(profile!, "rs3", {}));
    const [frame, ...rest] = logoutFrames(page);
    expect(rest).toEqual([]);
    expect(frame!.origin + frame!.pathname).toBe(SLO);
    expect((await saml.validateRedirectAsync(Object.fromEntries(frame!.searchParams), frame!.search.slice(1))).loggedOut).toBe(true);
    const next = new URL(/id="saml-next-link" href="([^"]*)"/.exec(page.text)![1]!.replace(/&amp;/g, "&"));
    expect(next.origin + next.pathname).toBe(slo3);
    expect(next.searchParams.get("RelayState")).toBe("rs3");
    expect((await third.validateRedirectAsync(Object.fromEntries(next.searchParams), next.search.slice(1))).loggedOut).toBe(true);
    expect(b.cookies.has("TESSERA_SESSION")).toBe(false);
  });

  it("a cross-site POST without cookies is re-posted same-site, so the SSO session is found", async () => {
    const b = new BrowserSession(server.url);
    autoPost(await login(b, await b.get(await nodeSp().getAuthorizeUrlAsync("", undefined, {}))));
    const saml = nodeSp("HTTP-POST");
    const html = await saml.getAuthorizeFormAsync("rs-x");
    // What a browser sends for the SP's auto-posted form: Fetch Metadata, no SameSite=Lax cookie.
    const res = await fetch(endpoint, {
      method: "POST", redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
      body: new URLSearchParams({ SAMLRequest: htmlField(html, "SAMLRequest"), RelayState: "rs-x" }).toString(),
    });
    expect(res.status).toBe(200);
    const [form, ...rest] = parseForms(await res.text());
    expect(rest).toEqual([]);
    expect(form!.action).toBe(endpoint);
    expect(res.headers.get("content-security-policy")).toContain(`form-action 'self' ${server.url};`);
    const posted = autoPost(await b.post(form!.action, form!.fields));
    expect(posted.RelayState).toBe("rs-x");
    expect((await saml.validatePostResponseAsync({ SAMLResponse: posted.SAMLResponse })).profile!.nameID).toBe("alice@example.test");
  });

  it("an unsigned LogoutRequest ends the SSO session only in the browser that holds it", async () => {
    samlify.setSchemaValidator({ validate });
    const idp = samlify.IdentityProvider({ metadata: (await fetch(`${endpoint}/descriptor`).then((r) => r.text())) });
    const sp = samlify.ServiceProvider({
      entityID: "urn:sp:samlify", assertionConsumerService: [{ Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST", Location: ACS2 }],
    });
    const b = new BrowserSession(server.url);
    autoPost(await login(b, await b.get((sp.createLoginRequest(idp, "redirect") as { context: string }).context)), ACS2);
    const sessionsOf = async () => (await api.get(`/admin/realms/${realm}/users/${userId}/sessions`)).body.map((x: { id: string }) => x.id) as string[];
    const before = await sessionsOf();
    expect(before.length).toBeGreaterThanOrEqual(1);
    const logoutUrl = () => (sp.createLogoutRequest(idp, "redirect", { logoutNameID: "alice@example.test" }) as { context: string }).context;

    // Someone else's browser: the SSO session stays (the SP has no sloUrl: a logged-out page).
    const stranger = await new BrowserSession(server.url).get(logoutUrl());
    expect(stranger.status).toBe(200);
    expect(stranger.text).toContain("You are logged out.");
    expect(await sessionsOf()).toEqual(before);

    // The browser holding the session: SSO reuse re-creates the SP's record, then the logout ends it.
    autoPost(await b.get((sp.createLoginRequest(idp, "redirect") as { context: string }).context), ACS2);
    const mine = await b.get(logoutUrl());
    expect(mine.status).toBe(200);
    expect(b.cookies.has("TESSERA_SESSION")).toBe(false);
    const after = await sessionsOf();
    expect(after.length).toBe(before.length - 1);
  });

  describe("hostile requests through HTTP: HTML error pages, never a form posting elsewhere", () => {
    function expectErrorPage(page: PageResponse, status: number, code: string): void {
      expect(page.status).toBe(status);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect(page.text).toContain(`<code id="error-code">${code}</code>`);
      expect(parseForms(page.text)).toEqual([]);
      expect(page.text).not.toContain("name=\"SAMLResponse\"");
      expect(page.headers.get("content-security-policy")).not.toContain("script-src");
    }

    it("an unregistered ACS URL is a 400", async () => {
      const other = nodeSp("HTTP-Redirect", { callbackUrl: "http://localhost:3990/evil" });
      expectErrorPage(await new BrowserSession(server.url).get(await other.getAuthorizeUrlAsync("", undefined, {})), 400, "acs_mismatch");
    });

    it("an unknown issuer is a 400", async () => {
      const ghost = new SAML({ entryPoint: endpoint, issuer: "urn:sp:ghost", callbackUrl: ACS, idpCert });
      expectErrorPage(await new BrowserSession(server.url).get(await ghost.getAuthorizeUrlAsync("", undefined, {})), 400, "unknown_service_provider");
    });

    it("a replayed request is a 400", async () => {
      const url = await nodeSp().getAuthorizeUrlAsync("", undefined, {});
      expect((await new BrowserSession(server.url).get(url)).status).toBe(200);
      expectErrorPage(await new BrowserSession(server.url).get(url), 400, "saml_request_replayed");
    });

    it("a tampered signature is a 403; an unsigned request of a certificate-holding SP is a 403", async () => {
      const url = await nodeSp().getAuthorizeUrlAsync("rs", undefined, {});
      expectErrorPage(await new BrowserSession(server.url).get(url.replace(/RelayState=[^&]*/, "RelayState=evil")), 403, "invalid_saml_signature");
      const unsigned = new SAML({ entryPoint: endpoint, issuer: "urn:sp:node", callbackUrl: ACS, idpCert });
      expectErrorPage(await new BrowserSession(server.url).get(await unsigned.getAuthorizeUrlAsync("", undefined, {})), 403, "saml_signature_required");
    });

    it("a missing SAMLRequest and garbage are 400s", async () => {
      expectErrorPage(await new BrowserSession(server.url).get(endpoint), 400, "invalid_saml_request");
      expectErrorPage(await new BrowserSession(server.url).post(endpoint, { SAMLRequest: "bm90IHhtbA==" }), 400, "invalid_saml_request");
      // An AuthnRequest sent as a SAMLResponse is not a LogoutResponse.
      const html = await nodeSp("HTTP-POST").getAuthorizeFormAsync("");
      expectErrorPage(await new BrowserSession(server.url).post(endpoint, { SAMLResponse: htmlField(html, "SAMLRequest") }), 400, "invalid_saml_request");
    });
  });

  it("requireSignedRequests: PUT false lets the SP send unsigned requests; true without a certificate is refused; metadata flag", async () => {
    const list = await api.get(`/admin/realms/${realm}/saml-service-providers`);
    const node = list.body.find((s: { entityId: string }) => s.entityId === "urn:sp:node");
    const samlifySp = list.body.find((s: { entityId: string }) => s.entityId === "urn:sp:samlify");
    expect((await api.put(`/admin/realms/${realm}/saml-service-providers/${samlifySp.id}`, { requireSignedRequests: true })).status).toBe(400);
    let meta = await fetch(`${endpoint}/descriptor`).then((r) => r.text());
    expect(meta).toContain("WantAuthnRequestsSigned=\"false\"");

    const off = await api.put(`/admin/realms/${realm}/saml-service-providers/${node.id}`, { requireSignedRequests: false });
    expect(off.status).toBe(200);
    expect(off.body.requireSignedRequests).toBe(false);
    expect((await api.get(`/admin/realms/${realm}/saml-service-providers/${node.id}`)).body.requireSignedRequests).toBe(false);
    const unsigned = new SAML({ entryPoint: endpoint, issuer: "urn:sp:node", callbackUrl: ACS, idpCert });
    const page = await new BrowserSession(server.url).get(await unsigned.getAuthorizeUrlAsync("", undefined, {}));
    expect(parseForms(page.text)[0]!.fields.step).toBe("login");
    expect((await api.put(`/admin/realms/${realm}/saml-service-providers/${node.id}`, { requireSignedRequests: true })).status).toBe(200);

    // Only when every enabled SP requires signed requests does the IdP-wide flag say so.
    expect((await api.put(`/admin/realms/${realm}/saml-service-providers/${samlifySp.id}`, { enabled: false })).status).toBe(200);
    meta = await fetch(`${endpoint}/descriptor`).then((r) => r.text());
    expect(meta).toContain("WantAuthnRequestsSigned=\"true\"");
    expect((await api.put(`/admin/realms/${realm}/saml-service-providers/${samlifySp.id}`, { enabled: true })).status).toBe(200);
  });
});
