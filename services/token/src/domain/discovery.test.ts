import { discoveryDocument, issuerOf } from "./discovery.js";

describe("discovery document", () => {
  it("builds every endpoint under the issuer, {base_url}/realms/{realm}", () => {
    expect(issuerOf("https://id.example.test/", "acme")).toBe("https://id.example.test/realms/acme");
    const doc = discoveryDocument("https://id.example.test", "acme");
    const base = "https://id.example.test/realms/acme/protocol/openid-connect";
    expect(doc).toMatchObject({
      issuer: "https://id.example.test/realms/acme",
      authorization_endpoint: `${base}/auth`,
      token_endpoint: `${base}/token`,
      jwks_uri: `${base}/certs`,
      code_challenge_methods_supported: ["S256"],
    });
  });
});
