import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { HolderType, RoleService, RoleSchema, type Role } from "../../../../gen/iam/directory/v1/role_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import { roleView } from "../domain/role.js";
import type { RoleAdmin, RoleWithClient } from "../domain/role-admin.js";
import type { MappingTarget, RoleMappings } from "../domain/role-mappings.js";
import type { RoleComposites } from "../domain/role-composites.js";

/** Thin handlers: check -> domain -> convert. */
export function roleRpc(roles: RoleAdmin, mappings: RoleMappings, composites: RoleComposites): ServiceImpl<typeof RoleService> {
  return {
    async createRole(req) {
      const { $typeName: _t, ...input } = req.role ?? { $typeName: "" };
      return { role: toProto(await roles.create(req.realm, req.clientId, definedOnly(input))) };
    },
    async listRoles(req) {
      return { roles: (await roles.list(req.realm, req.clientId)).map(toProto) };
    },
    async getRole(req) {
      return { role: toProto(await roles.get(req.realm, req.clientId, req.name)) };
    },
    async deleteRole(req) {
      await roles.delete(req.realm, req.clientId, req.name);
      return {};
    },
    async updateRole(req) {
      const { $typeName: _t, ...input } = req.update ?? { $typeName: "" };
      return { role: toProto(await roles.update(req.realm, req.clientId, req.name, definedOnly(input))) };
    },
    async listRoleComposites(req) {
      return { roles: (await composites.list({ realmName: req.realm, clientId: req.clientId, name: req.name })).map(toProto) };
    },
    async addRoleComposites(req) {
      return { roleNames: await composites.add({ realmName: req.realm, clientId: req.clientId, name: req.name }, req.roleNames, req.compositeClientId) };
    },
    async removeRoleComposites(req) {
      return { roleNames: await composites.remove({ realmName: req.realm, clientId: req.clientId, name: req.name }, req.roleNames, req.compositeClientId) };
    },
    async listRoleMappings(req) {
      const t = target(req);
      const list = req.effective ? await mappings.effective(t, t.holderType === "group") : await mappings.list(t, t.holderType === "group");
      return { roles: list.map(toProto) };
    },
    async assignRoleMappings(req) {
      return { roleNames: await mappings.assign(target(req), req.roleNames) };
    },
    async removeRoleMappings(req) {
      return { roleNames: await mappings.remove(target(req), req.roleNames) };
    },
  };
}

function target(req: { realm: string; holderType: HolderType; holderId: string; clientId: string }): MappingTarget {
  if (req.holderType !== HolderType.USER && req.holderType !== HolderType.GROUP) throw IamError.invalid("holderType", "holderType is required");
  return { realmName: req.realm, holderType: req.holderType === HolderType.USER ? "user" : "group", holderId: req.holderId, clientId: req.clientId };
}

function toProto(r: RoleWithClient): Role {
  return fromJson(RoleSchema, roleView(r.role, r.clientSlug) as unknown as JsonObject);
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
