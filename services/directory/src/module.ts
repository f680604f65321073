import type { ConnectRouter } from "@connectrpc/connect";
import { DirectoryService } from "../../../gen/iam/directory/v1/directory_pb.js";
import { RealmService } from "../../../gen/iam/directory/v1/realm_pb.js";
import { AdminAccountService } from "../../../gen/iam/directory/v1/admin_account_pb.js";
import type { ServiceDeps, ServiceModule } from "../../kit/src/module.js";
import { checkHealth } from "../../kit/src/health.js";
import type { DirectoryConfig } from "./config.js";
import { RealmRepository } from "./store/realm-repository.js";
import { AdminAccountRepository } from "./store/admin-account-repository.js";
import { AdminSessionRepository } from "./store/admin-session-repository.js";
import { AdminSessions } from "./domain/admin-sessions.js";
import { RealmAdmin } from "./domain/realm-admin.js";
import { AdminAccounts } from "./domain/admin-accounts.js";
import { AdminLoginLockout } from "./domain/admin-login-lockout.js";
import { AdminLoginFailureRepository } from "./store/admin-login-failure-repository.js";
import { PasswordHasher } from "./domain/password-hasher.js";
import { realmRpc } from "./rpc/realm-rpc.js";
import { realmLocalizationRpc } from "./rpc/realm-localization-rpc.js";
import { RealmLocalization } from "./domain/realm-localization.js";
import { RealmLocalizationService } from "../../../gen/iam/directory/v1/realm_localization_pb.js";
import { adminAccountRpc } from "./rpc/admin-account-rpc.js";
import { UserService } from "../../../gen/iam/directory/v1/user_pb.js";
import { GroupService } from "../../../gen/iam/directory/v1/group_pb.js";
import { OrganizationService } from "../../../gen/iam/directory/v1/organization_pb.js";
import type { Subscription } from "../../kit/src/bus/port.js";
import { buildUserWrites, buildUsersAndGroups } from "./users-module.js";
import { Outbox } from "../../kit/src/bus/outbox.js";
import { buildClientsSlice } from "./clients-module.js";
import { watchRealmCache } from "./events/realm-cache-watcher.js";
import { buildAuthenticationSlice } from "./authentication-module.js";
import { buildRegistrationSlice } from "./registration-module.js";
import { buildRealmTransferSlice } from "./realm-transfer-module.js";
import { RealmMailer } from "./domain/realm-mailer.js";
import { WriteCounter } from "../../kit/src/store/write-counted.js";
import { countWritesIn } from "../../kit/src/store/counted-store.js";
import { CLAIMS_SUBJECT_COLLECTIONS, claimsSubjectAnnouncer } from "./events/claims-subject-events.js";

/** Composition of the directory service, shared by the embedded runner and main.ts. */
export async function buildDirectory(given: ServiceDeps, config: DirectoryConfig): Promise<ServiceModule> {
  // Every write to a user's data counts, whichever repository makes it, for the resolved-claims
  // cache (ResolvedClaimsCache): counted at the store, so no writer can forget to.
  const subjectWrites = new WriteCounter(claimsSubjectAnnouncer(given.bus, given.logger, given.soleProcess ?? false));
  const deps: ServiceDeps = { ...given, store: countWritesIn(given.store, CLAIMS_SUBJECT_COLLECTIONS, subjectWrites) };
  const { store, bus, clock, secrets } = deps;
  const hasher = new PasswordHasher(config.argon2, config.hashingConcurrency);
  const realmRepo = await RealmRepository.open(store);
  // Realm, client and user deletion announce through it (outbox.ts); its relay starts last.
  const outbox = await Outbox.open(store, bus, clock, deps.logger, { soleProcess: deps.soleProcess ?? false });
  const realms = new RealmAdmin(realmRepo, outbox, secrets, clock);
  const adminLockout = new AdminLoginLockout(await AdminLoginFailureRepository.open(store), clock, config.adminLogin);
  const adminRepo = await AdminAccountRepository.open(store);
  const adminSessions = new AdminSessions(await AdminSessionRepository.open(store), (id) => adminRepo.findById(id), clock);
  const admins = new AdminAccounts(adminRepo, hasher, clock, adminLockout, (id) => adminSessions.endAllOf(id));
  realms.beforeDelete = (name) => admins.forgetRealm(name);
  const writes = await buildUserWrites(deps, outbox);
  const users = await buildUsersAndGroups(deps, config, realms, hasher, writes);
  let cascade: Subscription | undefined;
  let watches: Subscription[] = [];
  const clientsSlice = await buildClientsSlice(deps, outbox, writes.removal, config.publicUrl, subjectWrites);
  realms.flowExists = (realmId, alias) => clientsSlice.flows.exists(realmId, alias);
  clientsSlice.loginCodes.mailer = new RealmMailer(realms);
  const authnSlice = await buildAuthenticationSlice(deps, hasher, writes);
  const registrationSlice = await buildRegistrationSlice(deps, config, realms, hasher, writes);
  const transferSlice = await buildRealmTransferSlice(deps, realms, outbox);

  return {
    name: "directory",
    routes(router: ConnectRouter) {
      router.service(DirectoryService, { health: async () => ({ health: await checkHealth("directory", store, bus) }) });
      router.service(RealmService, realmRpc(realms));
      router.service(RealmLocalizationService, realmLocalizationRpc(new RealmLocalization(realms)));
      router.service(AdminAccountService, adminAccountRpc(admins, adminSessions));
      router.service(UserService, users.userRpc);
      router.service(GroupService, users.groupRpc);
      router.service(OrganizationService, users.organizationRpc);
      clientsSlice.routes(router);
      authnSlice.routes(router);
      registrationSlice.routes(router);
      transferSlice.routes(router);
    },
    async start() {
      watches = await watchRealmCache(bus, realmRepo, deps.logger);
      const backfilled = await users.backfill();
      if (backfilled > 0) deps.logger.info({ memberships: backfilled }, "group memberships given their member's username (member order)");
      cascade = await users.startCascade();
      await clientsSlice.start();
      await authnSlice.start();
      if (config.adminUsername && config.adminPassword) {
        await admins.bootstrap(config.adminUsername, config.adminPassword);
      }
      await outbox.start();
      // After the outbox: a rolled-back import announces realm.deleted through it.
      await transferSlice.start();
    },
    async stop() {
      await transferSlice.stop();
      await Promise.all(watches.map((w) => w.stop()));
      await cascade?.stop();
      await clientsSlice.stop();
      await authnSlice.stop();
      // The outbox last: it marks this process gone, and a consumer stopping may still be writing.
      await outbox.stop();
      await hasher.close();
    },
  };
}
