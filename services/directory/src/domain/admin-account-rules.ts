import { IamError } from "../../../kit/src/errors.js";
import { ADMIN_ROLES, isAdminRole } from "../../../kit/src/validation/admin-roles.js";
import { isPossibleRealmName } from "../../../kit/src/validation/realm-name.js";
import type { RealmAccessRecord } from "../store/admin-account-repository.js";

/** An admin's username: lowercase, as realm usernames are compared. */
const USERNAME = /^[a-z0-9][a-z0-9._@-]{0,63}$/;

/** At least 12 characters (NIST SP 800-63B section 3.1.1.2 asks 8; these accounts hold every realm), at most 1024 (the hash's input). */
export const ADMIN_PASSWORD_MIN = 12;
const ADMIN_PASSWORD_MAX = 1024;

export function checkAdminUsername(username: string): void {
  if (!USERNAME.test(username)) {
    throw IamError.invalid("username", "username must be 1-64 characters: lowercase letters, digits, '.', '_', '@' or '-', starting with a letter or digit");
  }
}

export function checkAdminPassword(password: string): void {
  if (password.length < ADMIN_PASSWORD_MIN) throw IamError.invalid("password", `password must be at least ${ADMIN_PASSWORD_MIN} characters`);
  if (password.length > ADMIN_PASSWORD_MAX) throw IamError.invalid("password", `password must be at most ${ADMIN_PASSWORD_MAX} characters`);
}

/**
 * A grant list as stored: each realm once, each a possible realm name with known roles, roles
 * without repeats in their given order. A realm need not exist yet (a grant may be given before
 * the realm is created; a realm's deletion removes its grants).
 */
export function normalizeRealmAccess(list: { realm: string; roles: string[] }[]): RealmAccessRecord[] {
  if (list.length > 1000) throw IamError.invalid("realmAccess", "realmAccess may name at most 1000 realms");
  const seen = new Set<string>();
  return list.map((g, i) => {
    const field = `realmAccess[${i}]`;
    if (!isPossibleRealmName(g.realm)) throw IamError.invalid(`${field}.realm`, `${field}.realm must be a realm name (a lowercase slug)`);
    if (seen.has(g.realm)) throw IamError.invalid(`${field}.realm`, `realm "${g.realm}" is listed twice`);
    seen.add(g.realm);
    if (g.roles.length === 0) throw IamError.invalid(`${field}.roles`, `${field}.roles must name at least one role`);
    const unknown = g.roles.find((r) => !isAdminRole(r));
    if (unknown !== undefined) throw IamError.invalid(`${field}.roles`, `unknown role "${unknown}"; one of: ${ADMIN_ROLES.join(", ")}`);
    return { realm: g.realm, roles: [...new Set(g.roles)] };
  });
}
