import { generateKeyPair, exportJWK } from "jose";
import Provider from "oidc-provider";

/**
 * panva's oidc-provider configured for the same client_credentials scenario and algorithm
 * (issue 4: side-by-side baseline). Run: node oidc-provider-server.js <port> <RS256|ES256>
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
  features: {
    clientCredentials: { enabled: true },
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
provider.listen(port, () => process.stdout.write(`ready ${port}\n`));
