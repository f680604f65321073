import { SIGNING_ALGS } from "./signing-alg.js";
import { DPOP_SIGNING_ALGS } from "./dpop-binding.js";
import { CLIENT_SECRET_JWT_ALGS, PRIVATE_KEY_JWT_ALGS } from "./client-assertion.js";

/** The five grant types of spec 1.2, and token exchange (RFC 8693). */
export const GRANT_TYPES = [
  "authorization_code", "client_credentials", "password", "refresh_token",
  "urn:ietf:params:oauth:grant-type:device_code", "urn:ietf:params:oauth:grant-type:token-exchange",
] as const;

/** The signature algorithms request objects may use (RFC 9101), besides "none" where the client allows it. */
export const REQUEST_OBJECT_ALGS = ["RS256", "PS256", "ES256", "EdDSA"] as const;

const CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none"];
/** What client assertions may be signed with (client-assertion.ts): private_key_jwt's, then client_secret_jwt's. */
const CLIENT_AUTH_SIGNING_ALGS = [...PRIVATE_KEY_JWT_ALGS, ...CLIENT_SECRET_JWT_ALGS];
/**
 * RFC 7662 section 2.1 requires authorization at the introspection endpoint, and a public client
 * proves nothing (section 4: token scanning), so "none" is not offered there. Revocation keeps it:
 * RFC 7009 section 2.1 lets public clients revoke their own tokens.
 */
const INTROSPECTION_AUTH_METHODS = CLIENT_AUTH_METHODS.filter((m) => m !== "none");

/** The issuer identifier (OIDC Discovery 1.0 section 3, spec 4.17): `{base_url}/realms/{realm}`. */
export function issuerOf(baseUrl: string, realmName: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/realms/${encodeURIComponent(realmName)}`;
}

/**
 * OpenID Provider Metadata (OIDC Discovery 1.0 section 3; RFC 8414 section 2 for the OAuth members).
 * Only what the provider does is advertised: the `query`, `fragment` and `form_post` response modes,
 * S256 PKCE (RFC 7636 section 4.2; `plain` is refused, DESIGN 5), request objects by value (RFC 9101,
 * signed with the client's keys or, where the client allows it, unsigned), no request_uri other than
 * PAR's nor claims parameter (each said false: Discovery's default for request_uri_parameter_supported
 * is true).
 * Every algorithm a realm may sign with is listed, not only the realm's current one: a realm
 * switches algorithm by rotation (spec 4.17) while its older tokens are still in use, and RPs such
 * as openid-client accept an ID token whose alg this list names. `scopesSupported` is the realm's
 * (DiscoveryScopes: openid and its OpenID Connect client scopes).
 */
export function discoveryDocument(
  baseUrl: string, realmName: string, scopesSupported: readonly string[], options: { requirePushedAuthorizationRequests?: boolean; uiLocalesSupported?: readonly string[] } = {},
): Record<string, unknown> {
  const issuer = issuerOf(baseUrl, realmName);
  const oidc = `${issuer}/protocol/openid-connect`;
  return {
    issuer,
    authorization_endpoint: `${oidc}/auth`,
    token_endpoint: `${oidc}/token`,
    introspection_endpoint: `${oidc}/token/introspect`,
    userinfo_endpoint: `${oidc}/userinfo`,
    end_session_endpoint: `${oidc}/logout`,
    jwks_uri: `${oidc}/certs`,
    revocation_endpoint: `${oidc}/revoke`,
    device_authorization_endpoint: `${oidc}/auth/device`,
    // RFC 7591 section 3 (RFC 8414 section 2); the path is Keycloak's.
    registration_endpoint: `${issuer}/clients-registrations/openid-connect`,
    // RFC 9126 section 5; the path is Keycloak's. The realm's requirement (a client's own is not
    // advertised here: RFC 9126 section 6 puts it in the client's metadata).
    pushed_authorization_request_endpoint: `${oidc}/ext/par/request`,
    require_pushed_authorization_requests: options.requirePushedAuthorizationRequests === true,
    grant_types_supported: [...GRANT_TYPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query", "fragment", "form_post"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [...SIGNING_ALGS],
    scopes_supported: [...scopesSupported],
    // The ID token's own claims and those the built-in scopes' mappers emit (builtin-scopes.ts).
    claims_supported: [
      "iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "acr", "amr", "azp", "sid", "at_hash",
      "name", "given_name", "family_name", "middle_name", "nickname", "preferred_username", "profile",
      "picture", "website", "gender", "birthdate", "zoneinfo", "locale", "updated_at",
      "email", "email_verified", "address", "phone_number", "phone_number_verified",
    ],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    introspection_endpoint_auth_methods_supported: [...INTROSPECTION_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    // RFC 8414 section 2: the algorithms of private_key_jwt and client_secret_jwt assertions.
    token_endpoint_auth_signing_alg_values_supported: [...CLIENT_AUTH_SIGNING_ALGS],
    introspection_endpoint_auth_signing_alg_values_supported: [...CLIENT_AUTH_SIGNING_ALGS],
    revocation_endpoint_auth_signing_alg_values_supported: [...CLIENT_AUTH_SIGNING_ALGS],
    // OIDC Back-Channel Logout 1.0 section 2.1; no front-channel logout.
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    frontchannel_logout_supported: false,
    request_parameter_supported: true,
    request_object_signing_alg_values_supported: ["none", ...REQUEST_OBJECT_ALGS],
    request_uri_parameter_supported: false,
    claims_parameter_supported: false,
    // RFC 9207 section 3: the authorization response carries `iss`.
    authorization_response_iss_parameter_supported: true,
    // RFC 9449 section 5.1: DPoP proofs are checked at the token and userinfo endpoints.
    dpop_signing_alg_values_supported: [...DPOP_SIGNING_ALGS],
    // OIDC Discovery 1.0 section 3: the languages of the pages, only when the realm offers a choice
    // (Keycloak lists its supported locales once internationalization is enabled).
    ...(options.uiLocalesSupported?.length ? { ui_locales_supported: [...options.uiLocalesSupported] } : {}),
  };
}
