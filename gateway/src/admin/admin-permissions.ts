import type { NextFunction, Request, RequestHandler, Response } from "express";
import { IMPERSONATION, rolesAllow, type AdminArea } from "../../../services/kit/src/validation/admin-roles.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { Method } from "../http/route-table.js";

/**
 * What an Admin API caller may do: a server admin (the API key, Keycloak's master-realm `admin`)
 * everything; any other admin its realm-management roles in the realms named
 * (services/kit/src/validation/admin-roles.ts).
 */
export interface AdminAccess {
  serverAdmin: boolean;
  realms: ReadonlyMap<string, readonly string[]>;
}

export const FULL_ACCESS: AdminAccess = { serverAdmin: true, realms: new Map() };

/**
 * What a route asks of its caller:
 * - `server`: a server admin (realm creation and import, a realm's deletion, the administrators);
 * - `any`: any admin (the realm list, which shows each admin its own realms; the theme names);
 * - `realm`: a role in the path's realm allowing `area`, to read or (`write`) to change it.
 */
export type Need =
  | { kind: "server" }
  | { kind: "any" }
  | { kind: "realm"; area: AdminArea | typeof IMPERSONATION; write: boolean };

/** The area of each path segment after `/admin/realms/:realmName/`, as Keycloak's roles divide them. */
const AREAS: Readonly<Record<string, AdminArea>> = {
  users: "users", groups: "users", sessions: "users", "brute-force": "users", organizations: "users",
  clients: "clients", "client-scopes": "clients", "clients-initial-access": "clients",
  "client-registration-policy": "clients", "saml-service-providers": "clients",
  events: "events", "admin-events": "events",
  "identity-providers": "identity-providers",
  roles: "realm", authentication: "realm", keys: "realm", "saml-keys": "realm", localization: "realm",
  "user-federation": "realm", webhooks: "realm", email: "realm", export: "realm",
};

const REALM_PREFIX = "/admin/realms/:realmName";

/**
 * The need of an Admin API route, from its method and path template. A path this table does not
 * know needs a server admin: a route added without thought is closed to realm admins, not open.
 */
export function needOf(method: Method, path: string): Need {
  if (path === "/admin/realms" && method === "GET") return { kind: "any" };
  if (path === "/admin/realms/themes" && method === "GET") return { kind: "any" };
  if (path !== REALM_PREFIX && !path.startsWith(`${REALM_PREFIX}/`)) return { kind: "server" };
  const rest = path.slice(REALM_PREFIX.length + 1).split("/");
  const write = method !== "GET";
  if (path === REALM_PREFIX) return method === "DELETE" ? { kind: "server" } : { kind: "realm", area: "realm", write };
  if (rest[0] === "users" && rest.at(-1) === "impersonation") return { kind: "realm", area: IMPERSONATION, write: true };
  // An export holds the realm's whole configuration (and its secrets when asked): manage-realm, as Keycloak's partial export.
  if (rest[0] === "export") return { kind: "realm", area: "realm", write: true };
  // Example tokens show a user's claims (attributes, roles, groups): the users' area, as Keycloak
  // asks view rights on the user as well as the client.
  if (rest[0] === "clients" && rest[2] === "evaluate-scopes") return { kind: "realm", area: "users", write: false };
  const area = AREAS[rest[0]!];
  return area ? { kind: "realm", area, write } : { kind: "server" };
}

/** Whether `access` meets `need` in `realm` (the path's realm; "" for paths without one). */
export function allows(access: AdminAccess, need: Need, realm: string): boolean {
  if (access.serverAdmin) return true;
  if (need.kind === "server") return false;
  if (need.kind === "any") return true;
  const roles = access.realms.get(realm);
  return roles !== undefined && rolesAllow(roles, need.area, need.write);
}

/** The realms an admin may see in the realm list. */
export function visibleRealm(access: AdminAccess, realm: string): boolean {
  return access.serverAdmin || access.realms.has(realm);
}

/** The route step after the Admin API guard: 403 when the caller's roles do not cover the route. */
export function requireAccess(method: Method, path: string): RequestHandler {
  const need = needOf(method, path);
  return (req: Request, _res: Response, next: NextFunction) => {
    const realm = typeof req.params.realmName === "string" ? req.params.realmName : "";
    if (req.adminAccess && allows(req.adminAccess, need, realm)) return next();
    next(new GatewayError(403, "forbidden", describe(need, realm)));
  };
}

function describe(need: Need, realm: string): string {
  if (need.kind !== "realm") return "this needs a server admin";
  if (need.area === IMPERSONATION) return `this needs the impersonation role in realm "${realm}"`;
  return `this needs ${need.write ? "manage" : "view"}-${need.area} (or realm-admin) in realm "${realm}"`;
}
