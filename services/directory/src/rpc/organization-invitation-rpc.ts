import type { ServiceImpl } from "@connectrpc/connect";
import type { OrganizationService } from "../../../../gen/iam/directory/v1/organization_pb.js";
import type { OrganizationInvitations } from "../domain/organization-invitations.js";

/** Thin handlers of the invitation RPCs: check -> domain -> convert. */
export function invitationRpc(invitations: OrganizationInvitations): Partial<ServiceImpl<typeof OrganizationService>> {
  return {
    async inviteUser(req) {
      await invitations.inviteUser(req.realm, req.organizationId, { email: req.email, firstName: req.firstName, lastName: req.lastName });
      return {};
    },
    async inviteExistingUser(req) {
      await invitations.inviteExistingUser(req.realm, req.organizationId, req.userId);
      return {};
    },
    async acceptInvitation(req) {
      const r = await invitations.accept(req.realm, req.token.slice(0, 4096), {
        inspect: req.inspect,
        ...(req.username !== undefined ? { username: req.username } : {}),
        ...(req.password !== undefined ? { password: req.password } : {}),
        ...(req.firstName !== undefined ? { firstName: req.firstName } : {}),
        ...(req.lastName !== undefined ? { lastName: req.lastName } : {}),
      });
      return r;
    },
  };
}
