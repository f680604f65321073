import { IamError } from "../../../kit/src/errors.js";
import {
  KEYCLOAK_AUTHENTICATOR, TOKEN_ENDPOINT_AUTH_METHODS, authMethodOf,
  type ClientRecord, type ClientType, type TokenEndpointAuthMethod,
} from "./client.js";

/** How a client authenticates, as written by the Admin API (create or update). */
export interface AuthMethodInput {
  tokenEndpointAuthMethod?: string | undefined;
  clientAuthenticatorType?: string | undefined;
  jwks?: Record<string, unknown> | undefined;
  jwksUri?: string | undefined;
}

export type AuthMethodFields = Pick<ClientRecord, "tokenEndpointAuthMethod" | "jwks" | "jwksUri">;

const MAX_KEYS = 20;
const MAX_JWKS_BYTES = 64 * 1024;
/** Members of a private or symmetric JWK (RFC 7518 section 6): a client registers public keys only. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];
const KEY_TYPES = new Set(["RSA", "EC", "OKP"]);

/** Keycloak's clientAuthenticatorType names, mapped to OIDC's; "client-secret" is client_secret_basic, which also takes the secret in the form. */
const FROM_KEYCLOAK: Record<string, TokenEndpointAuthMethod> = {
  "client-secret": "client_secret_basic", "client-secret-jwt": "client_secret_jwt", "client-jwt": "private_key_jwt", none: "none",
};

/**
 * The client's authentication method and keys after a write (OIDC Core 1.0 section 9, RFC 7523):
 * a PUBLIC client uses "none" and a CONFIDENTIAL one never does; private_key_jwt needs its public
 * keys by value (`jwks`) or by reference (`jwksUri`), not both. `current` is the stored client on
 * update (undefined on create). Refusals are 400 naming the field.
 */
export function resolveAuthMethod(type: ClientType, input: AuthMethodInput, current?: ClientRecord): AuthMethodFields {
  const requested = requestedMethod(input);
  const method: TokenEndpointAuthMethod = requested ?? (current ? authMethodOf(current) : type === "PUBLIC" ? "none" : "client_secret_basic");
  if (type === "PUBLIC" && method !== "none") {
    throw IamError.invalid("tokenEndpointAuthMethod", 'a PUBLIC client authenticates with "none"');
  }
  if (type === "CONFIDENTIAL" && method === "none") {
    throw IamError.invalid("tokenEndpointAuthMethod", 'a CONFIDENTIAL client cannot use "none"');
  }
  // "No keys" is stored as an empty set and "" (a store update cannot unset a field portably).
  let jwks = current?.jwks ?? { keys: [] };
  if (input.jwks !== undefined) jwks = Object.keys(input.jwks).length === 0 ? { keys: [] } : checkJwks(input.jwks);
  let jwksUri = current?.jwksUri ?? "";
  if (input.jwksUri !== undefined) jwksUri = input.jwksUri === "" ? "" : checkJwksUri(input.jwksUri);
  if (jwks.keys.length > 0 && jwksUri) throw IamError.invalid("jwksUri", "set jwks or jwksUri, not both");
  if (method === "private_key_jwt" && jwks.keys.length === 0 && !jwksUri) {
    throw IamError.invalid("jwks", "private_key_jwt needs the client's public keys in jwks or jwksUri");
  }
  return { tokenEndpointAuthMethod: method, jwks, jwksUri };
}

function requestedMethod(input: AuthMethodInput): TokenEndpointAuthMethod | undefined {
  let method: TokenEndpointAuthMethod | undefined;
  if (input.tokenEndpointAuthMethod !== undefined) {
    if (!(TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(input.tokenEndpointAuthMethod)) {
      throw IamError.invalid("tokenEndpointAuthMethod", `tokenEndpointAuthMethod must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(", ")}`);
    }
    method = input.tokenEndpointAuthMethod as TokenEndpointAuthMethod;
  }
  if (input.clientAuthenticatorType !== undefined) {
    const alias = FROM_KEYCLOAK[input.clientAuthenticatorType];
    if (!alias) throw IamError.invalid("clientAuthenticatorType", `clientAuthenticatorType must be one of ${Object.keys(FROM_KEYCLOAK).join(", ")}`);
    if (method && KEYCLOAK_AUTHENTICATOR[method] !== input.clientAuthenticatorType) {
      throw IamError.invalid("clientAuthenticatorType", "clientAuthenticatorType and tokenEndpointAuthMethod disagree");
    }
    method ??= alias;
  }
  return method;
}

/** A JWK Set (RFC 7517 section 5) of public signing keys. */
export function checkJwks(value: Record<string, unknown>): { keys: Record<string, unknown>[] } {
  const keys = value.keys;
  if (!Array.isArray(keys) || keys.length === 0) throw IamError.invalid("jwks", 'jwks must be a JWK Set: {"keys": [...]} with at least one key');
  if (keys.length > MAX_KEYS) throw IamError.invalid("jwks", `jwks must have at most ${MAX_KEYS} keys`);
  if (JSON.stringify(value).length > MAX_JWKS_BYTES) throw IamError.invalid("jwks", `jwks must be at most ${MAX_JWKS_BYTES} bytes`);
  keys.forEach((k: unknown, i) => {
    const field = `jwks.keys[${i}]`;
    if (typeof k !== "object" || k === null || Array.isArray(k)) throw IamError.invalid(field, `${field} must be a JWK object`);
    const jwk = k as Record<string, unknown>;
    if (typeof jwk.kty !== "string" || !KEY_TYPES.has(jwk.kty)) throw IamError.invalid(field, `${field}.kty must be RSA, EC or OKP`);
    if (PRIVATE_MEMBERS.some((m) => m in jwk)) throw IamError.invalid(field, `${field} must be a public key (no private members)`);
    if (jwk.use !== undefined && jwk.use !== "sig") throw IamError.invalid(field, `${field}.use must be "sig"`);
    if (jwk.kid !== undefined && typeof jwk.kid !== "string") throw IamError.invalid(field, `${field}.kid must be a string`);
  });
  return { keys: keys as Record<string, unknown>[] };
}

/** An https URL (http is accepted, the outbound guard allows it only to loopback when the operator says so). */
export function checkJwksUri(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw IamError.invalid("jwksUri", "jwksUri must be an absolute URL");
  }
  if ((u.protocol !== "https:" && u.protocol !== "http:") || value.includes("#") || u.username || u.password || value.length > 2048) {
    throw IamError.invalid("jwksUri", "jwksUri must be an https URL without fragment or credentials");
  }
  return value;
}
