import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms, type PageResponse } from "./support/browser-session.js";
import { builtin, listed } from "./support/consent-page.js";

// The client as it is when the user finishes authenticating, not as it was when the login page
// opened (Keycloak re-checks then): a client disabled or deleted meanwhile gets no code and no
// redirect (RFC 6749 section 4.1.2.1: never redirect for an invalid client), an error page with a
// LOGIN_ERROR event; whether consent is asked follows the client's requireConsent of that moment.
describe.each(targets())("a client changed during its login ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  const CB = "http://localhost:3993/cb";
  const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
  const PW = "Mid-Login-Pass-4";
  const CSP_NO_CLIENT = "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  beforeAll(async () => {
    server = await target.start("client-change-mid-login");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("midlogin");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true })).status).toBe(201);
    for (const clientId of ["fades", "goes", "turns-consent", "drops-consent", "fades-at-consent", "moves", "fades-early"]) {
      expect((await api.post(`/admin/realms/${realm}/clients`, {
        clientId, clientType: "PUBLIC", redirectUris: [CB], requireConsent: clientId === "drops-consent" || clientId === "fades-at-consent",
        grantTypes: ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"],
      })).status).toBe(201);
    }
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", password: PW })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const authUrl = (clientId: string, extra: Record<string, string> = {}) => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: clientId, redirect_uri: CB, response_type: "code", scope: "openid profile email", state: "st-9",
    code_challenge: CHALLENGE, code_challenge_method: "S256", ...extra,
  })}`;
  /** The login page of a fresh browser. */
  const loginPage = async (clientId: string) => {
    const b = new BrowserSession(server.url);
    const page = await b.get(authUrl(clientId));
    expect(page.status).toBe(200);
    expect(parseForms(page.text)[0]!.fields.step).toBe("login");
    return { b, page };
  };
  const submitPassword = (b: BrowserSession, page: PageResponse) => b.submit(page, { username: "alice", password: PW });
  /** Until the token service's client cache dropped the client: a new login of it is refused at once. */
  const refusedAtStart = (clientId: string) =>
    eventually(() => new BrowserSession(server.url).get(authUrl(clientId)), (r) => r.status === 400);
  function expectErrorPage(res: PageResponse, code: string, description: string) {
    expect(res.status).toBe(400);
    expect(res.location).toBe("");
    expect(res.headers.get("content-security-policy")).toBe(CSP_NO_CLIENT);
    expect(res.text).toContain(`<code id="error-code">${code}</code>`);
    expect(res.text).toContain(`<p class="alert" role="alert" id="error-description">${description}</p>`);
    expect(res.text).not.toContain("code=");
  }
  const loginErrors = (clientId: string, n: number) => eventually(
    async () => ((await api.get(`/admin/realms/${realm}/events?type=LOGIN_ERROR&clientId=${clientId}`)).body as any[]),
    (e) => e.length >= n,
  );

  it("refuses a client disabled while its login page was open before checking the password", async () => {
    const { b, page } = await loginPage("fades-early");
    expect((await api.put(`/admin/realms/${realm}/clients/fades-early`, { enabled: false })).status).toBe(200);
    expect((await refusedAtStart("fades-early")).status).toBe(400);

    // A wrong password: the answer is the client's refusal, and the event says so, not the password's failure.
    expectErrorPage(await b.submit(page, { username: "alice", password: "not-the-password" }), "invalid_client", "Login requester not enabled.");
    const errors = await loginErrors("fades-early", 1);
    expect(errors.map((e) => [e.type, e.clientId, e.error])).toEqual([["LOGIN_ERROR", "fades-early", "client_disabled"]]);
  });

  it("sends no code to a redirect_uri the client stopped registering while its login page was open", async () => {
    const { b, page } = await loginPage("moves");
    expect((await api.put(`/admin/realms/${realm}/clients/moves`, { redirectUris: ["http://localhost:3993/elsewhere"] })).status).toBe(200);
    expect((await refusedAtStart("moves")).status).toBe(400);

    const res = await submitPassword(b, page);
    expectErrorPage(res, "invalid_request", "Invalid parameter: redirect_uri");
    const errors = await loginErrors("moves", 1);
    expect(errors.map((e) => [e.type, e.clientId, e.error])).toEqual([["LOGIN_ERROR", "moves", "invalid_redirect_uri"]]);
    expect((await submitPassword(b, page)).text).toContain("<code id=\"error-code\">invalid_transaction</code>");
  });

  it("refuses with an error page, not a code, a client disabled while its login page was open", async () => {
    const { b, page } = await loginPage("fades");
    expect((await api.put(`/admin/realms/${realm}/clients/fades`, { enabled: false })).status).toBe(200);
    expect((await refusedAtStart("fades")).status).toBe(400);

    const res = await submitPassword(b, page);
    expectErrorPage(res, "invalid_client", "Login requester not enabled.");
    const errors = await loginErrors("fades", 1);
    expect(errors.map((e) => [e.type, e.clientId, e.error])).toEqual([["LOGIN_ERROR", "fades", "client_disabled"]]);
    expect(errors[0].details).toMatchObject({ username: "alice", redirect_uri: CB });

    // The login is over: its page cannot be submitted again.
    const again = await submitPassword(b, page);
    expect(again.status).toBe(400);
    expect(again.text).toContain("<code id=\"error-code\">invalid_transaction</code>");
  });

  it("refuses a client deleted while its login page was open", async () => {
    const { b, page } = await loginPage("goes");
    expect((await api.del(`/admin/realms/${realm}/clients/goes`)).status).toBe(204);
    expect((await refusedAtStart("goes")).status).toBe(400);
    expectErrorPage(await submitPassword(b, page), "invalid_client", "Unknown login requester.");
    const errors = await loginErrors("goes", 1);
    expect(errors.map((e) => [e.type, e.clientId, e.error])).toEqual([["LOGIN_ERROR", "goes", "client_not_found"]]);
  });

  it("asks for consent when the client requires it by the time the user authenticated", async () => {
    // Another browser's SSO session shows when the cache has the new setting (prompt=none).
    const sso = new BrowserSession(server.url);
    const first = await submitPassword(sso, await sso.get(authUrl("turns-consent")));
    expect(first.status).toBe(302);
    const { b, page } = await loginPage("turns-consent");
    expect((await api.put(`/admin/realms/${realm}/clients/turns-consent`, { requireConsent: true })).status).toBe(200);
    const silent = await eventually(() => sso.get(authUrl("turns-consent", { prompt: "none" })),
      (r) => new URL(r.location).searchParams.get("error") === "consent_required");
    expect(new URL(silent.location).searchParams.get("error")).toBe("consent_required");

    const res = await submitPassword(b, page);
    expect(res.status).toBe(200);
    expect(parseForms(res.text)[0]!.fields.step).toBe("consent");
    expect(listed(res.text)).toEqual([builtin("email"), builtin("profile")]);
  });

  it("asks no consent when the client no longer requires it by the time the user authenticated", async () => {
    const { b, page } = await loginPage("drops-consent");
    expect((await api.put(`/admin/realms/${realm}/clients/drops-consent`, { requireConsent: false })).status).toBe(200);
    // Until the cache has the new setting: a login begun now skips the consent page.
    const fresh = async () => {
      const other = await loginPage("drops-consent");
      return submitPassword(other.b, other.page);
    };
    expect((await eventually(fresh, (r) => r.status === 302)).status).toBe(302);

    const res = await submitPassword(b, page);
    expect(res.status).toBe(302);
    const at = new URL(res.location);
    expect(`${at.origin}${at.pathname}`).toBe(CB);
    expect([...at.searchParams.keys()]).toEqual(["code", "state", "iss"]);
  });

  it("refuses approving or denying the consent of a client disabled while the consent page was shown", async () => {
    const { b, page } = await loginPage("fades-at-consent");
    const consent = await submitPassword(b, page);
    expect(consent.status).toBe(200);
    expect(parseForms(consent.text)[0]!.fields.step).toBe("consent");
    expect((await api.put(`/admin/realms/${realm}/clients/fades-at-consent`, { enabled: false })).status).toBe(200);
    expect((await refusedAtStart("fades-at-consent")).status).toBe(400);

    expectErrorPage(await b.submit(consent, { decision: "deny" }), "invalid_client", "Login requester not enabled.");
    const errors = await loginErrors("fades-at-consent", 1);
    expect(errors.map((e) => [e.type, e.clientId, e.error])).toEqual([["LOGIN_ERROR", "fades-at-consent", "client_disabled"]]);
  });

  it("refuses approving a device of a client disabled while the device's consent page was shown (RFC 8628 3.3)", async () => {
    const clientId = uniqueName("device");
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId, clientType: "PUBLIC", redirectUris: [CB], grantTypes: ["urn:ietf:params:oauth:grant-type:device_code"],
    })).status).toBe(201);
    const device = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/auth/device`, { form: { client_id: clientId, scope: "openid" } });
    expect(device.status).toBe(200);
    const b = new BrowserSession(server.url);
    const consent = await submitPassword(b, await b.get(device.body.verification_uri_complete));
    expect(consent.status).toBe(200);
    expect(parseForms(consent.text)[0]!.fields.step).toBe("consent");
    expect((await api.put(`/admin/realms/${realm}/clients/${clientId}`, { enabled: false })).status).toBe(200);
    // The device endpoint reads the same cache: refused once it dropped the client.
    await eventually(() => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/auth/device`, { form: { client_id: clientId } }),
      (r) => r.status !== 200);

    expectErrorPage(await b.submit(consent, { decision: "approve" }), "invalid_client", "Login requester not enabled.");
    const errors = await loginErrors(clientId, 1);
    expect(errors.map((e) => [e.type, e.clientId, e.error])).toEqual([["LOGIN_ERROR", clientId, "client_disabled"]]);
  });
});
