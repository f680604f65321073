import type { Doc } from "../../../kit/src/store/port.js";
import { jsonTimestamp } from "../../../kit/src/json-timestamp.js";

export type ClientType = "CONFIDENTIAL" | "PUBLIC";

/** The grant types of spec 1.2. */
export const GRANT_TYPES = [
  "authorization_code", "client_credentials", "password", "refresh_token",
  "urn:ietf:params:oauth:grant-type:device_code",
] as const;

export const DEFAULT_GRANT_TYPES = ["authorization_code", "refresh_token"];

/**
 * A client as stored (spec 2.3). `secretSealed` is the SecretBox ciphertext bound to the client's
 * id; the plain secret never rests. `clientId` is the slug, unique per realm.
 */
export interface ClientRecord extends Doc {
  realmId: string;
  clientId: string;
  name: string;
  description: string;
  clientType: ClientType;
  enabled: boolean;
  redirectUris: string[];
  webOrigins: string[];
  grantTypes: string[];
  requireConsent: boolean;
  backchannelLogoutUri: string;
  backchannelLogoutSessionRequired: boolean;
  /** Absent on clients stored before it existed: see authMethodOf. */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** A JWK Set of public keys (private_key_jwt). */
  jwks?: JwkSet;
  jwksUri?: string;
  /** "" (signed, any supported algorithm), "any" (signed or unsigned), "none", or one algorithm. */
  requestObjectSignatureAlg?: string;
  /** RFC 9126 section 6. Absent (clients stored before it) reads as false. */
  requirePushedAuthorizationRequests?: boolean;
  /** RFC 9449: token requests must carry a DPoP proof. Absent (clients stored before it) reads as false. */
  dpopBoundAccessTokens?: boolean;
  /** RFC 9449 section 8: the client's proofs must carry a server nonce. Absent reads as false. */
  dpopNonceRequired?: boolean;
  /** Keycloak's standard token exchange (RFC 8693) permission. Absent (clients stored before it) reads as false. */
  standardTokenExchangeEnabled?: boolean;
  /** The algorithm of its ID tokens (OIDC Registration 2 id_token_signed_response_alg); absent or "" is the realm's. */
  idTokenSignedResponseAlg?: string;
  /** The algorithm of its access tokens (Keycloak's access.token.signed.response.alg); absent or "" is the realm's. */
  accessTokenSignedResponseAlg?: string;
  /** The security profile it follows (client-profile.ts): absent or "" is none. */
  clientProfile?: string;
  /** Authentication flow aliases used instead of the realm's; absent or "" is the realm's. */
  browserFlowOverride?: string;
  directGrantFlowOverride?: string;
  secretSealed?: string;
  createdAt: number;
  updatedAt: number;
}

export interface ClientCreateInput {
  clientId?: string;
  name?: string;
  description?: string;
  clientType?: string;
  /** Migration alias of clientType: lowercase "public" / "confidential" (spec 2.3). */
  type?: string;
  enabled?: boolean;
  redirectUris?: string[];
  webOrigins?: string[];
  grantTypes?: string[];
  requireConsent?: boolean;
  backchannelLogoutUri?: string;
  backchannelLogoutSessionRequired?: boolean;
  tokenEndpointAuthMethod?: string;
  /** Keycloak's alias of tokenEndpointAuthMethod (client-secret, client-jwt, client-secret-jwt, none). */
  clientAuthenticatorType?: string;
  jwks?: Record<string, unknown>;
  jwksUri?: string;
  requestObjectSignatureAlg?: string;
  requirePushedAuthorizationRequests?: boolean;
  dpopBoundAccessTokens?: boolean;
  dpopNonceRequired?: boolean;
  standardTokenExchangeEnabled?: boolean;
  idTokenSignedResponseAlg?: string;
  accessTokenSignedResponseAlg?: string;
  clientProfile?: string;
  browserFlowOverride?: string;
  directGrantFlowOverride?: string;
}

/** A JSON Web Key Set (RFC 7517 section 5). */
export interface JwkSet {
  keys: Array<Record<string, unknown>>;
}

/** Exactly the update fields of spec 2.3. */
export type ClientUpdateInput = Pick<
  ClientCreateInput,
  "name" | "description" | "enabled" | "redirectUris" | "webOrigins" | "grantTypes" | "requireConsent" | "backchannelLogoutUri"
  | "tokenEndpointAuthMethod" | "clientAuthenticatorType" | "jwks" | "jwksUri" | "requestObjectSignatureAlg" | "requirePushedAuthorizationRequests"
  | "dpopBoundAccessTokens" | "dpopNonceRequired"
  | "standardTokenExchangeEnabled" | "idTokenSignedResponseAlg" | "accessTokenSignedResponseAlg"
  | "clientProfile" | "browserFlowOverride" | "directGrantFlowOverride"
>;

/** OIDC Registration 2's token_endpoint_auth_method values Tessera accepts (OIDC Core 1.0 section 9). */
export const TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none"] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

/** The method of a stored client; clients stored before the field existed used a secret or none. */
export function authMethodOf(c: Pick<ClientRecord, "clientType" | "tokenEndpointAuthMethod">): TokenEndpointAuthMethod {
  return c.tokenEndpointAuthMethod ?? (c.clientType === "PUBLIC" ? "none" : "client_secret_basic");
}

/** Keycloak's clientAuthenticatorType of each method (client_secret_basic and _post are both its "client-secret"). */
export const KEYCLOAK_AUTHENTICATOR: Record<TokenEndpointAuthMethod, string> = {
  client_secret_basic: "client-secret", client_secret_post: "client-secret", client_secret_jwt: "client-secret-jwt",
  private_key_jwt: "client-jwt", none: "none",
};

/** The client as the Admin API shows it: never the secret, unless `secret` is passed (create, regenerate). */
export function clientView(c: ClientRecord, secret?: string) {
  const { _id, realmId: _r, secretSealed: _s, createdAt, updatedAt, tokenEndpointAuthMethod: _m, jwks, jwksUri, browserFlowOverride, directGrantFlowOverride, ...fields } = c;
  const method = authMethodOf(c);
  return {
    id: _id,
    ...fields,
    tokenEndpointAuthMethod: method,
    clientAuthenticatorType: KEYCLOAK_AUTHENTICATOR[method],
    ...(jwks && jwks.keys.length > 0 ? { jwks } : {}),
    jwksUri: jwksUri ?? "",
    requestObjectSignatureAlg: c.requestObjectSignatureAlg ?? "",
    requirePushedAuthorizationRequests: c.requirePushedAuthorizationRequests ?? false,
    dpopBoundAccessTokens: c.dpopBoundAccessTokens ?? false,
    dpopNonceRequired: c.dpopNonceRequired ?? false,
    standardTokenExchangeEnabled: c.standardTokenExchangeEnabled ?? false,
    idTokenSignedResponseAlg: c.idTokenSignedResponseAlg ?? "",
    accessTokenSignedResponseAlg: c.accessTokenSignedResponseAlg ?? "",
    clientProfile: c.clientProfile ?? "",
    // Only when set, so clients without overrides read as before.
    ...(browserFlowOverride ? { browserFlowOverride } : {}),
    ...(directGrantFlowOverride ? { directGrantFlowOverride } : {}),
    ...(secret !== undefined ? { secret } : {}),
    createdAt: jsonTimestamp(createdAt),
    updatedAt: jsonTimestamp(updatedAt),
  };
}

export function serviceAccountUsername(clientId: string): string {
  return `service-account-${clientId}`;
}
