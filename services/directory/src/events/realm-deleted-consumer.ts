import { fromBinary } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { ClientRepository } from "../store/client-repository.js";
import type { RoleRepository } from "../store/role-repository.js";
import type { RoleMappingRepository } from "../store/role-mapping-repository.js";
import type { ClientScopeRepository } from "../store/client-scope-repository.js";
import type { ScopeAssignmentRepository } from "../store/scope-assignment-repository.js";
import type { RealmDefaults } from "../domain/realm-defaults.js";
import { REALM_DELETED } from "./realm-events.js";

export interface RealmCascadeTargets {
  clients: ClientRepository;
  roles: RoleRepository;
  mappings: RoleMappingRepository;
  scopes: ClientScopeRepository;
  assignments: ScopeAssignmentRepository;
  defaults: RealmDefaults;
  flows: { deleteRealm(realmId: string): Promise<number> };
}

/**
 * Drops a deleted realm's clients, roles, role mappings, scopes, mappers and assignments (DESIGN 3).
 * Records are keyed by the realm id, which is never reused, so deleting by it is idempotent
 * under redelivery and never touches a realm re-created under the same name.
 */
export function subscribeRealmDeletedClients(bus: Bus, t: RealmCascadeTargets, logger: Logger): Promise<Subscription> {
  return bus.subscribe({ durable: "directory-realm-deleted-clients", subject: REALM_DELETED }, async (m) => {
    const e = fromBinary(RealmDeletedSchema, m.payload);
    const counts = {
      clients: await t.clients.deleteRealm(e.realmId),
      roles: await t.roles.deleteRealm(e.realmId),
      mappings: await t.mappings.deleteRealm(e.realmId),
      scopes: await t.scopes.deleteRealm(e.realmId),
      assignments: await t.assignments.deleteRealm(e.realmId),
      flows: await t.flows.deleteRealm(e.realmId),
    };
    await t.defaults.forget(e.realmId);
    logger.info({ realm: e.realmName, ...counts }, "dropped clients, roles and scopes of deleted realm");
  });
}
