import type { ConnectRouter } from "@connectrpc/connect";
import { AuthenticationFlowService } from "../../../gen/iam/directory/v1/authentication_flow_pb.js";
import type { Outbox } from "../../kit/src/bus/outbox.js";
import type { Clock, Store } from "../../kit/src/store/port.js";
import { FlowAdmin } from "./domain/flow-admin.js";
import { FlowConditions } from "./domain/flow-conditions.js";
import { LoginCodeMail } from "./domain/login-code-mail.js";
import type { RealmLookup } from "./domain/realm-lookup.js";
import { AuthenticationFlowRepository } from "./store/authentication-flow-repository.js";
import { authenticationFlowRpc } from "./rpc/authentication-flow-rpc.js";
import type { UserRepository } from "./store/user-repository.js";
import type { GroupRepository } from "./store/group-repository.js";
import type { MembershipReader } from "./store/membership-reader.js";
import type { RoleMappingRepository } from "./store/role-mapping-repository.js";
import type { RoleRepository } from "./store/role-repository.js";
import type { ClientRepository } from "./store/client-repository.js";
import { EffectiveAccess } from "./domain/effective-access.js";

export interface FlowsSliceDeps {
  store: Store;
  clock: Clock;
  outbox: Outbox;
  lookup: RealmLookup;
  users: UserRepository;
  groups: GroupRepository;
  memberships: MembershipReader;
  mappings: RoleMappingRepository;
  roles: RoleRepository;
  clients: ClientRepository;
}

/** Authentication flows (spec 1.13), composed for clients-module.ts. */
export async function buildFlowsSlice(d: FlowsSliceDeps) {
  const admin = new FlowAdmin(d.lookup, await AuthenticationFlowRepository.open(d.store), async (realm, alias) => {
    const users = [
      ...(realm.browserFlow === alias ? ["the realm's browserFlow"] : []),
      ...(realm.directGrantFlow === alias ? ["the realm's directGrantFlow"] : []),
    ];
    for (const c of await d.clients.findByFlowOverride(realm._id, alias)) users.push(`client "${c.clientId}"`);
    return users;
  }, d.outbox, d.clock);
  const conditions = new FlowConditions(d.users, new EffectiveAccess(d.groups, d.memberships, d.mappings, d.roles), d.clients);
  const codes = new LoginCodeMail(d.users);
  return {
    admin,
    codes,
    routes(router: ConnectRouter) {
      router.service(AuthenticationFlowService, authenticationFlowRpc(admin, conditions, d.lookup, codes));
    },
  };
}
