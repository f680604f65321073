import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as oidc from "openid-client";
import { exportJWK, generateKeyPair, type CryptoKey } from "jose";
import { adminApi, recordResponses, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

const recorded = recordResponses();

/** The error openid-client throws for an OAuth error response, as status and body. */
async function refusal(p: Promise<unknown>): Promise<{ status: number; error: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof oidc.ResponseBodyError) return { status: e.status, error: e.error };
    // A 401 with WWW-Authenticate (RFC 6749 section 5.2) surfaces as a challenge; its body is the OAuth error.
    if (e instanceof oidc.WWWAuthenticateChallengeError) return { status: e.status, error: ((await e.response.json()) as { error: string }).error };
    throw e;
  }
  throw new Error("expected a refusal");
}

// JWT client authentication (RFC 7523, OIDC Core 1.0 section 9) with openid-client as the RP:
// private_key_jwt with keys by value and from a jwks_uri (a loopback server here), a replayed jti,
// a wrong audience, client_secret_jwt, and introspection and revocation with private_key_jwt.
describe.each(targets())("JWT client authentication ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let ecKey: CryptoKey;
  let rsaKey: CryptoKey;
  let jwksServer: Server;
  let hsSecret: string;
  const issuer = () => `${server.url}/realms/${realm}`;
  const options = { execute: [oidc.allowInsecureRequests] };
  const rp = (clientId: string, auth: oidc.ClientAuth) => oidc.discovery(new URL(issuer()), clientId, {}, auth, options);

  beforeAll(async () => {
    server = target.mode === "embedded"
      ? await startEmbeddedServer("jwt-auth", { TESSERA_OUTBOUND_ALLOW_LOOPBACK: "true" })
      : await target.start("jwt-auth");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("jwt-auth");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const ec = await generateKeyPair("ES256");
    ecKey = ec.privateKey;
    const rsa = await generateKeyPair("PS256");
    rsaKey = rsa.privateKey;
    const ecJwk = { ...(await exportJWK(ec.publicKey)), kid: "ec-1", use: "sig", alg: "ES256" };
    const rsaJwk = { ...(await exportJWK(rsa.publicKey)), kid: "rsa-1", use: "sig", alg: "PS256" };
    jwksServer = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [rsaJwk] }));
    });
    await new Promise<void>((r) => jwksServer.listen(0, "127.0.0.1", r));
    const jwksUri = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`;

    const byValue = await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "pkj", grantTypes: ["client_credentials"], tokenEndpointAuthMethod: "private_key_jwt", jwks: { keys: [ecJwk] },
    });
    expect(byValue.status).toBe(201);
    expect(byValue.body).toMatchObject({ tokenEndpointAuthMethod: "private_key_jwt", clientAuthenticatorType: "client-jwt", jwks: { keys: [ecJwk] }, jwksUri: "" });
    const byUri = await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "pkj-uri", grantTypes: ["client_credentials"], clientAuthenticatorType: "client-jwt", jwksUri,
    });
    expect(byUri.status).toBe(201);
    expect(byUri.body).toMatchObject({ tokenEndpointAuthMethod: "private_key_jwt", jwksUri });
    const hs = await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "csj", grantTypes: ["client_credentials"], tokenEndpointAuthMethod: "client_secret_jwt",
    });
    expect(hs.status).toBe(201);
    expect(hs.body.clientAuthenticatorType).toBe("client-secret-jwt");
    hsSecret = hs.body.secret;
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    await new Promise((r) => jwksServer?.close(r));
  });

  it("advertises the methods and their algorithms in discovery", async () => {
    const config = await rp("pkj", oidc.None());
    const meta = config.serverMetadata();
    expect(meta.token_endpoint_auth_methods_supported).toEqual(["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none"]);
    expect(meta.token_endpoint_auth_signing_alg_values_supported).toEqual(["RS256", "PS256", "ES256", "EdDSA", "HS256"]);
  });

  it("issues a token to a private_key_jwt client whose keys are registered by value", async () => {
    const tokens = await oidc.clientCredentialsGrant(await rp("pkj", oidc.PrivateKeyJwt({ key: ecKey, kid: "ec-1" })));
    expect(tokens.token_type).toBe("bearer");
    expect(typeof tokens.access_token).toBe("string");
  });

  it("refuses a replayed jti with invalid_client", async () => {
    const jti = `jti-${Date.now()}`;
    const auth = oidc.PrivateKeyJwt({ key: ecKey, kid: "ec-1" }, { [oidc.modifyAssertion]: (_h, payload) => { payload.jti = jti; } });
    const config = await rp("pkj", auth);
    await oidc.clientCredentialsGrant(config);
    expect(await refusal(oidc.clientCredentialsGrant(config))).toEqual({ status: 401, error: "invalid_client" });
  });

  it("refuses an assertion for another audience", async () => {
    const auth = oidc.PrivateKeyJwt({ key: ecKey, kid: "ec-1" }, { [oidc.modifyAssertion]: (_h, payload) => { payload.aud = "https://elsewhere.example/token"; } });
    expect(await refusal(oidc.clientCredentialsGrant(await rp("pkj", auth)))).toEqual({ status: 401, error: "invalid_client" });
  });

  it("accepts the token endpoint URL as the audience", async () => {
    const auth = oidc.PrivateKeyJwt({ key: ecKey, kid: "ec-1" }, { [oidc.modifyAssertion]: (_h, payload) => { payload.aud = `${issuer()}/protocol/openid-connect/token`; } });
    expect((await oidc.clientCredentialsGrant(await rp("pkj", auth))).token_type).toBe("bearer");
  });

  it("bounds an assertion's life by ten minutes from its iat, or by its exp without one", async () => {
    const now = () => Math.floor(Date.now() / 1000);
    const modified = (change: (p: Record<string, unknown>) => void) =>
      oidc.PrivateKeyJwt({ key: ecKey, kid: "ec-1" }, { [oidc.modifyAssertion]: (_h, payload) => change(payload as Record<string, unknown>) });
    // authlib's default: exp an hour after a fresh iat.
    const hour = await oidc.clientCredentialsGrant(await rp("pkj", modified((p) => { p.iat = now(); p.exp = now() + 3600; })));
    expect(hour.token_type).toBe("bearer");
    const stale = modified((p) => { p.iat = now() - 601; p.exp = now() + 3600; });
    expect(await refusal(oidc.clientCredentialsGrant(await rp("pkj", stale)))).toEqual({ status: 401, error: "invalid_client" });
    const noIat = modified((p) => { delete p.iat; p.exp = now() + 3600; });
    expect(await refusal(oidc.clientCredentialsGrant(await rp("pkj", noIat)))).toEqual({ status: 401, error: "invalid_client" });
    const shortNoIat = modified((p) => { delete p.iat; p.exp = now() + 300; });
    expect((await oidc.clientCredentialsGrant(await rp("pkj", shortNoIat))).token_type).toBe("bearer");
  });

  it("refuses an assertion signed by a key the client did not register", async () => {
    const stranger = await generateKeyPair("ES256");
    const auth = oidc.PrivateKeyJwt({ key: stranger.privateKey, kid: "ec-1" });
    expect(await refusal(oidc.clientCredentialsGrant(await rp("pkj", auth)))).toEqual({ status: 401, error: "invalid_client" });
  });

  it("verifies with keys fetched from the client's jwks_uri", async () => {
    const tokens = await oidc.clientCredentialsGrant(await rp("pkj-uri", oidc.PrivateKeyJwt({ key: rsaKey, kid: "rsa-1" })));
    expect(tokens.token_type).toBe("bearer");
  });

  it("authenticates a client_secret_jwt client, which may not send its secret instead", async () => {
    expect((await oidc.clientCredentialsGrant(await rp("csj", oidc.ClientSecretJwt(hsSecret)))).token_type).toBe("bearer");
    expect(await refusal(oidc.clientCredentialsGrant(await rp("csj", oidc.ClientSecretBasic(hsSecret))))).toEqual({ status: 401, error: "invalid_client" });
    // Nor may a private_key_jwt client use client_secret_jwt.
    expect(await refusal(oidc.clientCredentialsGrant(await rp("pkj", oidc.ClientSecretJwt(hsSecret))))).toEqual({ status: 401, error: "invalid_client" });
  });

  it("introspects and revokes with private_key_jwt", async () => {
    const config = await rp("pkj", oidc.PrivateKeyJwt({ key: ecKey, kid: "ec-1" }));
    const { access_token } = await oidc.clientCredentialsGrant(config);
    expect(await oidc.tokenIntrospection(config, access_token)).toMatchObject({ active: true, client_id: "pkj" });
    await oidc.tokenRevocation(config, access_token);
    expect(await oidc.tokenIntrospection(config, access_token)).toEqual({ active: false });
  });

  it("refuses private_key_jwt without keys, and a PUBLIC client with a JWT method (400)", async () => {
    const noKeys = await api.post(`/admin/realms/${realm}/clients`, { clientId: "nokeys", tokenEndpointAuthMethod: "private_key_jwt" });
    expect(noKeys.status).toBe(400);
    expect(noKeys.body).toMatchObject({ field: "jwks" });
    const pub = await api.post(`/admin/realms/${realm}/clients`, { clientId: "pub", clientType: "PUBLIC", tokenEndpointAuthMethod: "client_secret_jwt" });
    expect(pub.status).toBe(400);
    expect(pub.body).toMatchObject({ field: "tokenEndpointAuthMethod" });
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
