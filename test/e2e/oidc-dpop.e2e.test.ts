import { createHash, randomUUID } from "node:crypto";
import * as oidc from "openid-client";
import { SignJWT, calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair } from "jose";
import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { OidcRp } from "./support/oidc-rp.js";

const recorded = recordResponses();

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

/** What openid-client sent and got back, per request (its customFetch). */
interface Exchange {
  url: string;
  dpop: string;
  body: string;
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

/**
 * DPoP (RFC 9449) with openid-client as the relying party (its getDPoPHandle): bound access and
 * refresh tokens, server nonces, replayed proofs, proofs by another key, userinfo with the DPoP
 * scheme and as Bearer, introspection's cnf, and a client that must use DPoP.
 */
for (const target of targets()) describe(`OIDC DPoP (${target.mode})`, () => {
  let server: TestServer;
  let realm: string;
  let api: ReturnType<typeof adminApi>;
  const secrets: Record<string, string> = {};
  const CB = "http://localhost:3996/cb";
  const PASSWORD = "Correct-Horse-9";

  beforeAll(async () => {
    server = await target.start("oidc-dpop");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("dpop");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true })).status).toBe(201);
    const clients = [
      { clientId: "app", clientType: "PUBLIC", redirectUris: [CB], grantTypes: ["authorization_code", "password", "refresh_token"] },
      { clientId: "nonce-app", clientType: "PUBLIC", grantTypes: ["password", "refresh_token"], dpopNonceRequired: true },
      { clientId: "svc", grantTypes: ["client_credentials", "password", "refresh_token"] },
      { clientId: "strict", grantTypes: ["client_credentials"], dpopBoundAccessTokens: true },
    ];
    for (const c of clients) {
      const res = await api.post(`/admin/realms/${realm}/clients`, c);
      expect([res.status, res.body.dpopBoundAccessTokens, res.body.dpopNonceRequired]).toEqual([201, c.dpopBoundAccessTokens ?? false, c.dpopNonceRequired ?? false]);
      if (res.body.secret) secrets[c.clientId] = res.body.secret;
    }
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", password: PASSWORD })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const issuer = () => `${server.url}/realms/${realm}`;
  const tokenUrl = () => `${issuer()}/protocol/openid-connect/token`;
  const userinfoUrl = () => `${issuer()}/protocol/openid-connect/userinfo`;

  /** openid-client for a client, every exchange recorded in `log`. */
  async function rp(clientId: string, log: Exchange[] = []): Promise<oidc.Configuration> {
    const secret = secrets[clientId];
    const config = await oidc.discovery(new URL(issuer()), clientId, secret, secret ? oidc.ClientSecretPost(secret) : oidc.None(), { execute: [oidc.allowInsecureRequests] });
    config[oidc.customFetch] = async (url, options) => {
      const res = await fetch(url, options as RequestInit);
      const text = await res.clone().text();
      const headers = new Headers(options.headers as HeadersInit);
      log.push({ url, dpop: headers.get("dpop") ?? "", body: String(options.body ?? ""), status: res.status, headers: res.headers, json: text.startsWith("{") ? JSON.parse(text) : {} });
      return res;
    };
    return config;
  }
  const keyPair = () => generateKeyPair("ES256", { extractable: true });
  const thumbprint = async (k: KeyPair) => calculateJwkThumbprint(await exportJWK(k.publicKey), "sha256");
  const passwordGrant = (config: oidc.Configuration, dpop?: oidc.DPoPHandle) =>
    oidc.genericGrantRequest(config, "password", { username: "alice", password: PASSWORD, scope: "openid profile" }, dpop ? { DPoP: dpop } : {});
  /** A proof made here, for what openid-client would not send. */
  const proof = async (k: KeyPair, htm: string, htu: string, claims: Record<string, unknown> = {}) =>
    new SignJWT({ jti: randomUUID(), htm, htu, iat: Math.floor(Date.now() / 1000), ...claims })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: await exportJWK(k.publicKey) }).sign(k.privateKey);
  const ath = (token: string) => createHash("sha256").update(token).digest("base64url");
  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error("expected a refusal"); }, (e: unknown) => e as { error?: string; status?: number });

  it("advertises the proof algorithms", async () => {
    const res = await http("GET", `${issuer()}/.well-known/openid-configuration`);
    expect(res.body.dpop_signing_alg_values_supported).toEqual(["ES256", "RS256", "PS256", "EdDSA"]);
  });

  it("binds a client_credentials token to the proof's key; introspection shows cnf.jkt and token_type DPoP", async () => {
    const config = await rp("svc");
    const k = await keyPair();
    const tokens = await oidc.clientCredentialsGrant(config, {}, { DPoP: oidc.getDPoPHandle(config, k) });
    expect(tokens.token_type).toBe("dpop");
    const jkt = await thumbprint(k);
    expect(decodeJwt(tokens.access_token).cnf).toEqual({ jkt });
    const info = await oidc.tokenIntrospection(config, tokens.access_token);
    expect([info.active, info.token_type, info.cnf]).toEqual([true, "DPoP", { jkt }]);
    // Without a proof the same client gets a plain Bearer token.
    const plain = await oidc.clientCredentialsGrant(config);
    expect([plain.token_type, decodeJwt(plain.access_token).cnf]).toEqual(["bearer", undefined]);
    expect((await oidc.tokenIntrospection(config, plain.access_token)).token_type).toBe("Bearer");
  });

  it("refuses a replayed proof (the same jti)", async () => {
    const log: Exchange[] = [];
    const config = await rp("svc", log);
    await oidc.clientCredentialsGrant(config, {}, { DPoP: oidc.getDPoPHandle(config, await keyPair()) });
    const sent = log.at(-1)!;
    expect(sent.status).toBe(200);
    const replay = await http("POST", tokenUrl(), { form: Object.fromEntries(new URLSearchParams(sent.body)), headers: { DPoP: sent.dpop } });
    expect([replay.status, replay.body]).toEqual([400, { error: "invalid_dpop_proof", error_description: "the proof's jti was already used" }]);
  });

  it("refuses proofs for another endpoint or method, and a proof signed by another key than its jwk", async () => {
    const k = await keyPair();
    const form = { grant_type: "client_credentials", client_id: "svc", client_secret: secrets.svc! };
    const wrongHtu = await http("POST", tokenUrl(), { form, headers: { DPoP: await proof(k, "POST", userinfoUrl()) } });
    expect([wrongHtu.status, wrongHtu.body.error]).toEqual([400, "invalid_dpop_proof"]);
    const wrongHtm = await http("POST", tokenUrl(), { form, headers: { DPoP: await proof(k, "GET", tokenUrl()) } });
    expect([wrongHtm.status, wrongHtm.body.error_description]).toEqual([400, "the proof's htm does not match the request method"]);
    const other = await keyPair();
    const forged = await new SignJWT({ jti: randomUUID(), htm: "POST", htu: tokenUrl(), iat: Math.floor(Date.now() / 1000) })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: await exportJWK(k.publicKey) }).sign(other.privateKey);
    const bad = await http("POST", tokenUrl(), { form, headers: { DPoP: forged } });
    expect([bad.status, bad.body]).toEqual([400, { error: "invalid_dpop_proof", error_description: "the proof's signature does not verify with its jwk" }]);
    // htu is compared without its query (RFC 9449 section 4.3 item 9).
    const withQuery = await http("POST", tokenUrl(), { form, headers: { DPoP: await proof(k, "POST", `${tokenUrl()}?x=1`) } });
    expect([withQuery.status, withQuery.body.token_type]).toEqual([200, "DPoP"]);
  });

  it("refuses a client that must use DPoP without a proof, and serves it with one", async () => {
    const config = await rp("strict");
    const e = await failure(oidc.clientCredentialsGrant(config));
    expect([e.error, e.status]).toEqual(["invalid_dpop_proof", 400]);
    const refused = await eventually(
      async () => (await api.get(`/admin/realms/${realm}/events?type=CLIENT_LOGIN_ERROR&clientId=strict`)).body as Array<{ error: string }>,
      (got) => got.length > 0);
    expect(refused.map((x) => x.error)).toEqual(["invalid_dpop_proof"]);
    const tokens = await oidc.clientCredentialsGrant(config, {}, { DPoP: oidc.getDPoPHandle(config, await keyPair()) });
    expect(tokens.token_type).toBe("dpop");
  });

  it("binds a public client's refresh token: refused without its key's proof, rotated with it", async () => {
    const config = await rp("app");
    const k = await keyPair();
    const dpop = oidc.getDPoPHandle(config, k);
    const tokens = await passwordGrant(config, dpop);
    expect(tokens.token_type).toBe("dpop");
    const info = await http("POST", `${tokenUrl()}/introspect`, { form: { token: tokens.refresh_token!, client_id: "svc", client_secret: secrets.svc! } });
    expect([info.body.active, info.body.cnf]).toEqual([true, { jkt: await thumbprint(k) }]);
    const without = await failure(oidc.refreshTokenGrant(config, tokens.refresh_token!));
    expect([without.error, without.status]).toEqual(["invalid_grant", 400]);
    const otherKey = await failure(oidc.refreshTokenGrant(config, tokens.refresh_token!, {}, { DPoP: oidc.getDPoPHandle(config, await keyPair()) }));
    expect(otherKey.error).toBe("invalid_grant");
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, {}, { DPoP: dpop });
    expect([refreshed.token_type, decodeJwt(refreshed.access_token).cnf]).toEqual(["dpop", { jkt: await thumbprint(k) }]);
  });

  it("leaves a confidential client's refresh token unbound (RFC 9449 section 5)", async () => {
    const config = await rp("svc");
    const tokens = await passwordGrant(config, oidc.getDPoPHandle(config, await keyPair()));
    expect(decodeJwt(tokens.access_token).cnf).toBeDefined();
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect([refreshed.token_type, decodeJwt(refreshed.access_token).cnf]).toEqual(["bearer", undefined]);
  });

  it("binds the authorization code grant's tokens", async () => {
    const { login, start } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();
    const config = await rp("app");
    const k = await keyPair();
    const s = await start(config);
    const b = new BrowserSession(server.url);
    const back = await login(b, await b.get(s.url.href));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.location), { pkceCodeVerifier: s.verifier, expectedState: s.state, expectedNonce: s.nonce }, {}, { DPoP: oidc.getDPoPHandle(config, k) });
    expect([tokens.token_type, decodeJwt(tokens.access_token).cnf]).toEqual(["dpop", { jkt: await thumbprint(k) }]);
  });

  it("binds the code to the authorization request's dpop_jkt (RFC 9449 section 10)", async () => {
    const { login, start } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();
    const config = await rp("app");
    const k = await keyPair();
    const codeFor = async (dpopJkt: string) => {
      const s = await start(config, { dpop_jkt: dpopJkt });
      const b = new BrowserSession(server.url);
      return { s, back: await login(b, await b.get(s.url.href)) };
    };
    const redeem = (c: Awaited<ReturnType<typeof codeFor>>, dpop?: oidc.DPoPHandle) =>
      oidc.authorizationCodeGrant(config, new URL(c.back.location), { pkceCodeVerifier: c.s.verifier, expectedState: c.s.state, expectedNonce: c.s.nonce }, {}, dpop ? { DPoP: dpop } : {});
    const other = await failure(redeem(await codeFor(await thumbprint(k)), oidc.getDPoPHandle(config, await keyPair())));
    expect([other.error, other.status]).toEqual(["invalid_grant", 400]);
    const none = await failure(redeem(await codeFor(await thumbprint(k))));
    expect(none.error).toBe("invalid_grant");
    const ok = await redeem(await codeFor(await thumbprint(k)), oidc.getDPoPHandle(config, k));
    expect(decodeJwt(ok.access_token).cnf).toEqual({ jkt: await thumbprint(k) });
    // A malformed thumbprint is refused at the authorization endpoint, back at the client.
    const bad = await start(config, { dpop_jkt: "short" });
    const refused = await new BrowserSession(server.url).get(bad.url.href);
    expect(refused.status).toBe(302);
    expect(new URL(refused.location).searchParams.get("error")).toBe("invalid_request");
  });

  it("binds the code to the key of a proof sent with the pushed request (RFC 9449 section 10.1)", async () => {
    const { login } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();
    const config = await rp("app");
    const k = await keyPair();
    const jkt = await thumbprint(k);
    const pushed = async () => {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      // openid-client sends the DPoP header with the pushed request, as the RFC's section 10.1 has it.
      const url = await oidc.buildAuthorizationUrlWithPAR(config, {
        redirect_uri: CB, scope: "openid", state, nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
      }, { DPoP: oidc.getDPoPHandle(config, k) });
      const b = new BrowserSession(server.url);
      const back = await login(b, await b.get(url.href));
      return (dpop?: oidc.DPoPHandle) => oidc.authorizationCodeGrant(config, new URL(back.location), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce }, {}, dpop ? { DPoP: dpop } : {});
    };
    const other = await failure((await pushed())(oidc.getDPoPHandle(config, await keyPair())));
    expect([other.error, other.status]).toEqual(["invalid_grant", 400]);
    const ok = await (await pushed())(oidc.getDPoPHandle(config, k));
    expect([ok.token_type, decodeJwt(ok.access_token).cnf]).toEqual(["dpop", { jkt }]);

    // Both the header and dpop_jkt: they must name the same key.
    const parUrl = `${issuer()}/protocol/openid-connect/ext/par/request`;
    const form = { client_id: "app", response_type: "code", redirect_uri: CB, scope: "openid", code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256" };
    const mismatch = await http("POST", parUrl, { form: { ...form, dpop_jkt: await thumbprint(await keyPair()) }, headers: { DPoP: await proof(k, "POST", parUrl) } });
    expect([mismatch.status, mismatch.body]).toEqual([400, { error: "invalid_dpop_proof", error_description: "dpop_jkt does not name the DPoP proof's key" }]);
    const same = await http("POST", parUrl, { form: { ...form, dpop_jkt: jkt }, headers: { DPoP: await proof(k, "POST", parUrl) } });
    expect(same.status).toBe(201);
    // A proof made for the token endpoint is not one for the pushed request.
    const wrongHtu = await http("POST", parUrl, { form, headers: { DPoP: await proof(k, "POST", tokenUrl()) } });
    expect([wrongHtu.status, wrongHtu.body.error]).toEqual([400, "invalid_dpop_proof"]);
  });

  it("answers userinfo for a bound token with its proof, and refuses it without, as Bearer, and with another key's proof", async () => {
    const config = await rp("app");
    const k = await keyPair();
    const dpop = oidc.getDPoPHandle(config, k);
    const tokens = await passwordGrant(config, dpop);
    const sub = tokens.claims()!.sub;
    expect((await oidc.fetchUserInfo(config, tokens.access_token, sub, { DPoP: dpop })).preferred_username).toBe("alice");

    const asBearer = await http("GET", userinfoUrl(), { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect([asBearer.status, asBearer.body.error]).toEqual([401, "invalid_token"]);
    expect(asBearer.headers.get("www-authenticate")).toMatch(/^DPoP algs="ES256 RS256 PS256 EdDSA", error="invalid_token"/);

    const noProof = await http("GET", userinfoUrl(), { headers: { Authorization: `DPoP ${tokens.access_token}` } });
    expect([noProof.status, noProof.body]).toEqual([401, { error: "invalid_dpop_proof", error_description: "a DPoP proof is required" }]);
    expect(noProof.headers.get("www-authenticate")).toMatch(/^DPoP .*error="invalid_dpop_proof"/);

    const other = await keyPair();
    const otherProof = await proof(other, "GET", userinfoUrl(), { ath: ath(tokens.access_token) });
    const wrongKey = await http("GET", userinfoUrl(), { headers: { Authorization: `DPoP ${tokens.access_token}`, DPoP: otherProof } });
    expect([wrongKey.status, wrongKey.body]).toEqual([401, { error: "invalid_dpop_proof", error_description: "the proof's key is not the one the access token is bound to" }]);

    const noAth = await http("GET", userinfoUrl(), { headers: { Authorization: `DPoP ${tokens.access_token}`, DPoP: await proof(k, "GET", userinfoUrl()) } });
    expect([noAth.status, noAth.body.error_description]).toEqual([401, "the proof's ath does not match the access token"]);

    // POST with the token's own proof (htm POST) works too.
    const posted = await http("POST", userinfoUrl(), { form: {}, headers: { Authorization: `DPoP ${tokens.access_token}`, DPoP: await proof(k, "POST", userinfoUrl(), { ath: ath(tokens.access_token) }) } });
    expect([posted.status, posted.body.sub]).toEqual([200, sub]);

    // An unbound token is refused with the DPoP scheme.
    const plain = await passwordGrant(config);
    const unbound = await http("GET", userinfoUrl(), { headers: { Authorization: `DPoP ${plain.access_token}`, DPoP: await proof(k, "GET", userinfoUrl(), { ath: ath(plain.access_token) }) } });
    expect([unbound.status, unbound.body.error]).toEqual([401, "invalid_token"]);
  });

  it("answers a proof without the required nonce with use_dpop_nonce and a DPoP-Nonce, then accepts the retry", async () => {
    const log: Exchange[] = [];
    const config = await rp("nonce-app", log);
    const k = await keyPair();
    const tokens = await passwordGrant(config, oidc.getDPoPHandle(config, k));
    expect(tokens.token_type).toBe("dpop");
    const [first, retry] = log.filter((x) => x.url === tokenUrl());
    expect([first!.status, first!.json.error]).toEqual([400, "use_dpop_nonce"]);
    const nonce = first!.headers.get("dpop-nonce")!;
    expect(nonce).toMatch(/^\d+\.[A-Za-z0-9_-]{22}$/);
    expect(decodeJwt(retry!.dpop).nonce).toBe(nonce);
    expect([retry!.status, retry!.headers.get("dpop-nonce")]).toEqual([200, nonce]);

    // At userinfo: 401 with the DPoP challenge naming use_dpop_nonce, then the proof with the nonce.
    const bare = await http("GET", userinfoUrl(), { headers: { Authorization: `DPoP ${tokens.access_token}`, DPoP: await proof(k, "GET", userinfoUrl(), { ath: ath(tokens.access_token) }) } });
    expect([bare.status, bare.body.error, bare.headers.get("dpop-nonce")]).toEqual([401, "use_dpop_nonce", nonce]);
    expect(bare.headers.get("www-authenticate")).toMatch(/^DPoP .*error="use_dpop_nonce"/);
    const withNonce = await http("GET", userinfoUrl(), { headers: { Authorization: `DPoP ${tokens.access_token}`, DPoP: await proof(k, "GET", userinfoUrl(), { ath: ath(tokens.access_token), nonce }) } });
    expect(withNonce.status).toBe(200);
    // openid-client retries on its own with the nonce a fresh handle does not know yet.
    const fresh = await rp("nonce-app");
    expect((await oidc.fetchUserInfo(fresh, tokens.access_token, oidc.skipSubjectCheck, { DPoP: oidc.getDPoPHandle(fresh, k) })).sub).toBe(tokens.claims()!.sub);
    // The nonce request is part of the flow, not a failed login: the LOGIN event, and no LOGIN_ERROR
    // (the outbox delivers them in order, so the error would be there by the time the LOGIN is).
    const events = (type: string) => async () => (await api.get(`/admin/realms/${realm}/events?type=${type}&clientId=nonce-app`)).body as unknown[];
    expect(await eventually(events("LOGIN"), (got) => got.length > 0)).toHaveLength(1);
    expect(await events("LOGIN_ERROR")()).toEqual([]);
  });

  it("refuses an admin write of a non-boolean setting, naming the field", async () => {
    const res = await api.put(`/admin/realms/${realm}/clients/app`, { dpopBoundAccessTokens: "yes" });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("dpopBoundAccessTokens");
  });

  it("documents every response", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
