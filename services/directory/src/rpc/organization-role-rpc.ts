import type { ServiceImpl } from "@connectrpc/connect";
import type { OrganizationService } from "../../../../gen/iam/directory/v1/organization_pb.js";
import type { OrganizationRoles } from "../domain/organization-roles.js";

/** Thin handlers of the organization role RPCs: check -> domain -> convert. */
export function organizationRoleRpc(roles: OrganizationRoles): Partial<ServiceImpl<typeof OrganizationService>> {
  return {
    async createOrganizationRole(req) {
      return { role: await roles.create(req.realm, req.organizationId, { name: req.name, description: req.description }) };
    },
    async listOrganizationRoles(req) {
      return { roles: await roles.list(req.realm, req.organizationId) };
    },
    async deleteOrganizationRole(req) {
      await roles.delete(req.realm, req.organizationId, req.name);
      return {};
    },
    async listMemberRoles(req) {
      return { roles: await roles.ofMember(req.realm, req.organizationId, req.userId) };
    },
    async changeMemberRoles(req) {
      await roles.change(req.realm, req.organizationId, req.userId, req.roleNames.map((n) => n.slice(0, 255)), !req.remove);
      return {};
    },
  };
}
