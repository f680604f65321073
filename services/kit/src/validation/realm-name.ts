import { SLUG } from "./checks.js";

/** The longest realm name the directory accepts at creation. */
export const REALM_NAME_MAX_LENGTH = 64;

/** Names that would collide with fixed Admin API paths under /admin/realms/. */
export const RESERVED_REALM_NAMES: ReadonlySet<string> = new Set(["themes", "import"]);

/**
 * True when `name` could name a realm: a lowercase slug (spec 2.1 "Realm slug, lowercase") of at
 * most REALM_NAME_MAX_LENGTH characters, not reserved. The directory's creation rule
 * (realm-rules.ts) and the gateway's hosted pages share it: a name failing it cannot exist, so a
 * page answers it as an unknown realm without asking the services, and it never reaches a cookie
 * path (RFC 6265 section 4.1.1: `;`, controls and non-ASCII cannot appear in a Path attribute).
 */
export function isPossibleRealmName(name: string): boolean {
  return name.length >= 1 && name.length <= REALM_NAME_MAX_LENGTH && SLUG.test(name) && !RESERVED_REALM_NAMES.has(name);
}
