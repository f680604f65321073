import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
import { systemClock } from "../../../kit/src/store/port.js";
import { newProviderRecord } from "../domain/identity-provider.js";
import { UpstreamClient } from "./upstream-client.js";

// The upstream authorization request's login_hint (Keycloak's "Pass login_hint"): sent with the
// hint only when the provider's loginHint is on.
describe("UpstreamClient.authorizationUrl", () => {
  const upstream = new UpstreamClient({ allowLoopback: false }, new SecretBox(generateMasterKey()), systemClock);
  const provider = (loginHint?: boolean) => newProviderRecord({
    alias: "corp", providerType: "oidc", clientId: "tessera", clientSecret: "s", authorizationUrl: "https://idp.example.com/authorize?tenant=t1",
    tokenUrl: "https://idp.example.com/token", issuer: "https://idp.example.com", ...(loginHint === undefined ? {} : { loginHint }),
  }, { id: "p-1", realmId: "r-1", realm: "acme" }, "sealed", 0);
  const request = { state: "st", nonce: "no", challenge: "ch", redirectUri: "https://id.example.com/realms/acme/broker/corp/callback" };
  const query = (href: string) => Object.fromEntries(new URL(href).searchParams);

  it("adds login_hint when the provider passes it and a hint is known", () => {
    expect(query(upstream.authorizationUrl(provider(true), { ...request, loginHint: "ann@acme.test" }))).toEqual({
      tenant: "t1", response_type: "code", client_id: "tessera", redirect_uri: request.redirectUri, scope: "openid profile email",
      state: "st", nonce: "no", code_challenge: "ch", code_challenge_method: "S256", login_hint: "ann@acme.test",
    });
  });

  it("never sends it when the provider's switch is off (Keycloak's default) or no hint is known", () => {
    expect(query(upstream.authorizationUrl(provider(false), { ...request, loginHint: "ann@acme.test" })).login_hint).toBeUndefined();
    expect(query(upstream.authorizationUrl(provider(), { ...request, loginHint: "ann@acme.test" })).login_hint).toBeUndefined();
    expect(query(upstream.authorizationUrl(provider(true), { ...request, loginHint: "" })).login_hint).toBeUndefined();
    expect(query(upstream.authorizationUrl(provider(true), request)).login_hint).toBeUndefined();
  });
});
