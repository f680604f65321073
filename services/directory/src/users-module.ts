import type { ServiceImpl } from "@connectrpc/connect";
import type { UserService } from "../../../gen/iam/directory/v1/user_pb.js";
import type { GroupService } from "../../../gen/iam/directory/v1/group_pb.js";
import type { Subscription } from "../../kit/src/bus/port.js";
import type { ServiceDeps } from "../../kit/src/module.js";
import type { DirectoryConfig } from "./config.js";
import type { RealmAdmin } from "./domain/realm-admin.js";
import type { PasswordHasher } from "./domain/password-hasher.js";
import { RealmLookup } from "./domain/realm-lookup.js";
import { RealmRepository } from "./store/realm-repository.js";
import { UserRepository } from "./store/user-repository.js";
import { GroupRepository } from "./store/group-repository.js";
import { CredentialRepository } from "./store/credential-repository.js";
import { MembershipRepository } from "./store/membership-repository.js";
import { UpgradeRepository } from "./store/upgrade-repository.js";
import { RoleMappingReader } from "./store/role-mapping-reader.js";
import { UserAdmin } from "./domain/user-admin.js";
import { OwnProfile } from "./domain/own-profile.js";
import { UserCredentials } from "./domain/user-credentials.js";
import { UserRemoval } from "./domain/user-removal.js";
import { UserDisabling } from "./domain/user-disabling.js";
import { PasswordChanges } from "./domain/password-changes.js";
import type { UserWrites } from "./domain/user-writes.js";
import type { Outbox } from "../../kit/src/bus/outbox.js";
import { UserMail } from "./domain/user-mail.js";
import { ExecuteActions } from "./domain/execute-actions.js";
import { ClientRepository } from "./store/client-repository.js";
import { UsedVerifyKeyRepository } from "./store/used-verify-key-repository.js";
import { RealmMailer } from "./domain/realm-mailer.js";
import { GroupAdmin } from "./domain/group-admin.js";
import { backfillMemberOrder } from "./domain/member-order-backfill.js";
import { backfillUsernameKeys } from "./domain/username-key-backfill.js";
import { UserEvents } from "./events/user-events.js";
import { recordWriteKind } from "../../kit/src/events/audited-write.js";
import { userView } from "./domain/user.js";
import { startRealmCascade } from "./events/realm-cascade.js";
import { userRpc } from "./rpc/user-rpc.js";
import { FederatedUsers } from "./domain/federated-users.js";
import { FederationFallback } from "./domain/federation-fallback.js";
import { groupRpc } from "./rpc/group-rpc.js";
import type { OrganizationService } from "../../../gen/iam/directory/v1/organization_pb.js";
import { buildOrganizationsSlice } from "./organizations-module.js";
import { OrganizationMemberRepository } from "./store/organization-member-repository.js";

/** The directory's one set of announced user writes (domain/user-writes.ts), shared by its slices. */
export async function buildUserWrites(deps: ServiceDeps, outbox: Outbox): Promise<UserWrites> {
  const { store, bus, clock } = deps;
  const users = await UserRepository.open(store);
  const credentials = await CredentialRepository.open(store);
  const events = new UserEvents(outbox, clock);
  const userRecords = recordWriteKind("directory.user-admin", (realmId, id) => users.findById(realmId, id), userView);
  outbox.register(userRecords);
  return {
    removal: new UserRemoval(users, credentials, await MembershipRepository.open(store), await RoleMappingReader.open(store), events,
      outbox, clock, await OrganizationMemberRepository.open(store)),
    disabling: new UserDisabling(users, events, outbox, clock),
    passwordChanges: new PasswordChanges(credentials, events, outbox, clock),
    outbox,
    userRecords,
  };
}

/** Users, credentials, groups and memberships (spec 2.2, 2.5, 4.2, 4.6), composed for module.ts. */
export async function buildUsersAndGroups(deps: ServiceDeps, config: DirectoryConfig, realmAdmin: RealmAdmin, hasher: PasswordHasher, writes: UserWrites): Promise<{
  userRpc: ServiceImpl<typeof UserService>;
  groupRpc: ServiceImpl<typeof GroupService>;
  organizationRpc: Partial<ServiceImpl<typeof OrganizationService>>;
  startCascade(): Promise<Subscription>;
  /** Start-up upkeep of what older versions stored (domain/member-order-backfill.ts, domain/username-key-backfill.ts). */
  backfill(): Promise<number>;
}> {
  const { store, bus, clock, secrets, logger } = deps;
  const lookup = new RealmLookup(await RealmRepository.open(store));
  const userRepo = await UserRepository.open(store);
  const groupRepo = await GroupRepository.open(store);
  const memberships = await MembershipRepository.open(store);
  const roleMappings = await RoleMappingReader.open(store);
  const events = new UserEvents(writes.outbox, clock);
  const credentialRepo = await CredentialRepository.open(store);
  const credentials = new UserCredentials(lookup, userRepo, credentialRepo, hasher, events, writes.passwordChanges, clock);
  const users = new UserAdmin(lookup, userRepo, credentials, memberships, writes, events, clock);
  const federation = new FederationFallback(deps.transports.federation, new FederatedUsers(lookup, userRepo, writes, clock));
  users.federation = federation;
  credentials.federation = federation;
  const mailer = new RealmMailer(realmAdmin);
  const mail = new UserMail(lookup, userRepo, mailer, events, secrets, config.publicUrl, clock);
  const actions = new ExecuteActions(lookup, userRepo, await ClientRepository.open(store), mailer, events,
    await UsedVerifyKeyRepository.open(store), secrets, config.publicUrl, clock);
  const groups = new GroupAdmin(lookup, groupRepo, memberships, userRepo, roleMappings, events, writes.outbox, clock);
  const organizations = await buildOrganizationsSlice(deps, lookup, userRepo, writes.outbox, { userAdmin: users, mailer, events, publicUrl: config.publicUrl });
  users.organizationMembers = organizations.memberRepo;
  return {
    userRpc: userRpc(users, credentials, mail, new OwnProfile(lookup, users), actions),
    groupRpc: groupRpc(groups),
    organizationRpc: organizations.rpc,
    startCascade: () => startRealmCascade(bus, [users, credentials, groups, organizations.admin], logger),
    backfill: async () => {
      const upgrades = await UpgradeRepository.open(store);
      const moved = await backfillUsernameKeys({ users: userRepo, memberships, upgrades, now: () => clock.now(), logger });
      if (moved > 0) logger.info({ users: moved }, "users given the NFKC key of their username");
      return backfillMemberOrder({ memberships, users: userRepo, upgrades, now: () => clock.now() });
    },
  };
}
