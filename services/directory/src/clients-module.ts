import type { ConnectRouter } from "@connectrpc/connect";
import { ClientService } from "../../../gen/iam/directory/v1/client_pb.js";
import { RoleService } from "../../../gen/iam/directory/v1/role_pb.js";
import { ClientScopeService } from "../../../gen/iam/directory/v1/client_scope_pb.js";
import { ClaimsService } from "../../../gen/iam/directory/v1/claims_pb.js";
import type { ServiceDeps } from "../../kit/src/module.js";
import type { Subscription } from "../../kit/src/bus/port.js";
import { RealmRepository } from "./store/realm-repository.js";
import { UserRepository } from "./store/user-repository.js";
import { GroupRepository } from "./store/group-repository.js";
import { ClientRepository } from "./store/client-repository.js";
import { RoleRepository } from "./store/role-repository.js";
import { RoleMappingRepository } from "./store/role-mapping-repository.js";
import { ClientScopeRepository } from "./store/client-scope-repository.js";
import { ScopeAssignmentRepository } from "./store/scope-assignment-repository.js";
import { OrganizationMembershipReader } from "./store/organization-membership-reader.js";
import { MembershipReader } from "./store/membership-reader.js";
import { RealmLookup } from "./domain/realm-lookup.js";
import { RealmDefaults } from "./domain/realm-defaults.js";
import { RealmAccess } from "./domain/realm-access.js";
import { ACCOUNT_CONSOLE_CLIENT_ID, accountConsoleSeed } from "./domain/account-console-client.js";
import { ServiceAccounts } from "./domain/service-accounts.js";
import type { UserRemoval } from "./domain/user-removal.js";
import type { Outbox } from "../../kit/src/bus/outbox.js";
import { ClientCascade } from "./domain/client-cascade.js";
import { ClientAdmin } from "./domain/client-admin.js";
import { ClientAuthenticator } from "./domain/client-authenticator.js";
import { RoleAdmin } from "./domain/role-admin.js";
import { RoleComposites } from "./domain/role-composites.js";
import { EffectiveAccess } from "./domain/effective-access.js";
import { RoleMappings } from "./domain/role-mappings.js";
import { ClientScopeAdmin } from "./domain/client-scope-admin.js";
import { ClaimsResolver } from "./domain/claims-resolver.js";
import { ClientTokenConfigs } from "./domain/client-token-configs.js";
import { UserEvents } from "./events/user-events.js";
import { WriteCounter } from "../../kit/src/store/write-counted.js";
import { subscribeRealmDeletedClients } from "./events/realm-deleted-consumer.js";
import { tokenConfigAnnouncer, watchTokenConfigWrites } from "./events/token-config-events.js";
import { watchClaimsSubjectWrites } from "./events/claims-subject-events.js";
import { ResolvedClaimsCache } from "./domain/resolved-claims-cache.js";
import { clientRpc } from "./rpc/client-rpc.js";
import { roleRpc } from "./rpc/role-rpc.js";
import { clientScopeRpc } from "./rpc/client-scope-rpc.js";
import { claimsRpc } from "./rpc/claims-rpc.js";
import { buildDynamicRegistrationSlice } from "./dynamic-registration-module.js";
import { buildFlowsSlice } from "./flows-module.js";

/**
 * The directory's clients, roles, role mappings, client scopes and claims (spec 2.3, 2.4, 2.8,
 * 4.3-4.6, 4.9), composed apart from module.ts so that file only registers and starts it.
 */
export async function buildClientsSlice(deps: ServiceDeps, outbox: Outbox, removal: UserRemoval, publicUrl: string, subjectWrites: WriteCounter) {
  const { store, bus, clock, secrets, logger } = deps;
  const realmRepo = await RealmRepository.open(store);
  const lookup = new RealmLookup(realmRepo);
  const users = await UserRepository.open(store);
  const groups = await GroupRepository.open(store);
  // Counts writes to what ClientTokenConfigs caches, so a change here is seen by the next token at
  // once, and announces them, so the other replicas see it as soon as the event arrives.
  const configWrites = new WriteCounter(tokenConfigAnnouncer(outbox, logger, async (id) => (await realmRepo.findById(id))?.name ?? null));
  const clients = await ClientRepository.open(store, configWrites);
  const roles = await RoleRepository.open(store, configWrites);
  const mappings = await RoleMappingRepository.open(store);
  const scopes = await ClientScopeRepository.open(store, configWrites);
  const assignments = await ScopeAssignmentRepository.open(store, configWrites);
  const memberships = await MembershipReader.open(store);
  const defaults = await RealmDefaults.open(store, roles, scopes, clock);
  const realms = new RealmAccess(lookup, defaults);
  const userEvents = new UserEvents(outbox, clock);
  // A service-account user goes as any user does (UserRemoval), memberships and mappings included.
  const serviceAccounts = new ServiceAccounts(users, removal, clock);
  const cascade = new ClientCascade(roles, mappings, scopes, assignments, serviceAccounts);
  defaults.seedClient(ACCOUNT_CONSOLE_CLIENT_ID, accountConsoleSeed(clients, cascade, publicUrl));
  const clientAdmin = new ClientAdmin(clients, realms, serviceAccounts, cascade, outbox, secrets, clock);
  const roleAdmin = new RoleAdmin(roles, mappings, realms, clientAdmin, outbox, clock);

  const roleComposites = new RoleComposites(roles, roleAdmin, clients, userEvents, outbox);
  const scopeAdmin = new ClientScopeAdmin(scopes, assignments, realms, clientAdmin, outbox, clock, deps.plugins);
  const configs = new ClientTokenConfigs(clients, scopes, assignments, roles, configWrites);
  const claimsCache = new ResolvedClaimsCache(subjectWrites, configWrites);
  const access = new EffectiveAccess(groups, memberships, mappings, roles);
  const roleMappings = new RoleMappings(roles, mappings, clients, users, groups, roleAdmin, userEvents, outbox, access);
  const resolver = new ClaimsResolver(realms, configs, access, users, clients, await OrganizationMembershipReader.open(store), deps.plugins, claimsCache);
  // Through RealmAccess: the first sign-in to a realm's account console seeds its client.
  const authenticator = new ClientAuthenticator(realms, clients, clientAdmin, configs);
  const dynamicRegistration = await buildDynamicRegistrationSlice(deps, outbox, realms, clientAdmin);
  const flows = await buildFlowsSlice({ store, clock, outbox, lookup, users, groups, memberships, mappings, roles, clients });
  clientAdmin.flowExists = (realmId, alias) => flows.admin.exists(realmId, alias);
  let subs: Subscription[] = [];

  return {
    flows: flows.admin,
    loginCodes: flows.codes,
    routes(router: ConnectRouter) {
      flows.routes(router);
      router.service(ClientService, clientRpc(clientAdmin, authenticator));
      router.service(RoleService, roleRpc(roleAdmin, roleMappings, roleComposites));
      router.service(ClientScopeService, clientScopeRpc(scopeAdmin));
      router.service(ClaimsService, claimsRpc(resolver));
      dynamicRegistration.routes(router);
    },
    async start() {
      subs = [
        await watchTokenConfigWrites(bus, configWrites),
        await watchClaimsSubjectWrites(bus, subjectWrites),
        await subscribeRealmDeletedClients(bus, { clients, roles, mappings, scopes, assignments, defaults, flows: flows.admin }, logger),
      ];
      await dynamicRegistration.start();
    },
    async stop() {
      await dynamicRegistration.stop();
      for (const s of subs) await s.stop();
      subs = [];
    },
  };
}
