import { discoveryDocument, issuerOf } from "./discovery.js";

describe("discovery document", () => {
  it("builds every endpoint under the issuer, {base_url}/realms/{realm}", () => {
    expect(issuerOf("https://id.example.test/", "acme")).toBe("https://id.example.test/realms/acme");
    const doc = discoveryDocument("https://id.example.test", "acme", ["openid", "dept"]);
    const base = "https://id.example.test/realms/acme/protocol/openid-connect";
    expect(doc).toMatchObject({
      issuer: "https://id.example.test/realms/acme",
      authorization_endpoint: `${base}/auth`,
      token_endpoint: `${base}/token`,
      jwks_uri: `${base}/certs`,
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["openid", "dept"],
    });
  });

  it("offers no \"none\" auth at introspection (RFC 7662 section 2.1) but keeps it for token and revocation (RFC 7009 section 2.1)", () => {
    const doc = discoveryDocument("https://id.example.test", "acme", ["openid"]);
    expect(doc.introspection_endpoint_auth_methods_supported).toEqual(["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt"]);
    expect(doc.revocation_endpoint_auth_methods_supported).toEqual(["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none"]);
    expect(doc.token_endpoint_auth_signing_alg_values_supported).toEqual(["RS256", "PS256", "ES256", "EdDSA", "HS256"]);
    expect(doc.token_endpoint_auth_methods_supported).toEqual(["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none"]);
  });
});
