import { toJson } from "@bufbuild/protobuf";
import { RoleInputSchema, RoleSchema, type Role } from "../../../gen/iam/directory/v1/role_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import type { RpcClients } from "../rpc-clients.js";

/** Realm roles and client roles (spec 2.4, 4.4); deletes answer 204 (spec 7.1). */
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
      .add("DELETE", `${base}/:roleName`, "admin", async (req) => {
        await rpc.roles.deleteRole({ ...ids(req), name: String(req.params.roleName) });
        return { status: 204 };
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
