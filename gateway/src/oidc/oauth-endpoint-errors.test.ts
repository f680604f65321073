import { Code, ConnectError } from "@connectrpc/connect";
import { oauthEndpointRealm, oauthFailureReply } from "./oauth-endpoint-errors.js";

/** Which requests answer failures in RFC 6749 section 5.2's format, and how. */
describe("oauthEndpointRealm", () => {
  it.each([
    ["POST", "/realms/acme/protocol/openid-connect/token", "acme"],
    ["POST", "/realms/acme%20corp/protocol/openid-connect/token/introspect", "acme corp"],
    ["POST", "/realms/acme/protocol/openid-connect/revoke", "acme"],
    ["POST", "/realms/acme/protocol/openid-connect/auth/device", "acme"],
    ["POST", "/realms/acme/protocol/openid-connect/logout", "acme"],
    ["POST", "/realms/acme/protocol/openid-connect/userinfo", "acme"],
    ["GET", "/realms/acme/protocol/openid-connect/userinfo", "acme"],
    // A realm name express cannot decode: still the token endpoint, named as sent.
    ["POST", "/realms/%E0%A4%A/protocol/openid-connect/token", "%E0%A4%A"],
  ])("%s %s is an OAuth endpoint of realm %s", (method, path, realm) => {
    expect(oauthEndpointRealm(method, path)).toBe(realm);
  });

  it.each([
    ["GET", "/realms/acme/protocol/openid-connect/logout"],
    ["POST", "/realms/acme/protocol/openid-connect/auth"],
    ["POST", "/realms/acme/login-actions/registration"],
    ["POST", "/admin/realms"],
    ["POST", "/realms/acme/protocol/openid-connect/token/x"],
    // Exact, as the router routes them (DESIGN 7): another case or a trailing slash is no route.
    ["POST", "/realms/acme/protocol/openid-connect/TOKEN"],
    ["POST", "/realms/acme/protocol/openid-connect/token/"],
  ])("%s %s is not", (method, path) => {
    expect(oauthEndpointRealm(method, path)).toBeUndefined();
  });
});

describe("oauthFailureReply", () => {
  const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

  it("renders a body-parser failure as 400 invalid_request with its description", () => {
    const tooBig = Object.assign(new Error("request entity too large"), { type: "entity.too.large", status: 413, expose: true });
    expect(oauthFailureReply(tooBig, "acme")).toEqual({
      status: 400, headers: NO_STORE, body: { error: "invalid_request", error_description: "request body is too large" },
    });
  });

  it("renders a path express could not decode as 400 invalid_request", () => {
    const undecodable = Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), { status: 400 });
    expect(oauthFailureReply(undecodable, "%E0%A4%A")).toEqual({
      status: 400, headers: NO_STORE, body: { error: "invalid_request", error_description: "the request path is not valid percent-encoded UTF-8" },
    });
  });

  it("renders any other failure as the endpoint's own errors are rendered", () => {
    expect(oauthFailureReply(new ConnectError("directory is down", Code.Unavailable), "acme")).toEqual({
      status: 503, headers: { ...NO_STORE, "Retry-After": "5" }, body: { error: "temporarily_unavailable", error_description: "directory is down" },
    });
    expect(oauthFailureReply(new Error("boom"), "acme")).toEqual({
      status: 500, headers: NO_STORE, body: { error: "server_error", error_description: "internal error" },
    });
  });
});
