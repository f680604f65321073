import { randomUUID } from "node:crypto";
import * as oidc from "openid-client";
import { SignJWT, calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair } from "jose";
import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, type PageResponse } from "./support/browser-session.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { OidcRp, type Started } from "./support/oidc-rp.js";
import { exportSchemaProblems } from "./support/realm-export-schema.js";

const recorded = recordResponses();

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

/**
 * The FAPI 2.0 Security Profile as a client profile, with openid-client as the relying party:
 * PAR (RFC 9126), PKCE S256 (RFC 7636), private_key_jwt (RFC 7523) and DPoP (RFC 9449) in one
 * login; each requirement refused on its own; the Admin API refusing inconsistent settings.
 */
for (const target of targets()) describe(`OIDC FAPI 2.0 Security Profile (${target.mode})`, () => {
  let server: TestServer;
  let realm: string;
  let api: ReturnType<typeof adminApi>;
  let authKey: KeyPair;
  let authJwk: Record<string, unknown>;
  let secret: string;
  const CB = "http://localhost:3993/cb";
  const PASSWORD = "Correct-Horse-9";
  const fapiClient = () => ({
    clientId: "fapi", redirectUris: [CB], grantTypes: ["authorization_code", "refresh_token"],
    tokenEndpointAuthMethod: "private_key_jwt", jwks: { keys: [authJwk] }, requirePushedAuthorizationRequests: true,
    dpopBoundAccessTokens: true, idTokenSignedResponseAlg: "PS256", accessTokenSignedResponseAlg: "ES256", clientProfile: "fapi2-security",
  });

  beforeAll(async () => {
    server = await target.start("oidc-fapi2");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("fapi2");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    authKey = await generateKeyPair("ES256", { extractable: true });
    authJwk = { ...(await exportJWK(authKey.publicKey)), kid: "fapi-1", use: "sig", alg: "ES256" };
    const created = await api.post(`/admin/realms/${realm}/clients`, fapiClient());
    expect([created.status, created.body.clientProfile, created.body.tokenEndpointAuthMethod]).toEqual([201, "fapi2-security", "private_key_jwt"]);
    secret = created.body.secret;
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", password: PASSWORD })).status).toBe(201);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    expectResponsesDocumented(recorded);
  });

  const issuer = () => `${server.url}/realms/${realm}`;
  const tokenUrl = () => `${issuer()}/protocol/openid-connect/token`;
  const parUrl = () => `${issuer()}/protocol/openid-connect/ext/par/request`;
  const rp = () => oidc.discovery(new URL(issuer()), "fapi", { id_token_signed_response_alg: "PS256" },
    oidc.PrivateKeyJwt({ key: authKey.privateKey, kid: "fapi-1" }), { execute: [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks] });
  const calls = () => new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();
  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error("expected a refusal"); }, (e: unknown) => e as { error?: string; status?: number; error_description?: string; cause?: { error_description?: string } });

  /** A pushed request with PKCE S256 and DPoP (dpop_jkt from the PAR request's proof). */
  async function pushed(config: oidc.Configuration, dpop?: oidc.DPoPHandle, extra: Record<string, string> = {}): Promise<Started> {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = await oidc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: CB, scope: "openid profile", state, nonce, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", ...extra,
    }, dpop ? { DPoP: dpop } : {});
    return { url, verifier, state, nonce };
  }
  /** Logs alice in on the pushed request; the redirect back to the client. */
  async function loginBack(s: Started): Promise<PageResponse> {
    const b = new BrowserSession(server.url);
    const back = await calls().login(b, await b.get(s.url.href));
    expect(back.status).toBe(302);
    return back;
  }

  it("logs in with PAR, PKCE S256, private_key_jwt and DPoP, and signs the ID token with PS256", async () => {
    const config = await rp();
    const k = await generateKeyPair("ES256", { extractable: true });
    const dpop = oidc.getDPoPHandle(config, k);
    const s = await pushed(config, dpop);
    expect([...s.url.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    const back = new URL((await loginBack(s)).location);
    // RFC 9207 (FAPI 2.0 SP 5.3.2.2): the authorization response names the issuer.
    expect([`${back.origin}${back.pathname}`, back.searchParams.get("iss"), back.searchParams.get("state")]).toEqual([CB, issuer(), s.state]);
    const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: s.verifier, expectedState: s.state, expectedNonce: s.nonce }, {}, { DPoP: dpop });
    const jkt = await calculateJwkThumbprint(await exportJWK(k.publicKey), "sha256");
    expect([tokens.token_type, decodeJwt(tokens.access_token).cnf]).toEqual(["dpop", { jkt }]);
    expect([decodeProtectedHeader(tokens.id_token!).alg, decodeProtectedHeader(tokens.access_token).alg]).toEqual(["PS256", "ES256"]);
    expect(tokens.claims()).toMatchObject({ iss: issuer(), aud: "fapi", azp: "fapi", nonce: s.nonce });
  });

  it("refuses an authorization request that was not pushed, back at the client", async () => {
    const { start } = calls();
    const plain = await start(await rp());
    const res = await new BrowserSession(server.url).get(plain.url.href);
    expect(res.status).toBe(302);
    const at = new URL(res.location);
    expect(Object.fromEntries(at.searchParams)).toEqual({
      error: "invalid_request", error_description: "Pushed authorization requests are required: push the request and send its request_uri.",
      state: plain.state, iss: issuer(),
    });
  });

  it("refuses a pushed request without PKCE, and one with another response_type", async () => {
    const config = await rp();
    const noPkce = await failure(oidc.buildAuthorizationUrlWithPAR(config, { redirect_uri: CB, scope: "openid", state: "s1" }));
    expect([noPkce.status, noPkce.error, noPkce.error_description]).toEqual([400, "invalid_request", "PKCE (code_challenge with S256) is required by the client's FAPI 2.0 profile."]);
    const verifier = oidc.randomPKCECodeVerifier();
    const implicit = await failure(oidc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: CB, scope: "openid", response_type: "code id_token", code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
    }));
    expect([implicit.status, implicit.error, implicit.error_description]).toEqual([400, "unsupported_response_type", "Only response_type=code is supported."]);
  });

  it("refuses the code at the token endpoint with client_secret authentication or without a DPoP proof", async () => {
    const config = await rp();
    const k = await generateKeyPair("ES256", { extractable: true });
    const s = await pushed(config);
    const back = new URL((await loginBack(s)).location);
    const code = back.searchParams.get("code")!;
    const proof = await new SignJWT({ jti: randomUUID(), htm: "POST", htu: tokenUrl(), iat: Math.floor(Date.now() / 1000) })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: await exportJWK(k.publicKey) }).sign(k.privateKey);
    const form = { grant_type: "authorization_code", code, redirect_uri: CB, code_verifier: s.verifier, client_id: "fapi", client_secret: secret };
    const bySecret = await http("POST", tokenUrl(), { form, headers: { DPoP: proof } });
    expect([bySecret.status, bySecret.body]).toEqual([401, { error: "invalid_client", error_description: "client authentication failed" }]);
    // Neither refusal uses the code up: refused without a proof, redeemed with one.
    const noProof = await failure(oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: s.verifier, expectedState: s.state, expectedNonce: s.nonce }));
    expect([noProof.status, noProof.error, noProof.error_description]).toEqual([400, "invalid_dpop_proof", "this client must send a DPoP proof"]);
    const ok = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: s.verifier, expectedState: s.state, expectedNonce: s.nonce }, {}, { DPoP: oidc.getDPoPHandle(config, k) });
    expect(ok.token_type).toBe("dpop");
  });

  // FAPI 2.0 SP 5.3.2.1: codes live at most 60 s. The e2e servers have no clock control, so this
  // waits the minute out (idle, no CPU): one code is redeemed 58 s after it was issued, the other
  // is refused 60.5 s after.
  it("redeems the client's code within 60 s and refuses it after", async () => {
    const config = await rp();
    const k = await generateKeyPair("ES256", { extractable: true });
    const codeAt = async () => {
      const s = await pushed(config);
      const back = new URL((await loginBack(s)).location);
      return { s, back, at: Date.now() };
    };
    const redeemAt = async (c: Awaited<ReturnType<typeof codeAt>>, afterMs: number) => {
      await new Promise((r) => setTimeout(r, Math.max(0, c.at + afterMs - Date.now())));
      return oidc.authorizationCodeGrant(config, c.back, { pkceCodeVerifier: c.s.verifier, expectedState: c.s.state, expectedNonce: c.s.nonce }, {}, { DPoP: oidc.getDPoPHandle(config, k) });
    };
    const early = await codeAt();
    const late = await codeAt();
    expect((await redeemAt(early, 58_000)).token_type).toBe("dpop");
    const refused = await failure(redeemAt(late, 60_500));
    expect([refused.status, refused.error, refused.error_description]).toEqual([400, "invalid_grant", "authorization code expired"]);
  }, 90_000);

  it("refuses a FAPI client whose settings disagree with the profile, naming the field", async () => {
    const refused = async (body: Record<string, unknown>, field: string, rule: string) => {
      const res = await api.post(`/admin/realms/${realm}/clients`, { ...fapiClient(), clientId: uniqueName("bad"), ...body });
      expect([res.status, res.body]).toEqual([400, { error: "invalid_request", message: `clientProfile "fapi2-security" (FAPI 2.0 Security Profile) requires ${rule}`, field }]);
    };
    await refused({ idTokenSignedResponseAlg: "RS256" }, "idTokenSignedResponseAlg", "idTokenSignedResponseAlg PS256, ES256 or EdDSA");
    await refused({ dpopBoundAccessTokens: false }, "dpopBoundAccessTokens", "dpopBoundAccessTokens true (sender-constrained access tokens)");
    await refused({ requirePushedAuthorizationRequests: false }, "requirePushedAuthorizationRequests", "requirePushedAuthorizationRequests true");
    await refused({ tokenEndpointAuthMethod: "client_secret_basic" }, "tokenEndpointAuthMethod", 'tokenEndpointAuthMethod "private_key_jwt"');
    await refused({ accessTokenSignedResponseAlg: "RS256" }, "accessTokenSignedResponseAlg", "accessTokenSignedResponseAlg PS256, ES256 or EdDSA");
    await refused({ accessTokenSignedResponseAlg: "" }, "accessTokenSignedResponseAlg", "accessTokenSignedResponseAlg PS256, ES256 or EdDSA");
    await refused({ grantTypes: ["authorization_code", "password"] }, "grantTypes", "grantTypes among authorization_code, refresh_token and client_credentials (not password)");
    const unknown = await api.post(`/admin/realms/${realm}/clients`, { clientId: uniqueName("bad"), clientProfile: "fapi1-advanced" });
    expect([unknown.status, unknown.body]).toEqual([400, { error: "invalid_request", message: 'clientProfile must be "" or "fapi2-security"', field: "clientProfile" }]);
    // An update is checked against the client as it would be, not only the fields sent.
    const off = await api.put(`/admin/realms/${realm}/clients/fapi`, { dpopBoundAccessTokens: false });
    expect([off.status, off.body.field]).toEqual([400, "dpopBoundAccessTokens"]);
    const plain = uniqueName("plain");
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: plain, redirectUris: [CB] })).status).toBe(201);
    const onPlain = await api.put(`/admin/realms/${realm}/clients/${plain}`, { clientProfile: "fapi2-security" });
    expect([onPlain.status, onPlain.body.field]).toEqual([400, "tokenEndpointAuthMethod"]);
    expect((await api.get(`/admin/realms/${realm}/clients/fapi`)).body).toMatchObject({ clientProfile: "fapi2-security", dpopBoundAccessTokens: true });
  });

  it("keeps the profile and private_key_jwt through export and import", async () => {
    const exported = await api.get(`/admin/realms/${realm}/export?includeSecrets=true`);
    expect(exported.status).toBe(200);
    expect(exportSchemaProblems(exported.body)).toEqual([]);
    const doc = exported.body;
    const fapi = doc.clients.find((c: { clientId: string }) => c.clientId === "fapi");
    expect(fapi).toMatchObject({ clientProfile: "fapi2-security", tokenEndpointAuthMethod: "private_key_jwt", idTokenSignedResponseAlg: "PS256", dpopBoundAccessTokens: true });
    // An imported document is held to the profile too.
    const broken = { ...doc, clients: doc.clients.map((c: { clientId: string }) => (c.clientId === "fapi" ? { ...c, dpopBoundAccessTokens: false } : c)) };
    const bad = await api.post("/admin/realms/import?overwrite=true", broken);
    const index = doc.clients.findIndex((c: { clientId: string }) => c.clientId === "fapi");
    expect([bad.status, bad.body.error, bad.body.problems]).toEqual([400, "invalid_document", [{
      path: `$.clients[${index}].dpopBoundAccessTokens`,
      message: 'clientProfile "fapi2-security" (FAPI 2.0 Security Profile) requires dpopBoundAccessTokens true (sender-constrained access tokens)',
    }]]);
    // A private_key_jwt client without keys is refused as the Admin API refuses it.
    const keyless = { ...doc, clients: doc.clients.map((c: { clientId: string }) => (c.clientId === "fapi" ? { ...c, jwks: undefined } : c)) };
    const noKeys = await api.post("/admin/realms/import?overwrite=true", keyless);
    expect([noKeys.status, noKeys.body.problems]).toEqual([400, [{ path: `$.clients[${index}].jwks`, message: "private_key_jwt needs the client's public keys in jwks or jwksUri" }]]);
    const imported = await api.post("/admin/realms/import?overwrite=true", doc);
    expect(imported.status).toBe(201);
    const after = await eventually(async () => (await api.get(`/admin/realms/${realm}/clients/fapi`)).body, (b) => b.clientProfile === "fapi2-security");
    expect(after).toMatchObject({ tokenEndpointAuthMethod: "private_key_jwt", requirePushedAuthorizationRequests: true, idTokenSignedResponseAlg: "PS256" });
  });
});
