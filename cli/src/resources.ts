/**
 * The Admin API's resources as the CLI addresses them (docs/admin-api.md): where each lives, what
 * identifies one, and the columns of its table.
 */
export interface ResourceSpec {
  /** The command's name: `tessera <name> list|get|create|update|delete`. */
  name: string;
  /** Path of the collection; realm-scoped resources take the realm. */
  collection: (realm: string) => string;
  realmScoped: boolean;
  /** What `get`, `update` and `delete` take: the field that identifies one in its path. */
  idField: string;
  columns: readonly string[];
  /** The list answer's array when it is wrapped ({total, users}). */
  listKey?: string;
  /** How the list pages: `skip`/`limit` (users) or Keycloak's `first`/`max`. */
  paging: "skip-limit" | "first-max" | "none";
  /** The list takes `search` beside `first`/`max`. */
  searchable?: boolean;
  updatable: boolean;
  description: string;
}

const realmPath = (realm: string, rest: string) => `/admin/realms/${encodeURIComponent(realm)}/${rest}`;

export const RESOURCES: readonly ResourceSpec[] = [
  { name: "realms", collection: () => "/admin/realms", realmScoped: false, idField: "name", columns: ["name", "displayName", "enabled", "createdAt"], paging: "none", updatable: true, description: "realms" },
  { name: "users", collection: (r) => realmPath(r, "users"), realmScoped: true, idField: "id", columns: ["id", "username", "email", "enabled"], listKey: "users", paging: "skip-limit", updatable: true, description: "users of a realm" },
  { name: "clients", collection: (r) => realmPath(r, "clients"), realmScoped: true, idField: "clientId", columns: ["clientId", "name", "clientType", "enabled"], paging: "none", updatable: true, description: "OAuth / OIDC clients of a realm" },
  { name: "roles", collection: (r) => realmPath(r, "roles"), realmScoped: true, idField: "name", columns: ["name", "description"], paging: "none", updatable: false, description: "realm roles" },
  { name: "groups", collection: (r) => realmPath(r, "groups"), realmScoped: true, idField: "id", columns: ["id", "name", "path"], paging: "first-max", searchable: true, updatable: true, description: "groups of a realm (top level, with sub-groups; a page or a name search with its hierarchy)" },
  { name: "client-scopes", collection: (r) => realmPath(r, "client-scopes"), realmScoped: true, idField: "id", columns: ["id", "name", "protocol"], paging: "none", updatable: true, description: "client scopes of a realm" },
  { name: "identity-providers", collection: (r) => realmPath(r, "identity-providers"), realmScoped: true, idField: "alias", columns: ["alias", "displayName", "providerType", "enabled"], paging: "none", updatable: true, description: "identity providers of a realm (brokering)" },
  { name: "federation", collection: (r) => realmPath(r, "user-federation"), realmScoped: true, idField: "id", columns: ["id", "name", "providerType", "enabled"], paging: "none", updatable: true, description: "LDAP user federation providers of a realm" },
  { name: "saml-sps", collection: (r) => realmPath(r, "saml-service-providers"), realmScoped: true, idField: "id", columns: ["id", "entityId", "name", "enabled"], paging: "none", updatable: true, description: "SAML service providers of a realm" },
  { name: "admins", collection: () => "/admin/admins", realmScoped: false, idField: "id", columns: ["id", "username", "serverAdmin", "createdAt"], paging: "first-max", searchable: true, updatable: true, description: "administrators (server admins only)" },
  { name: "authentication-flows", collection: (r) => realmPath(r, "authentication/flows"), realmScoped: true, idField: "id", columns: ["id", "alias", "description", "builtIn"], paging: "first-max", updatable: true, description: "authentication flows of a realm" },
];

export function itemPath(spec: ResourceSpec, realm: string, id: string): string {
  return `${spec.collection(realm)}/${encodeURIComponent(id)}`;
}
