import { pageRequestRealm } from "./page-request-errors.js";
import { oauthEndpointRealm } from "../oidc/oauth-endpoint-errors.js";

/** Which failures are answered as a hosted page, and which in the OAuth endpoints' format. */
describe("pageRequestRealm", () => {
  it.each([
    ["POST", "/realms/acme/protocol/openid-connect/auth", "acme"],
    ["POST", "/realms/acme/device", "acme"],
    ["POST", "/realms/acme/login-actions/registration", "acme"],
    ["POST", "/realms/acme/login-actions/verify-email", "acme"],
    ["POST", "/realms/acme/protocol/saml", "acme"],
    ["GET", "/realms/acme/protocol/openid-connect/logout", "acme"],
    ["GET", "/realms/a%3Bb/device", "a;b"],
    ["GET", "/realms/%E0%A4%A/device", ""],
  ])("%s %s is a page of realm %j", (method, path, realm) => {
    expect(pageRequestRealm(method, path)).toBe(realm);
    expect(oauthEndpointRealm(method, path)).toBeUndefined();
  });

  it.each([
    ["POST", "/realms/acme/protocol/openid-connect/logout"],
    ["POST", "/realms/acme/protocol/openid-connect/token"],
    ["POST", "/realms/acme/protocol/openid-connect/auth/device"],
    ["GET", "/realms/acme/protocol/openid-connect/userinfo"],
    ["POST", "/admin/realms/acme/users"],
    ["GET", "/realms/acme/.well-known/openid-configuration"],
    ["GET", "/realms/acme/device/x"],
    // Exact, as the router routes them (DESIGN 7): another case or a trailing slash is no route.
    ["GET", "/realms/acme/protocol/openid-connect/auth/"],
    ["POST", "/realms/acme/Protocol/OpenID-Connect/AUTH"],
  ])("%s %s is not a page", (method, path) => {
    expect(pageRequestRealm(method, path)).toBeUndefined();
  });
});
