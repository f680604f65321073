import { HolderType, RoleNamesSchema } from "../../../gen/iam/directory/v1/role_pb.js";
import type { Request } from "express";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import type { RpcClients } from "../rpc-clients.js";
import { roleJson } from "./role-routes.js";

/**
 * Role mappings of users (spec 4.5) and groups (spec 4.6): GET lists role objects, POST assigns
 * and DELETE removes the `{roleNames}` of the body (DESIGN 7), both answering `{roleNames}`.
 * Group bodies may name a `clientId` to map that client's roles. `.../composite` lists the
 * effective roles (Keycloak's paths).
 */
export function addRoleMappingRoutes(table: RouteTable, rpc: RpcClients): void {
  const user = (req: Request) => ({
    realm: String(req.params.realmName), holderType: HolderType.USER, holderId: String(req.params.userId),
    clientId: req.params.clientId ? String(req.params.clientId) : "",
  });
  for (const path of ["/admin/realms/:realmName/users/:userId/role-mappings/realm", "/admin/realms/:realmName/users/:userId/role-mappings/clients/:clientId"]) {
    table
      .add("GET", path, "admin", async (req) => {
        const res = await rpc.roles.listRoleMappings(user(req));
        return { status: 200, body: res.roles.map(roleJson) };
      })
      .add("POST", path, "admin", async (req) => {
        const { roleNames } = parseBody(RoleNamesSchema, req.body, ["clientId"]);
        const res = await rpc.roles.assignRoleMappings({ ...user(req), roleNames });
        return { status: 200, body: { roleNames: res.roleNames } };
      })
      .add("DELETE", path, "admin", async (req) => {
        const { roleNames } = parseBody(RoleNamesSchema, req.body, ["clientId"]);
        const res = await rpc.roles.removeRoleMappings({ ...user(req), roleNames });
        return { status: 200, body: { roleNames: res.roleNames } };
      });
  }
  // Keycloak's effective listings: through groups and their ancestors, and composites expanded.
  for (const path of ["/admin/realms/:realmName/users/:userId/role-mappings/realm/composite", "/admin/realms/:realmName/users/:userId/role-mappings/clients/:clientId/composite"]) {
    table.add("GET", path, "admin", async (req) => {
      const res = await rpc.roles.listRoleMappings({ ...user(req), effective: true });
      return { status: 200, body: res.roles.map(roleJson) };
    });
  }
  const group = (req: Request) => ({
    realm: String(req.params.realmName), holderType: HolderType.GROUP, holderId: String(req.params.groupId),
  });
  table
    .add("GET", "/admin/realms/:realmName/groups/:groupId/role-mappings/composite", "admin", async (req) => {
      const res = await rpc.roles.listRoleMappings({ ...group(req), clientId: "", effective: true });
      return { status: 200, body: res.roles.map(roleJson) };
    })
    .add("GET", "/admin/realms/:realmName/groups/:groupId/role-mappings", "admin", async (req) => {
      const res = await rpc.roles.listRoleMappings({ ...group(req), clientId: "" });
      return { status: 200, body: res.roles.map(roleJson) };
    })
    .add("POST", "/admin/realms/:realmName/groups/:groupId/role-mappings", "admin", async (req) => {
      const body = parseBody(RoleNamesSchema, req.body);
      const res = await rpc.roles.assignRoleMappings({ ...group(req), clientId: body.clientId ?? "", roleNames: body.roleNames });
      return { status: 200, body: { roleNames: res.roleNames } };
    })
    .add("DELETE", "/admin/realms/:realmName/groups/:groupId/role-mappings", "admin", async (req) => {
      const body = parseBody(RoleNamesSchema, req.body);
      const res = await rpc.roles.removeRoleMappings({ ...group(req), clientId: body.clientId ?? "", roleNames: body.roleNames });
      return { status: 200, body: { roleNames: res.roleNames } };
    });
}
