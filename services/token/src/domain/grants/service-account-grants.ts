import type { Clock } from "../../../../kit/src/store/port.js";
import type { ClientInfo } from "../client-directory.js";
import type { OAuthRealm } from "../realm-settings.js";
import type { ScopeGrant } from "../token-minter.js";

/**
 * How long a client_credentials grant (service-account user + resolved scope and claims) is
 * reused when no event drops it first. Every write that changes a grant drops entries at once, in
 * every replica (cache-watchers.ts): client updates (incl. disable, delete, secret regeneration);
 * changes to roles, client scopes, protocol mappers and scope assignments; realm updates and
 * deletion; deletion or disabling of a user of the realm; a service account's profile, role
 * mappings or group memberships, and a group's role mappings, name or deletion. This age bounds
 * only what a replica that missed such a message (a rolling upgrade, a publish that failed after
 * its write) keeps serving.
 */
export const SERVICE_ACCOUNT_GRANT_TTL_MS = 10_000;

export interface ServiceAccountGrant {
  userId: string;
  grant: ScopeGrant;
}

interface Entry extends ServiceAccountGrant {
  realmId: string;
  /** The client's internal id: a client deleted and re-created under the same clientId misses. */
  clientUid: string;
  at: number;
}

/**
 * Cache of client_credentials grants per (realm, client, requested scope). Only for
 * client_credentials, whose subject is the client's own service account: user logins (password,
 * code, refresh, device) resolve their claims per request and are never served from here.
 */
export class ServiceAccountGrants {
  private readonly cache = new Map<string, Entry>();
  /** Bumped by invalidate: a resolution that started before an invalidation must not be stored. */
  private generationCounter = 0;

  constructor(private readonly clock: Clock, private readonly ttlMs = SERVICE_ACCOUNT_GRANT_TTL_MS, private readonly maxEntries = 10_000) {}

  get(realm: OAuthRealm, client: ClientInfo, scope: string[] | undefined): ServiceAccountGrant | undefined {
    const key = keyOf(realm.name, client.clientId, scope);
    const hit = this.cache.get(key);
    if (!hit) return undefined;
    if (hit.realmId !== realm.id || hit.clientUid !== client.id || this.clock.now() - hit.at >= this.ttlMs) {
      this.cache.delete(key);
      return undefined;
    }
    return hit;
  }

  /** The current generation, to pass back to `set`. */
  generation(): number {
    return this.generationCounter;
  }

  set(realm: OAuthRealm, client: ClientInfo, scope: string[] | undefined, value: ServiceAccountGrant, generation: number): void {
    if (generation !== this.generationCounter) return;
    // Requested scopes are caller-chosen: bound the map so varied scope strings cannot grow it.
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(keyOf(realm.name, client.clientId, scope), {
      ...value, realmId: realm.id, clientUid: client.id, at: this.clock.now(),
    });
  }

  /** Drops the realm's entries, only the client's, or (no realm) all. */
  invalidate(realmName?: string, clientId?: string): void {
    this.generationCounter++;
    const prefix = realmName === undefined ? "" : clientId === undefined ? `${realmName}\0` : `${realmName}\0${clientId}\0`;
    for (const key of this.cache.keys()) if (key.startsWith(prefix)) this.cache.delete(key);
  }
}

function keyOf(realm: string, clientId: string, scope: string[] | undefined): string {
  // undefined (the client's defaults) differs from an explicit empty scope only in name; keep apart.
  return `${realm}\0${clientId}\0${scope === undefined ? "\u0001" : scope.join(" ")}`;
}
