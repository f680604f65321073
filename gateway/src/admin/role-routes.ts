import { toJson } from "@bufbuild/protobuf";
import { RoleInputSchema, RoleNamesSchema, RoleSchema, type Role } from "../../../gen/iam/directory/v1/role_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import type { RpcClients } from "../rpc-clients.js";

/**
 * Realm roles and client roles (spec 2.4, 4.4); deletes answer 204 (spec 7.1). A role is updated
 * with PUT (name, description), and a composite role's contained roles are listed, added and
 * removed at `.../composites` with the role-mapping body `{roleNames, clientId?}` (clientId: the
 * contained roles are that client's), answering `{roleNames}` as the mappings do.
 */
export function addRoleRoutes(table: RouteTable, rpc: RpcClients): void {
  for (const base of ["/admin/realms/:realmName/roles", "/admin/realms/:realmName/clients/:clientId/roles"]) {
    const ids = (req: { params: Record<string, unknown> }) => ({
      realm: String(req.params.realmName), clientId: req.params.clientId ? String(req.params.clientId) : "",
    });
    table
      .add("POST", base, "admin", async (req) => {
        const role = parseBody(RoleInputSchema, req.body);
        const res = await rpc.roles.createRole({ ...ids(req), role });
        return { status: 201, body: roleJson(res.role) };
      })
      .add("GET", base, "admin", async (req) => {
        const res = await rpc.roles.listRoles(ids(req));
        return { status: 200, body: res.roles.map(roleJson) };
      })
      .add("GET", `${base}/:roleName`, "admin", async (req) => {
        const res = await rpc.roles.getRole({ ...ids(req), name: String(req.params.roleName) });
        return { status: 200, body: roleJson(res.role) };
      })
      .add("PUT", `${base}/:roleName`, "admin", async (req) => {
        const update = parseBody(RoleInputSchema, req.body);
        const res = await rpc.roles.updateRole({ ...ids(req), name: String(req.params.roleName), update });
        return { status: 200, body: roleJson(res.role) };
      })
      .add("DELETE", `${base}/:roleName`, "admin", async (req) => {
        await rpc.roles.deleteRole({ ...ids(req), name: String(req.params.roleName) });
        return { status: 204 };
      })
      .add("GET", `${base}/:roleName/composites`, "admin", async (req) => {
        const res = await rpc.roles.listRoleComposites({ ...ids(req), name: String(req.params.roleName) });
        return { status: 200, body: res.roles.map(roleJson) };
      })
      .add("POST", `${base}/:roleName/composites`, "admin", async (req) => {
        const body = parseBody(RoleNamesSchema, req.body);
        const res = await rpc.roles.addRoleComposites({ ...ids(req), name: String(req.params.roleName), roleNames: body.roleNames, compositeClientId: body.clientId ?? "" });
        return { status: 200, body: { roleNames: res.roleNames } };
      })
      .add("DELETE", `${base}/:roleName/composites`, "admin", async (req) => {
        const body = parseBody(RoleNamesSchema, req.body);
        const res = await rpc.roles.removeRoleComposites({ ...ids(req), name: String(req.params.roleName), roleNames: body.roleNames, compositeClientId: body.clientId ?? "" });
        return { status: 200, body: { roleNames: res.roleNames } };
      });
  }
}

/** A role; `clientId` (the client's slug) only on client roles. */
export function roleJson(role: Role | undefined): Record<string, unknown> {
  if (!role) return {};
  const json = toJson(RoleSchema, role, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  if (json.clientId === "") delete json.clientId;
  return json;
}
