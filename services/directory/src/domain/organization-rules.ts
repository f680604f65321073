import type { JsonValue } from "@bufbuild/protobuf";
import { IamError } from "../../../kit/src/errors.js";
import { checkHostname, checkLength, requireString } from "../../../kit/src/validation/checks.js";
import { checkAttributes } from "./user-rules.js";
import type { OrganizationDomain } from "./organization.js";

export const MAX_DOMAINS = 100;
export const MAX_IDENTITY_PROVIDERS = 20;

/** What the Admin API sends for an organization; absent fields are unchanged on update. */
export interface OrganizationInput {
  id?: string;
  name?: string;
  alias?: string;
  enabled?: boolean;
  description?: string;
  redirectUrl?: string;
  domains?: JsonValue;
  attributes?: JsonValue;
  identityProviders?: JsonValue;
}

export function checkOrganizationName(value: string | undefined): string {
  return requireString("name", value?.trim(), 1, 255);
}

/**
 * The alias names the organization in tokens (`organization` claim keys) and in the dynamic scope
 * `organization:<alias>`: a scope token (RFC 6749 section 3.3) and a JSON key, so kept to URL-safe
 * characters.
 */
export function checkAlias(value: string): string {
  const v = checkLength("alias", value.trim(), 1, 255);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(v)) {
    throw IamError.invalid("alias", "alias must start with a letter or digit and use letters, digits, '.', '_' and '-'");
  }
  return v;
}

/** The alias a new organization gets when none is sent: Keycloak takes the name; ours keeps it URL-safe. */
export function aliasFromName(name: string): string {
  const slug = name.trim().replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, 255);
  if (!slug) throw IamError.invalid("alias", "alias is required when the name has no letters or digits");
  return slug;
}

export function checkDescription(value: string): string {
  return checkLength("description", value, 0, 1024);
}

export function checkRedirectUrl(value: string): string {
  const v = value.trim();
  if (v === "") return "";
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw IamError.invalid("redirectUrl", "redirectUrl must be an absolute http or https URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw IamError.invalid("redirectUrl", "redirectUrl must be an absolute http or https URL");
  return checkLength("redirectUrl", v, 0, 2048);
}

/**
 * `[{ name, verified }]`: hostnames, lower-cased (RFC 5321 section 2.4: domains are
 * case-insensitive), each once. Uniqueness across the realm's organizations is the store's.
 */
export function checkDomains(v: JsonValue): OrganizationDomain[] {
  const bad = (why = "domains must be an array of { name, verified }") => IamError.invalid("domains", why);
  if (!Array.isArray(v)) throw bad();
  if (v.length > MAX_DOMAINS) throw bad(`at most ${MAX_DOMAINS} domains`);
  const seen = new Set<string>();
  return v.map((d) => {
    if (typeof d !== "object" || d === null || Array.isArray(d)) throw bad();
    for (const k of Object.keys(d)) if (k !== "name" && k !== "verified") throw bad(`unknown domain field: ${k.slice(0, 64)}`);
    if (typeof d.name !== "string") throw bad("each domain needs a name");
    if (d.verified !== undefined && d.verified !== null && typeof d.verified !== "boolean") throw bad("a domain's verified must be a boolean");
    const name = checkHostname("domains", d.name.trim().toLowerCase());
    if (!name.includes(".")) throw bad(`domain "${name}" must have at least two labels`);
    if (seen.has(name)) throw bad(`domain "${name}" is listed twice`);
    seen.add(name);
    return { name, verified: d.verified === true };
  });
}

export function checkOrganizationAttributes(v: JsonValue): Record<string, string[]> {
  return checkAttributes(v);
}

export function checkIdentityProviders(v: JsonValue): string[] {
  const bad = (why = "identityProviders must be an array of identity provider aliases") => IamError.invalid("identityProviders", why);
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw bad();
  if (v.length > MAX_IDENTITY_PROVIDERS) throw bad(`at most ${MAX_IDENTITY_PROVIDERS} identity providers`);
  const aliases = [...new Set(v as string[])];
  for (const a of aliases) if (!/^[A-Za-z0-9._-]{1,255}$/.test(a)) throw bad(`"${a.slice(0, 64)}" is not an identity provider alias`);
  return aliases;
}

/** `first` and `max` of a page (Keycloak's defaults: 0 and 10). */
export function checkPage(first: number | undefined, max: number | undefined, defaultMax: number, maxMax: number): { skip: number; limit: number } {
  const skip = first ?? 0;
  const limit = max ?? defaultMax;
  if (!Number.isInteger(skip) || skip < 0) throw IamError.invalid("first", "first must be a non-negative integer");
  if (!Number.isInteger(limit) || limit < 1) throw IamError.invalid("max", `max must be an integer between 1 and ${maxMax}`);
  return { skip, limit: Math.min(limit, maxMax) };
}

/** The domain part of an email address, lower-cased; "" when it has none. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf("@");
  return at < 0 ? "" : email.slice(at + 1).trim().toLowerCase();
}

/** An organization role's name: a JSON string in the claim and a path segment of the Admin API. */
export function checkOrganizationRoleName(value: string): string {
  const v = checkLength("name", value.trim(), 1, 255);
  if (!/^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(v)) throw IamError.invalid("name", "name must start with a letter or digit and use letters, digits, '.', '_', ':' and '-'");
  return v;
}
