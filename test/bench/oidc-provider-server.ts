import { createServer } from "node:http";
import { generateKeyPair, exportJWK } from "jose";
import Provider from "oidc-provider";

/**
 * panva's oidc-provider configured for the same scenarios and algorithm (docs/performance.md: side-by-side
 * baseline): client_credentials, and the public endpoints (discovery, JWK Set, introspection,
 * userinfo). Run: node oidc-provider-server.js <port> <RS256|ES256>
 *
 * GET /bench/user-token answers an opaque access token of the user `bench-user` for the scopes
 * `openid profile email`, minted through the provider's own models (Grant, AccessToken), for the
 * userinfo and introspection rows: oidc-provider has no password grant, and a browser login
 * would not change what those endpoints do with the token.
 */
const port = Number(process.argv[2] ?? 0);
const alg = process.argv[3] === "ES256" ? "ES256" : "RS256";
const { privateKey } = await generateKeyPair(alg, { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: "op", alg, use: "sig" };

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [{
    client_id: "bench-client", client_secret: "bench-secret-bench-secret-bench-secret",
    grant_types: ["client_credentials"], response_types: [], redirect_uris: [],
    token_endpoint_auth_method: "client_secret_basic",
    id_token_signed_response_alg: alg,
  }],
  jwks: { keys: [jwk] },
  findAccount: (_ctx, sub) => ({
    accountId: sub,
    claims: () => ({ sub, email: "bench@example.test", email_verified: false, preferred_username: "bench-user" }),
  }),
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["preferred_username"] },
  features: {
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    devInteractions: { enabled: false },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => "urn:bench:api",
      getResourceServerInfo: () => ({ scope: "profile email", audience: "account", accessTokenFormat: "jwt", jwt: { sign: { alg } } }),
      useGrantedResource: () => true,
    },
  },
  enabledJWA: { authorizationSigningAlgValues: [alg], idTokenSigningAlgValues: [alg] },
});

async function userToken(): Promise<string> {
  const client = await provider.Client.find("bench-client");
  if (!client) throw new Error("bench-client is not configured");
  const grant = new provider.Grant({ accountId: "bench-user", clientId: "bench-client" });
  grant.addOIDCScope("openid profile email");
  const grantId = await grant.save();
  const token = new provider.AccessToken({ accountId: "bench-user", client, grantId, scope: "openid profile email", gty: "authorization_code" });
  return token.save();
}

const callback = provider.callback();
createServer((req, res) => {
  if (req.url === "/bench/user-token") {
    userToken().then((t) => res.writeHead(200, { "content-type": "text/plain" }).end(t), (e: unknown) => res.writeHead(500).end(String(e)));
    return;
  }
  callback(req, res);
}).listen(port, () => process.stdout.write(`ready ${port}\n`));
