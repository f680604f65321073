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
  /** Public keys (RFC 7517 JWK Set) request objects are verified with; absent when none. */
  jwks?: JwkSet;
  /** "" (signed, any supported algorithm), "any" (signed or unsigned), "none", or one algorithm. */
  requestObjectSignatureAlg?: string;
  /** RFC 9126 section 6. Absent (clients stored before it) reads as false. */
  requirePushedAuthorizationRequests?: boolean;
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
  /** Checked by checkJwks: any JSON object arrives here. */
  jwks?: object;
  requestObjectSignatureAlg?: string;
  requirePushedAuthorizationRequests?: boolean;
}

/** A JSON Web Key Set (RFC 7517 section 5). */
export interface JwkSet {
  keys: Array<Record<string, unknown>>;
}

/** Exactly the update fields of spec 2.3. */
export type ClientUpdateInput = Pick<
  ClientCreateInput,
  "name" | "description" | "enabled" | "redirectUris" | "webOrigins" | "grantTypes" | "requireConsent" | "backchannelLogoutUri"
  | "jwks" | "requestObjectSignatureAlg" | "requirePushedAuthorizationRequests"
>;

/** The client as the Admin API shows it: never the secret, unless `secret` is passed (create, regenerate). */
export function clientView(c: ClientRecord, secret?: string) {
  const { _id, realmId: _r, secretSealed: _s, createdAt, updatedAt, jwks, ...fields } = c;
  return {
    id: _id,
    ...fields,
    ...(jwks && jwks.keys.length ? { jwks } : {}),
    requestObjectSignatureAlg: c.requestObjectSignatureAlg ?? "",
    requirePushedAuthorizationRequests: c.requirePushedAuthorizationRequests ?? false,
    ...(secret !== undefined ? { secret } : {}),
    createdAt: jsonTimestamp(createdAt),
    updatedAt: jsonTimestamp(updatedAt),
  };
}

export function serviceAccountUsername(clientId: string): string {
  return `service-account-${clientId}`;
}
