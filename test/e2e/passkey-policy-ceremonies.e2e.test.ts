import * as oidc from "openid-client";
import { adminApi, recordResponses, uniqueName } from "./support/http.js";
import { BrowserSession, type PageResponse } from "./support/browser-session.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { SoftAuthenticator, type RegisterOptions } from "./support/soft-authenticator.js";

const recorded = recordResponses();

const decode = (v: string) => v.replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
const REFUSED = "The passkey could not be registered.";
const PASSWORD = "Erin-Secret-12";
const YUBIKEY_5 = "cb69481e-8ff7-4039-93ec-0a2729a154a8";
const OTHER_MODEL = "2fc0579f-8113-47ea-b116-bb5a8db9202a";
const APP_ORIGIN = "https://app.example.test";

interface Ceremony {
  browser: BrowserSession;
  page: PageResponse;
  options: any;
}

// The realm's WebAuthn Passwordless Policy applied to the hosted pages' ceremonies: registration
// (kc_action=webauthn-register-passwordless) and the username-less sign-in, with a software
// authenticator (support/soft-authenticator.ts) that can leave out UV, pick its AAGUID and its
// attestation statement. Embedded mode only: the relying-party id is localhost here.
describe("passkey ceremonies under the realm's WebAuthn policy", () => {
  const CB = "http://localhost:3996/cb";
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let origin: string;

  beforeAll(async () => {
    server = await startEmbeddedServer("passkey-policy-ceremonies");
    api = adminApi(server.url, server.apiKey);
    origin = new URL(server.url).origin;
  }, 120_000);
  afterAll(async () => server?.stop());

  async function realmWith(policy: Record<string, unknown>): Promise<{ realm: string; userId: string }> {
    const realm = uniqueName("wa-cer");
    expect((await api.post("/admin/realms", { name: realm, ...policy })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "erin", password: PASSWORD });
    expect(user.status).toBe(201);
    return { realm, userId: user.body.id as string };
  }

  async function authorizeUrl(realm: string, extra: Record<string, string> = {}): Promise<string> {
    const config = await oidc.discovery(new URL(`${server.url}/realms/${realm}`), "web", undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: CB, scope: "openid", state: oidc.randomState(),
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()), code_challenge_method: "S256", ...extra,
    }).href;
  }

  function optionsOf(page: PageResponse): any {
    const form = /<form[^>]*id="passkey-form"[^>]*data-options="([^"]*)"/.exec(page.text);
    if (!form) throw new Error(`no passkey form (status ${page.status}): ${page.text.slice(0, 300)}`);
    return JSON.parse(decode(form[1]!));
  }

  /**
   * The password login of kc_action=webauthn-register-passwordless, up to the registration page;
   * a user who has a passkey proves it first (the second factor after the password).
   */
  async function registrationPage(realm: string, has?: { a: SoftAuthenticator; counter: number; userId: string }): Promise<Ceremony> {
    const browser = new BrowserSession(server.url);
    const login = await browser.follow(await browser.get(await authorizeUrl(realm, { kc_action: "webauthn-register-passwordless" })));
    expect(login.status).toBe(200);
    let page = await browser.follow(await browser.submit(login, { username: "erin", password: PASSWORD }));
    if (has) {
      expect(page.text).not.toContain('data-ceremony="register"');
      page = await browser.follow(await browser.submit(page, { credential: has.a.assert(optionsOf(page), origin, has.counter, has.userId) }));
    }
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-ceremony="register"');
    return { browser, page, options: optionsOf(page) };
  }

  /** Registers `a` through the page; true when the login went on to the application. */
  async function register(realm: string, a: SoftAuthenticator, o: RegisterOptions & { origin?: string } = {}): Promise<boolean> {
    const { browser, page, options } = await registrationPage(realm);
    const res = await browser.submit(page, { credential: a.register(options, o.origin ?? origin, o), label: "Key" });
    if (res.status === 302 && res.location.startsWith(CB)) return true;
    expect(res.status).toBe(200);
    expect(res.text).toContain(REFUSED);
    return false;
  }

  const passkeys = async (realm: string, userId: string) => {
    const res = await api.get(`/admin/realms/${realm}/users/${userId}/passkeys`);
    expect(res.status).toBe(200);
    return res.body as Array<{ credentialId: string }>;
  };

  it("writes the policy into the registration options", async () => {
    const { realm, userId } = await realmWith({
      webAuthnPolicyPasswordlessRpEntityName: "Acme Corp", webAuthnPolicyPasswordlessSignatureAlgorithms: ["ES256", "RS1"],
      webAuthnPolicyPasswordlessAttestationConveyancePreference: "direct", webAuthnPolicyPasswordlessAuthenticatorAttachment: "cross-platform",
      webAuthnPolicyPasswordlessUserVerificationRequirement: "required", webAuthnPolicyPasswordlessCreateTimeout: 300,
    });
    const first = new SoftAuthenticator();
    const { options } = await registrationPage(realm);
    expect(options.rp).toEqual({ name: "Acme Corp", id: "localhost" });
    expect(options.pubKeyCredParams).toEqual([{ alg: -7, type: "public-key" }, { alg: -65535, type: "public-key" }]);
    expect(options.authenticatorSelection).toEqual({
      authenticatorAttachment: "cross-platform", residentKey: "required", requireResidentKey: true, userVerification: "required",
    });
    expect([options.attestation, options.timeout, options.excludeCredentials]).toEqual(["direct", 300_000, []]);
    expect(await register(realm, first, { attestation: "packed-self", attachment: "cross-platform" })).toBe(true);

    // The user's own credential is excluded (avoid same authenticator, Tessera's default) ...
    const again = await registrationPage(realm, { a: first, counter: 1, userId });
    expect(again.options.excludeCredentials).toEqual([{ id: first.credentialId, type: "public-key", transports: ["usb"] }]);
    // ... and not when the policy turns that off; "not specified" leaves options out.
    expect((await api.put(`/admin/realms/${realm}`, {
      webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister: false, webAuthnPolicyPasswordlessAttestationConveyancePreference: "not specified",
      webAuthnPolicyPasswordlessRequireResidentKey: "not specified", webAuthnPolicyPasswordlessCreateTimeout: 0,
    })).status).toBe(200);
    const loose = await registrationPage(realm, { a: first, counter: 2, userId });
    expect(loose.options.excludeCredentials).toEqual([]);
    expect(loose.options.authenticatorSelection).toEqual({ authenticatorAttachment: "cross-platform", userVerification: "required" });
    expect(Object.keys(loose.options)).not.toContain("attestation");
    expect(Object.keys(loose.options)).not.toContain("timeout");
    expect(await passkeys(realm, userId)).toHaveLength(1);
  }, 90_000);

  it("refuses a registration without user verification when the policy requires it", async () => {
    const { realm, userId } = await realmWith({ webAuthnPolicyPasswordlessUserVerificationRequirement: "required" });
    expect(await register(realm, new SoftAuthenticator(), { userVerified: false })).toBe(false);
    expect(await passkeys(realm, userId)).toEqual([]);
    expect(await register(realm, new SoftAuthenticator(), { userVerified: true })).toBe(true);
    expect(await passkeys(realm, userId)).toHaveLength(1);
    // "preferred" (the default) takes an authenticator that did not verify the user.
    const relaxed = await realmWith({});
    expect(await register(relaxed.realm, new SoftAuthenticator(), { userVerified: false })).toBe(true);
  }, 90_000);

  it("takes only listed authenticator models, proven by an attestation certificate", async () => {
    const { realm, userId } = await realmWith({
      webAuthnPolicyPasswordlessAttestationConveyancePreference: "direct", webAuthnPolicyPasswordlessAcceptableAaguids: [YUBIKEY_5],
    });
    expect(await register(realm, new SoftAuthenticator(OTHER_MODEL), { attestation: "packed-full" })).toBe(false);
    // The AAGUID alone proves nothing: a self-attested or unattested listed model is refused too (Keycloak alike).
    expect(await register(realm, new SoftAuthenticator(YUBIKEY_5), { attestation: "packed-self" })).toBe(false);
    expect(await register(realm, new SoftAuthenticator(YUBIKEY_5), { attestation: "none" })).toBe(false);
    expect(await passkeys(realm, userId)).toEqual([]);
    const listed = new SoftAuthenticator(YUBIKEY_5);
    expect(await register(realm, listed, { attestation: "packed-full" })).toBe(true);
    expect((await passkeys(realm, userId)).map((k) => k.credentialId)).toEqual([listed.credentialId]);
  }, 90_000);

  it("refuses a credential whose algorithm the policy does not list", async () => {
    const { realm, userId } = await realmWith({ webAuthnPolicyPasswordlessSignatureAlgorithms: ["RS256"] });
    expect(await register(realm, new SoftAuthenticator())).toBe(false); // an ES256 key
    expect(await passkeys(realm, userId)).toEqual([]);
  }, 60_000);

  /** Username-less sign-in: the login page's passkey button, then the assertion; the page's answer. */
  async function passkeyLogin(realm: string, a: SoftAuthenticator, counter: number, userId: string, o: { origin?: string; userVerified?: boolean } = {}) {
    const browser = new BrowserSession(server.url);
    const login = await browser.follow(await browser.get(await authorizeUrl(realm)));
    const begin = await browser.follow(await browser.submit(login, {}, 1));
    const options = optionsOf(begin);
    const res = await browser.submit(begin, { credential: a.assert(options as { challenge: string; rpId: string }, o.origin ?? origin, counter, userId, o.userVerified) });
    return { res, options };
  }

  it("accepts an extra origin in clientDataJSON for registration and sign-in, and no other", async () => {
    const { realm, userId } = await realmWith({ webAuthnPolicyPasswordlessExtraOrigins: [APP_ORIGIN] });
    expect(await register(realm, new SoftAuthenticator(), { origin: "https://elsewhere.example.test" })).toBe(false);
    const app = new SoftAuthenticator();
    expect(await register(realm, app, { origin: APP_ORIGIN })).toBe(true);
    const refused = await passkeyLogin(realm, app, 1, userId, { origin: "https://elsewhere.example.test" });
    expect(refused.res.status).toBe(200);
    expect(refused.res.text).toContain("The passkey was not accepted.");
    const { res } = await passkeyLogin(realm, app, 2, userId, { origin: APP_ORIGIN });
    expect(res.status).toBe(302);
    expect(res.location.startsWith(CB)).toBe(true);
    // Without the extra origin the same assertion's origin is refused.
    expect((await api.put(`/admin/realms/${realm}`, { webAuthnPolicyPasswordlessExtraOrigins: [] })).status).toBe(200);
    const gone = await passkeyLogin(realm, app, 3, userId, { origin: APP_ORIGIN });
    expect(gone.res.status).toBe(200);
  }, 90_000);

  it("asks for user verification at sign-in as the policy says, and refuses an assertion without it when required", async () => {
    const { realm, userId } = await realmWith({ webAuthnPolicyPasswordlessCreateTimeout: 45 });
    const a = new SoftAuthenticator();
    expect(await register(realm, a)).toBe(true);
    const preferred = await passkeyLogin(realm, a, 1, userId, { userVerified: false });
    expect([preferred.options.userVerification, preferred.options.timeout, preferred.res.status]).toEqual(["preferred", 45_000, 302]);
    expect((await api.put(`/admin/realms/${realm}`, { webAuthnPolicyPasswordlessUserVerificationRequirement: "required" })).status).toBe(200);
    const refused = await passkeyLogin(realm, a, 2, userId, { userVerified: false });
    expect([refused.options.userVerification, refused.res.status]).toEqual(["required", 200]);
    expect(refused.res.text).toContain("The passkey was not accepted.");
    const verified = await passkeyLogin(realm, a, 3, userId, { userVerified: true });
    expect(verified.res.status).toBe(302);
  }, 90_000);
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
