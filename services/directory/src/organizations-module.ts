import type { ServiceImpl } from "@connectrpc/connect";
import type { OrganizationService } from "../../../gen/iam/directory/v1/organization_pb.js";
import type { ServiceDeps } from "../../kit/src/module.js";
import type { Outbox } from "../../kit/src/bus/outbox.js";
import type { RealmLookup } from "./domain/realm-lookup.js";
import { OrganizationAdmin } from "./domain/organization-admin.js";
import { OrganizationRealms } from "./domain/organization-realms.js";
import { OrganizationMembers } from "./domain/organization-members.js";
import { OrganizationRepository } from "./store/organization-repository.js";
import { OrganizationDomainRepository } from "./store/organization-domain-repository.js";
import { OrganizationMemberRepository } from "./store/organization-member-repository.js";
import type { UserRepository } from "./store/user-repository.js";
import { organizationRpc } from "./rpc/organization-rpc.js";
import { invitationRpc } from "./rpc/organization-invitation-rpc.js";
import { OrganizationInvitations } from "./domain/organization-invitations.js";
import { UsedVerifyKeyRepository } from "./store/used-verify-key-repository.js";
import { OrganizationRoleRepository } from "./store/organization-role-repository.js";
import { OrganizationRoles } from "./domain/organization-roles.js";
import { organizationRoleRpc } from "./rpc/organization-role-rpc.js";
import type { UserAdmin } from "./domain/user-admin.js";
import type { RealmMailer } from "./domain/realm-mailer.js";
import type { UserEvents } from "./events/user-events.js";

/** What invitations need of the users slice: accounts to create, mail to send, events to record. */
export interface InvitationDeps {
  userAdmin: UserAdmin;
  mailer: RealmMailer;
  events: UserEvents;
  publicUrl: string;
}

export interface OrganizationsSlice {
  rpc: Partial<ServiceImpl<typeof OrganizationService>>;
  admin: OrganizationAdmin;
  members: OrganizationMembers;
  memberRepo: OrganizationMemberRepository;
}

/** Organizations and their members (spec 1.13), composed for users-module.ts. */
export async function buildOrganizationsSlice(deps: ServiceDeps, lookup: RealmLookup, users: UserRepository, outbox: Outbox, inv: InvitationDeps): Promise<OrganizationsSlice> {
  const { store, clock, secrets } = deps;
  // Every organization operation sees the realm through Keycloak 26's organizationsEnabled switch.
  const realms = new OrganizationRealms(lookup);
  const repo = await OrganizationRepository.open(store);
  const memberRepo = await OrganizationMemberRepository.open(store);
  const admin = new OrganizationAdmin(realms, repo, await OrganizationDomainRepository.open(store), memberRepo, outbox, clock);
  const members = new OrganizationMembers(realms, admin, repo, memberRepo, users, outbox, clock);
  // Keycloak 26's MANAGED members: their accounts go with the membership and with the organization.
  members.deleteUser = (realmName, userId) => inv.userAdmin.delete(realmName, userId);
  admin.removeManagedMembers = async (realm, organizationId) => {
    for (const userId of await members.managedUserIds(realm._id, organizationId)) await members.deleteManagedUser(realm.name, userId);
  };
  const roleRepo = await OrganizationRoleRepository.open(store);
  admin.roleRepo = roleRepo;
  const roles = new OrganizationRoles(realms, admin, roleRepo, memberRepo, outbox, clock);
  const invitations = new OrganizationInvitations(realms, admin, members, memberRepo, users, inv.userAdmin, await UsedVerifyKeyRepository.open(store),
    inv.mailer, inv.events, secrets, inv.publicUrl, clock);
  return { rpc: organizationRpc({ admin, members }, { ...invitationRpc(invitations), ...organizationRoleRpc(roles) }), admin, members, memberRepo };
}
