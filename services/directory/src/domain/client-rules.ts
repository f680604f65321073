import { checkJwks as checkPublicJwks } from "./client-auth-method.js";
import { IamError } from "../../../kit/src/errors.js";
import { checkLength, requireString, SLUG } from "../../../kit/src/validation/checks.js";
import { GRANT_TYPES, type ClientCreateInput, type ClientType, type JwkSet } from "./client.js";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "vbscript:", "file:"]);
const MAX_URIS = 100;

/** Spec 2.3 and 8: a slug of at least 2 characters. */
export function checkClientId(v: string | undefined): string {
  const id = requireString("clientId", v, 2, 255);
  if (!SLUG.test(id)) {
    throw IamError.invalid("clientId", "clientId must be a lowercase slug: a-z, 0-9, '-', '_' or '.', starting and ending with a letter or digit");
  }
  return id;
}

/** clientType, or the migration field `type` (lowercase); both given must agree (spec 2.3). */
export function resolveClientType(input: ClientCreateInput): ClientType {
  let fromType: ClientType | undefined;
  if (input.type !== undefined) {
    if (input.type !== "public" && input.type !== "confidential") {
      throw IamError.invalid("type", 'type must be "public" or "confidential"');
    }
    fromType = input.type === "public" ? "PUBLIC" : "CONFIDENTIAL";
  }
  if (input.clientType !== undefined) {
    if (input.clientType !== "PUBLIC" && input.clientType !== "CONFIDENTIAL") {
      throw IamError.invalid("clientType", 'clientType must be "CONFIDENTIAL" or "PUBLIC"');
    }
    if (fromType && fromType !== input.clientType) {
      throw IamError.invalid("type", "type and clientType disagree");
    }
    return input.clientType;
  }
  return fromType ?? "CONFIDENTIAL";
}

/**
 * A redirect URI (RFC 6749 section 3.1.2, RFC 8252 for native apps, OAuth 2.0 Security BCP):
 * absolute, no fragment, no wildcard (matching is exact, DESIGN 5), no script-capable or local
 * scheme; http only for loopback hosts; a private-use scheme ("com.example.app:/cb") is allowed.
 */
export function checkRedirectUri(field: string, value: string): string {
  if (value.includes("*")) throw IamError.invalid(field, `${field} must not contain wildcards; redirect URIs match exactly`);
  if (/\s/.test(value)) throw IamError.invalid(field, `${field} must not contain whitespace`);
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw IamError.invalid(field, `${field} must be an absolute URI`);
  }
  const scheme = u.protocol.toLowerCase();
  if (FORBIDDEN_SCHEMES.has(scheme)) throw IamError.invalid(field, `${field} must not use the ${scheme} scheme`);
  if (value.includes("#")) throw IamError.invalid(field, `${field} must not contain a fragment`);
  if (scheme === "http:") {
    if (!LOOPBACK_HOSTS.has(u.hostname)) throw IamError.invalid(field, `${field} must use https (http only for localhost, 127.0.0.1 or [::1])`);
  } else if (scheme !== "https:") {
    // Private-use URI scheme of a native app (RFC 8252 section 7.1): reverse-DNS style, with a path.
    if (!/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(scheme)) {
      throw IamError.invalid(field, `${field} must use https, loopback http, or a reverse-domain private-use scheme`);
    }
  }
  return value;
}

/**
 * A host as browsers serialise it in the Origin header (RFC 6454 section 6.1, WHATWG URL): DNS
 * labels in lower case (IDNs in punycode; underscores occur), an IPv4 address, or a bracketed IPv6
 * address. WHATWG's parser keeps other characters such as `*` in a host, which no Origin carries.
 */
const ORIGIN_HOST = /^(?:(?:[a-z0-9_-]+\.)*[a-z0-9_-]+\.?|\[[0-9a-f:.]+\])$/;

const WEB_ORIGIN_RULE = 'an origin like https://app.example.com (scheme, host and port only, as browsers send it), "+" (the origins of the redirect URIs) or "*" (any origin)';

/**
 * A web origin as the gateway's CORS (gateway/src/oidc/cors.ts) can match it, Keycloak's forms:
 * "*" for any origin, "+" for the origins of the redirect URIs, or an http(s) origin compared
 * exactly with the request's Origin header, so it must be written as browsers serialise it (lower
 * case, no path, no default port). A wildcard host ("https://*.example.com") could never match
 * and is refused rather than stored as a silent no-op.
 */
export function checkWebOrigin(field: string, value: string): string {
  if (value === "+" || value === "*") return value;
  if (value.includes("*")) {
    throw IamError.invalid(field, `${field} must not contain a wildcard; it must be ${WEB_ORIGIN_RULE}`);
  }
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw IamError.invalid(field, `${field} must be ${WEB_ORIGIN_RULE}`);
  }
  if ((u.protocol !== "https:" && u.protocol !== "http:") || u.origin !== value || !ORIGIN_HOST.test(u.hostname)) {
    throw IamError.invalid(field, `${field} must be ${WEB_ORIGIN_RULE}`);
  }
  return value;
}

/** Backchannel logout URI (OpenID Connect Back-Channel Logout 1.0): https, or http on loopback. */
export function checkBackchannelUri(value: string): string {
  const field = "backchannelLogoutUri";
  if (value === "") return value;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw IamError.invalid(field, `${field} must be an absolute URI`);
  }
  const ok = u.protocol === "https:" || (u.protocol === "http:" && LOOPBACK_HOSTS.has(u.hostname));
  if (!ok || value.includes("#")) throw IamError.invalid(field, `${field} must be an https URI (http only for loopback) without fragment`);
  return value;
}

export function checkUriList(field: string, values: string[], check: (f: string, v: string) => string): string[] {
  if (values.length > MAX_URIS) throw IamError.invalid(field, `${field} must have at most ${MAX_URIS} entries`);
  values.forEach((v, i) => check(`${field}[${i}]`, v));
  return [...new Set(values)];
}

export function checkGrantTypes(values: string[]): string[] {
  for (const [i, g] of values.entries()) {
    if (!(GRANT_TYPES as readonly string[]).includes(g)) {
      throw IamError.invalid(`grantTypes[${i}]`, `grantTypes[${i}] must be one of ${GRANT_TYPES.join(", ")}`);
    }
  }
  return [...new Set(values)];
}

/** Spec 1.11: a PUBLIC client has no secret, so it cannot use client_credentials. */
export function checkTypeAndGrants(type: ClientType, grants: string[]): void {
  if (type === "PUBLIC" && grants.includes("client_credentials")) {
    throw IamError.invalid("grantTypes", "a PUBLIC client cannot use client_credentials");
  }
}

/**
 * Token exchange (RFC 8693) is for CONFIDENTIAL clients only: the exchange trades a user's token
 * on the strength of the client's own authentication, which a PUBLIC client has none of
 * (Keycloak offers the switch on confidential clients only).
 */
export function checkTokenExchange(type: ClientType, enabled: boolean): boolean {
  if (enabled && type === "PUBLIC") throw IamError.invalid("standardTokenExchangeEnabled", "a PUBLIC client cannot use token exchange");
  return enabled;
}

export function checkClientText(input: { name?: string | undefined; description?: string | undefined }): void {
  if (input.name !== undefined) checkLength("name", input.name, 0, 255);
  if (input.description !== undefined) checkLength("description", input.description, 0, 2048);
}

/** The request object algorithms a client may be limited to (RFC 9101; Keycloak's names). */
export const REQUEST_OBJECT_ALGS = ["", "any", "none", "RS256", "PS256", "ES256", "EdDSA"] as const;

export function checkRequestObjectAlg(value: string): string {
  if (!(REQUEST_OBJECT_ALGS as readonly string[]).includes(value)) {
    throw IamError.invalid("requestObjectSignatureAlg", `requestObjectSignatureAlg must be one of "", ${REQUEST_OBJECT_ALGS.slice(1).join(", ")}`);
  }
  return value;
}

/** The algorithms a client's ID and access tokens may be signed with; "" is the realm's (RFC 7518). */
export const TOKEN_SIGNING_ALGS = ["", "RS256", "PS256", "ES256", "EdDSA"] as const;

/** idTokenSignedResponseAlg or accessTokenSignedResponseAlg, checked under its own name. */
export function checkTokenSigningAlg(field: "idTokenSignedResponseAlg" | "accessTokenSignedResponseAlg", value: string): string {
  if (!(TOKEN_SIGNING_ALGS as readonly string[]).includes(value)) {
    throw IamError.invalid(field, `${field} must be one of "", ${TOKEN_SIGNING_ALGS.slice(1).join(", ")}`);
  }
  return value;
}

/**
 * A JWK Set of public keys (RFC 7517 section 5), as an imported document carries it; an empty set
 * is none. The Admin API's writes check it through resolveAuthMethod, with the same rules.
 */
export function checkJwks(value: unknown): JwkSet | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw IamError.invalid("jwks", "jwks must be a JWK Set: an object with a keys array");
  const keys = (value as { keys?: unknown }).keys;
  if (Array.isArray(keys) && keys.length === 0) return undefined;
  return checkPublicJwks(value as Record<string, unknown>);
}
