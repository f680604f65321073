import { deepFreeze } from "../../../kit/src/deep-freeze.js";
import { ReadCache } from "../../../kit/src/read-cache.js";
import type { WriteCounter } from "../../../kit/src/store/write-counted.js";
import type { ResolvedClaims } from "./claims-resolver.js";

/**
 * How long a resolution is reused. A write through this process to a user's data or to a client's
 * token configuration makes every entry stale at once, and one through another directory replica
 * when its announcement arrives (claims-subject-events.ts, token-config-events.ts); this bound
 * covers a replica that missed one.
 */
export const RESOLVED_CLAIMS_MS = 5_000;

/**
 * Resolved claims per (realm, user, client, requested scopes) for the token and userinfo paths:
 * userinfo and refresh resolve the same user's claims again and again, and each resolution reads
 * the user, their memberships, groups, role mappings, roles and clients (about a quarter of a
 * userinfo request's CPU, by a profile). Entries are stamped with both write counts read before
 * the resolution, so one that overlapped a write is never trusted. Frozen: shared by requests.
 */
export class ResolvedClaimsCache {
  private readonly cache: ReadCache<ResolvedClaims>;

  constructor(
    private readonly subjectWrites: WriteCounter,
    private readonly configWrites: WriteCounter,
    now: () => number = () => performance.now(),
  ) {
    this.cache = new ReadCache(RESOLVED_CLAIMS_MS, now);
  }

  get(realmId: string, userId: string, clientId: string, requested: string[], onlyRequested: boolean, resolve: () => Promise<ResolvedClaims>): Promise<ResolvedClaims> {
    // Both counts only grow, so their sum changes whenever either does.
    const stamp = this.subjectWrites.value + this.configWrites.value;
    const key = `${realmId}\0${userId}\0${clientId}\0${onlyRequested ? 1 : 0}\0${requested.join(" ")}`;
    return this.cache.get(key, async () => deepFreeze(await resolve()), stamp) as Promise<ResolvedClaims>;
  }
}
