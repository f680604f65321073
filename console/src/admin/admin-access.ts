/**
 * What an administrator may do (docs/security.md, "Administrators"): a server admin everything;
 * any other admin Keycloak's realm-management roles in named realms.
 */

/** One realm's grant, as the Admin API reads and takes it. */
export interface RealmGrant {
  realm: string;
  roles: string[];
}

/**
 * The roles a grant may hold, in the order the API lists them. A copy of ADMIN_ROLES
 * (services/kit/src/validation/admin-roles.ts): the console bundle holds no server code, and the
 * TypeScript client names the roles only in its descriptions. admin-console-administrators.e2e
 * compares the check boxes with that list, so the two cannot drift apart unnoticed.
 */
export const ADMIN_ROLES: readonly string[] = [
  "realm-admin",
  "view-realm", "manage-realm",
  "view-users", "manage-users",
  "view-clients", "manage-clients",
  "view-events", "manage-events",
  "view-identity-providers", "manage-identity-providers",
  "impersonation",
];

/** A grant as a line of text: `acme: view-users, manage-clients`. */
export function grantText(g: RealmGrant): string {
  return `${g.realm}: ${g.roles.join(", ")}`;
}

/** A list of grants as the API answered it, or none when the value is not one. */
export function grantsOf(value: unknown): RealmGrant[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((g): g is { realm: unknown; roles: unknown } => typeof g === "object" && g !== null)
    .map((g) => ({ realm: String(g.realm ?? ""), roles: Array.isArray(g.roles) ? g.roles.map(String) : [] }));
}
