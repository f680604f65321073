import { exportJWK, generateKeyPair, SignJWT } from "jose";
import type { ClientInfo } from "../domain/client-directory.js";
import { objectParams, readRequestObject } from "./request-object.js";

const ISSUER = "https://id.example.test/realms/acme";
const NOW = 1_700_000_000_000;

function clientWith(extra: Partial<ClientInfo>): ClientInfo {
  return {
    id: "c1", clientId: "app", name: "", clientType: "PUBLIC", enabled: true, redirectUris: ["https://app.example/cb"], webOrigins: [],
    grantTypes: [], requireConsent: false, backchannelLogoutUri: "", backchannelLogoutSessionRequired: false, scopeNames: [], scopes: [],
    tokenEndpointAuthMethod: "none", jwksUri: "", jwks: { keys: [] }, requestObjectSignatureAlg: "", requirePushedAuthorizationRequests: false, dpopBoundAccessTokens: false, dpopNonceRequired: false, standardTokenExchangeEnabled: false,
    idTokenSignedResponseAlg: "", accessTokenSignedResponseAlg: "", clientProfile: "", introspectionClaimsDiffer: false, ...extra,
  };
}

const unsigned = (payload: object) =>
  `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.`;

describe("readRequestObject (RFC 9101)", () => {
  it.each([["RS256", "RS256"], ["PS256", "PS256"], ["ES256", "ES256"], ["EdDSA", "Ed25519"]] as const)(
    "verifies an object signed with %s by a registered key, its parameters over the query's", async (alg, keyAlg) => {
      const pair = await generateKeyPair(keyAlg, { extractable: true });
      const client = clientWith({ jwks: { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1" }] } });
      const jwt = await new SignJWT({ client_id: "app", state: "s-obj", max_age: 30, claims: { id_token: { acr: null } } })
        .setProtectedHeader({ alg, kid: "k1" }).setIssuer("app").setAudience(ISSUER).setExpirationTime(NOW / 1000 + 60).sign(pair.privateKey);
      const out = await readRequestObject({ client_id: "app", state: "s-query", request: jwt }, client, ISSUER, NOW);
      expect(out).toEqual({ params: { client_id: "app", state: "s-obj", max_age: "30", claims: "{\"id_token\":{\"acr\":null}}" } });
    });

  it("holds the client to its one algorithm, and refuses signed objects where it asked for unsigned", async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    const jwks = { keys: [await exportJWK(pair.publicKey)] };
    const jwt = await new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setIssuer("app").setAudience(ISSUER).sign(pair.privateKey);
    const only = await readRequestObject({ client_id: "app", request: jwt }, clientWith({ jwks, requestObjectSignatureAlg: "PS256" }), ISSUER, NOW);
    expect(only.error).toEqual({ error: "invalid_request_object", description: "The request object's algorithm must be one of PS256." });
    const none = await readRequestObject({ client_id: "app", request: jwt }, clientWith({ jwks, requestObjectSignatureAlg: "none" }), ISSUER, NOW);
    expect(none.error?.description).toBe("The client accepts only unsigned request objects.");
    const keyless = await readRequestObject({ client_id: "app", request: jwt }, clientWith({}), ISSUER, NOW);
    expect(keyless.error?.description).toBe("The client has no registered keys to verify request objects with.");
  });

  it("requires iss and aud in a signed object", async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    const client = clientWith({ jwks: { keys: [await exportJWK(pair.publicKey)] } });
    const jwt = await new SignJWT({ state: "s" }).setProtectedHeader({ alg: "ES256" }).setAudience(ISSUER).sign(pair.privateKey);
    const out = await readRequestObject({ client_id: "app", request: jwt }, client, ISSUER, NOW);
    expect(out).toEqual({ params: { client_id: "app", state: "s" }, error: { error: "invalid_request_object", description: "The request object's iss claim is not valid." } });
  });

  it("admits unsigned objects only where allowed, checking exp", async () => {
    const obj = unsigned({ state: "s", exp: NOW / 1000 - 1 });
    expect((await readRequestObject({ client_id: "app", request: obj }, clientWith({ requestObjectSignatureAlg: "any" }), ISSUER, NOW)).error?.description)
      .toBe("The request object has expired.");
    const fresh = unsigned({ state: "s" });
    expect(await readRequestObject({ client_id: "app", request: fresh }, clientWith({ requestObjectSignatureAlg: "none" }), ISSUER, NOW))
      .toEqual({ params: { client_id: "app", state: "s" } });
    expect((await readRequestObject({ client_id: "app", request: fresh }, clientWith({}), ISSUER, NOW)).error?.description)
      .toBe("The client does not allow unsigned request objects.");
  });

  it("refuses encrypted objects, non-JWTs, and request with request_uri", async () => {
    const client = clientWith({ requestObjectSignatureAlg: "any" });
    expect((await readRequestObject({ request: "a.b.c.d.e" }, client, ISSUER, NOW)).error?.description).toBe("Encrypted request objects are not supported.");
    expect((await readRequestObject({ request: "nope" }, client, ISSUER, NOW)).error?.description).toBe("The request object is not a JWT.");
    expect((await readRequestObject({ request: unsigned({}), request_uri: "urn:x" }, client, ISSUER, NOW)).error?.error).toBe("invalid_request");
  });

  it("marks an over-long claim as the gateway marks an over-long query parameter, and leaves a marked request to the checks", async () => {
    const client = clientWith({ requestObjectSignatureAlg: "any" });
    expect(await readRequestObject({ client_id: "app", request: unsigned({ state: "s".repeat(4097), nonce: "n" }) }, client, ISSUER, NOW))
      .toEqual({ params: { client_id: "app", state: "\u0000too-long", nonce: "n" } });
    expect(await readRequestObject({ client_id: "app", request: "\u0000too-long" }, client, ISSUER, NOW))
      .toEqual({ params: { client_id: "app", request: "\u0000too-long" } });
  });

  it("never takes the object's envelope claims or a nested request for parameters", () => {
    expect(objectParams({ iss: "a", aud: "b", exp: 1, nbf: 1, iat: 1, jti: "j", sub: "s", request: "x", request_uri: "y", scope: "openid", n: null }))
      .toEqual({ scope: "openid" });
  });
});
