/**
 * What an administrator may do in a realm: Keycloak's `realm-management` client roles, by the
 * same names, so an operator who knows one knows the other. `manage-x` includes `view-x`;
 * `realm-admin` includes every role. The directory validates grants against this list and the
 * gateway's Admin API checks each request against them (gateway/src/admin/admin-permissions.ts).
 */
export const ADMIN_AREAS = ["realm", "users", "clients", "events", "identity-providers"] as const;
export type AdminArea = (typeof ADMIN_AREAS)[number];

export const REALM_ADMIN = "realm-admin";
export const IMPERSONATION = "impersonation";

export const ADMIN_ROLES: readonly string[] = [
  REALM_ADMIN,
  ...ADMIN_AREAS.flatMap((a) => [`view-${a}`, `manage-${a}`]),
  IMPERSONATION,
];

const KNOWN: ReadonlySet<string> = new Set(ADMIN_ROLES);

export function isAdminRole(role: string): boolean {
  return KNOWN.has(role);
}

/** Whether `roles` let their holder read (`write` false) or change `area`. */
export function rolesAllow(roles: readonly string[], area: AdminArea | typeof IMPERSONATION, write: boolean): boolean {
  if (roles.includes(REALM_ADMIN)) return true;
  if (area === IMPERSONATION) return roles.includes(IMPERSONATION);
  return roles.includes(`manage-${area}`) || (!write && roles.includes(`view-${area}`));
}
