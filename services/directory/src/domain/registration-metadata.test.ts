import { IamError } from "../../../kit/src/errors.js";
import { asRegistrationError, readRegistration, type RegistrationRules } from "./registration-metadata.js";

const open: RegistrationRules = { allowedRedirectUriHosts: [], allowedGrantTypes: ["authorization_code", "refresh_token", "client_credentials"] };

function refusal(m: Record<string, unknown>, rules = open): [string | undefined, string] {
  try {
    readRegistration(m, rules);
  } catch (e) {
    if (e instanceof IamError) return [e.oauthError, e.message];
    throw e;
  }
  throw new Error("accepted");
}

describe("client metadata (RFC 7591 section 2)", () => {
  it("applies the defaults: client_secret_basic, authorization_code with code", () => {
    const r = readRegistration({ redirect_uris: ["https://app.example.test/cb"], unknown_member: 1 }, open);
    expect(r.client).toEqual({
      name: "", clientType: "CONFIDENTIAL", redirectUris: ["https://app.example.test/cb"], grantTypes: ["authorization_code"],
      tokenEndpointAuthMethod: "client_secret_basic",
    });
    expect(r.extra).toEqual({ response_types: ["code"] });
  });

  it("maps none to a public client and keeps the metadata Tessera has no field for", () => {
    const r = readRegistration({
      redirect_uris: ["http://127.0.0.1:8000/cb"], token_endpoint_auth_method: "none", client_name: "CLI", contacts: ["a@example.test"],
      tos_uri: "https://example.test/tos", scope: "openid profile", application_type: "native", software_id: "cli",
    }, open);
    expect(r.client.clientType).toBe("PUBLIC");
    expect(r.extra).toEqual({
      response_types: ["code"], contacts: ["a@example.test"], tos_uri: "https://example.test/tos", scope: "openid profile",
      application_type: "native", software_id: "cli",
    });
  });

  it("refuses what RFC 7591 section 3.2.2 names, saying which member", () => {
    expect(refusal({ grant_types: ["client_credentials"], token_endpoint_auth_method: "none" }))
      .toEqual(["invalid_client_metadata", 'grant_types: client_credentials needs a client that authenticates; token_endpoint_auth_method must not be "none"']);
    expect(refusal({ grant_types: ["client_credentials"], response_types: ["code"] }))
      .toEqual(["invalid_client_metadata", "response_types and grant_types disagree: response type code goes with grant type authorization_code (RFC 7591 section 2.1)"]);
    expect(refusal({ redirect_uris: "https://a.example.test/cb" })).toEqual(["invalid_client_metadata", "redirect_uris must be an array of strings"]);
    expect(refusal({ redirect_uris: ["https://a.example.test/*"] })).toEqual(["invalid_redirect_uri", "redirect_uris[0] must not contain wildcards; redirect URIs match exactly"]);
    expect(refusal({ grant_types: ["client_credentials"], logo_uri: "javascript:alert(1)" }))
      .toEqual(["invalid_client_metadata", "logo_uri must be an http or https URL without credentials, at most 2048 characters"]);
    expect(refusal({ grant_types: ["client_credentials"], scope: "a  b" })).toEqual(["invalid_client_metadata", "scope must be space-separated scope tokens (RFC 6749 section 3.3)"]);
    expect(refusal({ grant_types: ["password"] })).toEqual(["invalid_client_metadata", "grant_types: password is not allowed by the realm's registration policy"]);
  });

  it("checks post-logout redirect URIs against the policy's hosts too, case-insensitively", () => {
    const rules = { ...open, allowedRedirectUriHosts: ["app.example.test"] };
    expect(readRegistration({ redirect_uris: ["https://APP.example.test/cb"] }, rules).client.redirectUris).toEqual(["https://APP.example.test/cb"]);
    expect(refusal({ redirect_uris: ["https://app.example.test/cb"], post_logout_redirect_uris: ["https://other.example.test/"] }, rules))
      .toEqual(["invalid_redirect_uri", "post_logout_redirect_uris[0]: host other.example.test is not allowed by the realm's registration policy"]);
  });

  it("renames the Admin API's members in refusals of the client administration", () => {
    const e = asRegistrationError(IamError.invalid("jwksUri", "jwksUri must be an https URL without fragment or credentials")) as IamError;
    expect([e.oauthError, e.message]).toEqual(["invalid_client_metadata", "jwks_uri must be an https URL without fragment or credentials"]);
    const r = asRegistrationError(IamError.invalid("redirectUris[1]", "redirectUris[1] must be an absolute URI")) as IamError;
    expect([r.oauthError, r.message]).toEqual(["invalid_redirect_uri", "redirect_uris[1] must be an absolute URI"]);
    const other = IamError.conflict("exists");
    expect(asRegistrationError(other)).toBe(other);
  });
});
