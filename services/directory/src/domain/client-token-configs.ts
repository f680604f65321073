import { deepFreeze } from "../../../kit/src/deep-freeze.js";
import { ReadCache } from "../../../kit/src/read-cache.js";
import type { WriteCounter } from "../../../kit/src/store/write-counted.js";
import { OFFLINE_ACCESS_ROLE, type RoleRecord } from "./role.js";
import type { ClientRecord } from "./client.js";
import type { ClientScopeRecord, ProtocolMapperRecord, ScopeKind } from "./client-scope.js";
import type { ClientRepository } from "../store/client-repository.js";
import type { ClientScopeRepository } from "../store/client-scope-repository.js";
import type { ScopeAssignmentRepository } from "../store/scope-assignment-repository.js";
import type { RoleRepository } from "../store/role-repository.js";

/**
 * How long a client's token configuration is reused. A write through this process (client, scope,
 * assignment, mapper or role) makes every entry stale at once, and one through another directory
 * replica when its `token-config.changed` event arrives (token-config-events.ts); this bound
 * covers a replica that missed the event.
 */
export const CLIENT_TOKEN_CONFIG_MS = 5_000;

/** What every token of a client is built from, apart from the user (spec 2.8). Frozen: shared by requests. */
export interface ClientTokenConfig {
  client: ClientRecord;
  /** The client's assigned scopes with their kind, ordered by name. */
  scopes: Array<{ scope: ClientScopeRecord; kind: ScopeKind }>;
  /** The mappers of all assigned scopes, in creation order. */
  mappers: ProtocolMapperRecord[];
  /** The realm's offline_access role, which every user effectively holds (null if it was removed). */
  offline: RoleRecord | null;
}

/**
 * Client token configurations cached per (realm, client) for the login and token paths
 * (docs/performance.md: "caches client and realm configuration"). The user's own data (profile,
 * groups, role mappings) is read per request, never from here.
 */
export class ClientTokenConfigs {
  private readonly cache: ReadCache<ClientTokenConfig>;

  constructor(
    private readonly clients: ClientRepository,
    private readonly scopes: ClientScopeRepository,
    private readonly assignments: ScopeAssignmentRepository,
    private readonly roles: RoleRepository,
    /** Shared by the four repositories above. */
    private readonly writes: WriteCounter,
    now: () => number = () => performance.now(),
  ) {
    this.cache = new ReadCache(CLIENT_TOKEN_CONFIG_MS, now);
  }

  /** The client's configuration, or null when the realm has no such client (never cached). */
  get(realmId: string, clientId: string): Promise<ClientTokenConfig | null> {
    // Stamped with the write count read before the lookup: any write since makes the entry stale.
    return this.cache.get(`${realmId}\0${clientId}`, async () => {
      const config = await this.read(realmId, clientId);
      return config && deepFreeze(config);
    }, this.writes.value);
  }

  /**
   * As get, read from the store past the cache: for answers the caller caches itself
   * (GetClientCredentialVerifier, ResolveClaims with from_store), which must not carry an entry
   * older than a change this replica has not yet heard of.
   */
  async current(realmId: string, clientId: string): Promise<ClientTokenConfig | null> {
    const config = await this.read(realmId, clientId);
    return config && deepFreeze(config);
  }

  private async read(realmId: string, clientId: string): Promise<ClientTokenConfig | null> {
    const client = await this.clients.findByClientId(realmId, clientId);
    if (!client) return null;
    const assigned = await this.assignments.ofClient(realmId, client._id);
    const kinds = new Map(assigned.map((a) => [a.scopeId, a.kind]));
    const scopes = (await this.scopes.findScopesByIds(realmId, assigned.map((a) => a.scopeId)))
      .map((scope) => ({ scope, kind: kinds.get(scope._id)! }));
    const mappers = await this.scopes.mappersOf(realmId, scopes.map((s) => s.scope._id));
    const offline = await this.roles.findByName(realmId, "", OFFLINE_ACCESS_ROLE);
    return { client, scopes, mappers, offline };
  }
}
