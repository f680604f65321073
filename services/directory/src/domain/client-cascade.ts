import { IamError } from "../../../kit/src/errors.js";
import type { ClientRecord } from "./client.js";
import type { RealmRecord } from "./realm.js";
import { NEW_CLIENT_DEFAULT_SCOPES, NEW_CLIENT_OPTIONAL_SCOPES } from "./builtin-scopes.js";
import type { ServiceAccounts } from "./service-accounts.js";
import type { RoleRepository } from "../store/role-repository.js";
import type { RoleMappingRepository } from "../store/role-mapping-repository.js";
import type { ClientScopeRepository } from "../store/client-scope-repository.js";
import type { ScopeAssignmentRepository } from "../store/scope-assignment-repository.js";

/** What lives and dies with a client: its roles and their mappings, scope assignments, service account. */
export class ClientCascade {
  constructor(
    private readonly roles: RoleRepository,
    private readonly mappings: RoleMappingRepository,
    private readonly scopes: ClientScopeRepository,
    private readonly assignments: ScopeAssignmentRepository,
    private readonly serviceAccounts: ServiceAccounts,
  ) {}

  /** New clients get Keycloak's realm default scopes (those still present in the realm). */
  async assignDefaultScopes(realm: RealmRecord, client: ClientRecord): Promise<void> {
    const wanted = [...NEW_CLIENT_DEFAULT_SCOPES, ...NEW_CLIENT_OPTIONAL_SCOPES];
    const found = await this.scopes.findScopesByNames(realm._id, wanted);
    for (const s of found) {
      const kind = NEW_CLIENT_OPTIONAL_SCOPES.includes(s.name) ? "optional" : "default";
      try {
        await this.assignments.insert({ _id: `${client._id}:${s._id}`, realmId: realm._id, clientId: client._id, scopeId: s._id, kind });
      } catch (e) {
        if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
      }
    }
  }

  /** Idempotent: the outbox relay runs it again for a deletion a crash interrupted. */
  async deleteClient(realm: RealmRecord, client: Pick<ClientRecord, "_id" | "clientId">): Promise<void> {
    await this.serviceAccounts.remove(realm, client);
    await this.mappings.deleteClient(realm._id, client._id);
    await this.roles.deleteClient(realm._id, client._id);
    await this.assignments.deleteClient(realm._id, client._id);
  }
}
