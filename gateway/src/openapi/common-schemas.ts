import type { JsonSchema } from "./proto-schema.js";

/** Schemas written by hand: bodies the gateway builds itself rather than from a protobuf message. */
const str = { type: "string" };
const int = { type: "integer" };
const bool = { type: "boolean" };
const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties), extra = false): JsonSchema => ({
  type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: extra,
});

export const COMMON_SCHEMAS: Record<string, JsonSchema> = {
  Error: {
    ...obj({ error: str, message: str, field: { ...str, description: "The request field or parameter at fault, when one is." } }, ["error", "message"]),
    description: "The gateway's error body (DESIGN 4): a machine-readable `error` code, a human `message`, and the `field` at fault when there is one.",
  },
  InvalidDocument: obj({
    error: { const: "invalid_document" }, message: str,
    problems: { type: "array", items: obj({ path: str, message: str }, ["message"], true) },
  }, ["error", "message", "problems"]),
  OAuthError: {
    ...obj({ error: str, error_description: str, error_uri: str }, ["error"]),
    description: "An OAuth 2.0 error response (RFC 6749 section 5.2).",
  },
  TokenResponse: {
    ...obj({
      access_token: str, token_type: str, expires_in: int, refresh_token: str, refresh_expires_in: int,
      id_token: str, scope: str, session_state: str, issued_token_type: str,
    }, ["access_token", "token_type", "expires_in", "scope"]),
    description: "RFC 6749 section 5.1; `id_token` per OpenID Connect Core section 3.1.3.3; `issued_token_type` for token exchange (RFC 8693 section 2.2.1).",
  },
  DeviceAuthorizationResponse: {
    ...obj({ device_code: str, user_code: str, verification_uri: str, verification_uri_complete: str, expires_in: int, interval: int }),
    description: "RFC 8628 section 3.2.",
  },
  PushedAuthorizationResponse: {
    ...obj({ request_uri: { type: "string", pattern: "^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$" }, expires_in: int }),
    description: "RFC 9126 section 2.2: a single-use reference to the pushed request, bound to the client.",
  },
  IntrospectionResponse: {
    type: "object", required: ["active"], additionalProperties: true,
    properties: {
      active: bool, scope: str, client_id: str, username: str, token_type: str, exp: int, iat: int, nbf: int,
      sub: str, aud: { oneOf: [str, { type: "array", items: str }] }, iss: str, jti: str,
    },
    description: "RFC 7662 section 2.2: `{ \"active\": false }` for a token that is not active.",
  },
  UserInfo: {
    type: "object", required: ["sub"], additionalProperties: true,
    properties: { sub: str, name: str, preferred_username: str, given_name: str, family_name: str, email: str, email_verified: bool },
    description: "The claims of the access token's user (OpenID Connect Core section 5.3.2), per its scopes.",
  },
  EmptyObject: { type: "object", additionalProperties: false, maxProperties: 0 },
  ProviderMetadata: {
    type: "object", additionalProperties: true,
    required: ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "response_types_supported", "subject_types_supported", "id_token_signing_alg_values_supported"],
    properties: {
      issuer: str, authorization_endpoint: str, token_endpoint: str, userinfo_endpoint: str, jwks_uri: str,
      end_session_endpoint: str, introspection_endpoint: str, revocation_endpoint: str, device_authorization_endpoint: str, registration_endpoint: str,
      pushed_authorization_request_endpoint: str, require_pushed_authorization_requests: bool, request_parameter_supported: bool,
      request_object_signing_alg_values_supported: { type: "array", items: str },
      dpop_signing_alg_values_supported: { type: "array", items: str },
      response_types_supported: { type: "array", items: str }, subject_types_supported: { type: "array", items: str },
      id_token_signing_alg_values_supported: { type: "array", items: str }, scopes_supported: { type: "array", items: str },
      grant_types_supported: { type: "array", items: str }, code_challenge_methods_supported: { type: "array", items: str },
    },
    description: "OpenID Connect Discovery 1.0 section 3.",
  },
  JsonWebKeySet: {
    ...obj({ keys: { type: "array", items: { type: "object", required: ["kty"], properties: { kty: str, kid: str, use: str, alg: str }, additionalProperties: true } } }),
    description: "RFC 7517 section 5: the realm's public signing keys.",
  },
  Liveness: obj({ status: { const: "ok" } }),
  Readiness: obj({
    status: { enum: ["ok", "unavailable"] },
    gateway: obj({ heapUsedBytes: int, heapLimitBytes: int, heapUsedRatio: { type: "number" } }),
    services: { type: "object", additionalProperties: obj({ service: str, ready: bool, detail: str }, ["ready"], true) },
  }),
  Landing: obj({ name: str, version: str, links: { type: "object", additionalProperties: str } }),
  AdminLoginRequest: obj({ username: str, password: str }),
  AdminLoginResponse: obj({
    accessToken: str, tokenType: { const: "Bearer" }, expiresIn: int,
    refreshToken: { type: "string", description: "For `POST /admin/auth/refresh`; valid `refreshExpiresIn` seconds (30 minutes unused, never past 10 hours after the login)." },
    refreshExpiresIn: int,
    user: { $ref: "#/components/schemas/AdminAccount" },
  }),
  AdminRefreshRequest: obj({ refreshToken: str }),
  Message: obj({ message: str }),
  RoleNamesResult: obj({ roleNames: { type: "array", items: str } }),
  RevokeSessionResult: obj({ revoked: bool, sessionId: str, type: { enum: ["oauth", "sso"] } }),
  CountResult: obj({ count: int }),
  MfaStatus: obj({ enabled: bool }),
  Passkey: {
    ...obj({
      id: str, type: { const: "webauthn-passwordless" }, userLabel: str,
      credentialId: { ...str, description: "The WebAuthn credential id, base64url." },
      transports: { type: "array", items: str }, signCount: int, backedUp: bool,
      createdDate: { ...int, description: "Epoch milliseconds." },
      lastUsedDate: { type: ["integer", "null"], description: "Epoch milliseconds; null when never used." },
    }),
    description: "A user's passkey (WebAuthn credential); the public key is not shown.",
  },
  LockedUser: obj({
    userId: str, username: str, failureCount: int, lastFailure: { type: "string", format: "date-time" },
    lockedUntil: { type: ["string", "null"], format: "date-time" }, permanent: bool, temporaryLockouts: int,
  }),
  UserImportRequest: {
    description: "`{ users: [...] }` or a bare array, up to 10,000 users; each user as `UserInput`, plus `credentials` or a password hash as the spec's import allows.",
    oneOf: [obj({ users: { type: "array", items: { type: "object" } } }), { type: "array", items: { type: "object" } }],
  },
  UserImportReport: obj({
    imported: int, skipped: int, failed: int,
    errors: { type: "array", items: obj({ index: int, username: str, error: str, message: str }) },
  }),
  FederatedIdentity: obj({ identityProvider: str, userId: str, userName: str, createdAt: { type: "string", format: "date-time" } }, ["identityProvider", "userId", "userName"]),
  ConnectionTestResult: obj({ success: bool, error: str, message: str }, ["success"]),
  EmailTestRequest: obj({ to: { type: "string", format: "email" } }, []),
  RealmImportDocument: {
    type: "object", additionalProperties: true,
    description: "A Tessera realm document (as `GET /admin/realms/{realmName}/export` writes it) or a Keycloak realm export (`format=keycloak`, or detected).",
  },
};
