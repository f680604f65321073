import { exportJWK, generateKeyPair } from "jose";
import { adminApi, uniqueName } from "../../e2e/support/http.js";
import type { TestServer } from "../../e2e/support/embedded-server.js";

/**
 * The realm an interop relying party drives, provisioned through the Admin API (spec 4.1-4.3) as an
 * operator moving a Keycloak app would: a confidential web client (code flow, refresh,
 * client_credentials), a confidential client that authenticates with private_key_jwt (RFC 7523
 * section 2.2; its ES256 public key registered by value, the private JWK handed to the program), a
 * public device client (RFC 8628: a TV has no secret to keep) and one user.
 * The realm's token lifespans stay at their defaults (300 s access tokens), which the programs assert.
 */
export interface InteropRealm {
  /** What the Go and Python programs read, by name (test/interop/go/settings_test.go, python/test_authlib.py). */
  env: Record<string, string>;
}

/** Nothing listens here: the programs read the code from the redirect's Location and never follow it. */
const REDIRECT_URI = "http://localhost:3995/interop/cb";

export async function provisionInteropRealm(server: TestServer, prefix: string): Promise<InteropRealm> {
  const api = adminApi(server.url, server.apiKey);
  const realm = uniqueName(prefix);
  const username = "alice";
  const email = "alice@example.com";
  const password = "Interop-Horse-7";
  expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
  const web = await api.post(`/admin/realms/${realm}/clients`, {
    clientId: "web", clientType: "CONFIDENTIAL", redirectUris: [REDIRECT_URI],
    grantTypes: ["authorization_code", "refresh_token", "client_credentials"],
  });
  expect(web.status).toBe(201);
  expect(web.body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // A key made for this run: nothing private is kept in the tree.
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = "interop-es256";
  const signer = await api.post(`/admin/realms/${realm}/clients`, {
    clientId: "signer", clientType: "CONFIDENTIAL", redirectUris: [REDIRECT_URI],
    grantTypes: ["authorization_code", "client_credentials"], tokenEndpointAuthMethod: "private_key_jwt",
    jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, use: "sig", alg: "ES256" }] },
  });
  expect([signer.status, signer.body.tokenEndpointAuthMethod]).toEqual([201, "private_key_jwt"]);
  expect((await api.post(`/admin/realms/${realm}/clients`, {
    clientId: "tv", clientType: "PUBLIC", grantTypes: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"],
  })).status).toBe(201);
  // The programs assert these names in the ID token and userinfo (name, given_name, family_name).
  const user = await api.post(`/admin/realms/${realm}/users`, { username, email, firstName: "Alice", lastName: "Liddell", password });
  expect(user.status).toBe(201);
  return {
    env: {
      TESSERA_INTEROP_ISSUER: `${server.url}/realms/${realm}`,
      TESSERA_INTEROP_CLIENT_ID: "web",
      TESSERA_INTEROP_CLIENT_SECRET: web.body.secret,
      TESSERA_INTEROP_REDIRECT_URI: REDIRECT_URI,
      TESSERA_INTEROP_JWT_CLIENT_ID: "signer",
      TESSERA_INTEROP_JWT_PRIVATE_JWK: JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: "ES256" }),
      TESSERA_INTEROP_DEVICE_CLIENT_ID: "tv",
      TESSERA_INTEROP_USERNAME: username,
      TESSERA_INTEROP_PASSWORD: password,
      TESSERA_INTEROP_USER_ID: user.body.id,
      TESSERA_INTEROP_EMAIL: email,
    },
  };
}
