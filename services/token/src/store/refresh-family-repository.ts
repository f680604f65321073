import type { Collection, Filter, Store } from "../../../kit/src/store/port.js";
import { REMEMBERED_GENERATIONS, type RefreshFamilyRecord } from "../domain/refresh-family.js";

/** Refresh token families (OAuth and offline sessions); they expire by `expiresAt`. */
export class RefreshFamilyRepository {
  private constructor(readonly families: Collection<RefreshFamilyRecord>) {}

  static async open(store: Store): Promise<RefreshFamilyRepository> {
    return new RefreshFamilyRepository(await store.collection<RefreshFamilyRecord>({
      name: "refresh_families",
      ttl: true,
      // Equality fields, then the sort (`list` orders by createdAt): with the sort field in the same
      // index, a store's planner has no reason to prefer a realm-wide index and walk every family
      // of the realm to find one session's or one user's (SQLite did, without statistics). A
      // client's families, up to a time, go together when the client is deleted or disabled.
      // The realm's OAuth sessions (spec 4.7) are its families with offline false, oldest first:
      // with `offline` in the index the page is read directly, not filtered out of the realm's
      // offline families. It replaces (realmId, createdAt), which served only that listing (a
      // realm's deletion takes any realmId prefix). `offline` is in the user's and the session's
      // indexes too, before createdAt: their lookups name it (a user's online or offline sessions,
      // a session's online families), and SQLite, which has no statistics, would otherwise weigh
      // (realmId, offline) as (realmId, userId) and might read a realm's online families for one
      // user's. Four indexes as before (and `expiresAt`), so a family costs no extra write;
      // the replaced ones are dropped from stores created before.
      indexes: [
        { fields: ["realmId", "userId", "offline", "createdAt"] },
        { fields: ["realmId", "ssoSessionId", "offline", "createdAt"] },
        { fields: ["realmId", "clientId", "createdAt"] },
        { fields: ["realmId", "offline", "createdAt"] },
      ],
      retiredIndexes: ["realmId_1_userId_1_createdAt_1", "realmId_1_ssoSessionId_1_createdAt_1", "realmId_1_createdAt_1"],
    }));
  }

  insert(f: RefreshFamilyRecord): Promise<void> {
    return this.families.insert(f);
  }

  get(realmId: string, id: string): Promise<RefreshFamilyRecord | null> {
    return this.families.findOne({ _id: id, realmId });
  }

  /** Those of `ids` still stored (a revoke-all finished by the outbox relay: what is left of its list). */
  async listByIds(realmId: string, ids: string[]): Promise<RefreshFamilyRecord[]> {
    return ids.length === 0 ? [] : this.families.find({ _id: { $in: ids }, realmId });
  }

  /**
   * Rotates the family from its current hash (as read in `f`) to `toHash` and `generation` if that
   * hash is still current: the atomic "consume once" of a refresh token (DESIGN 4). Null when
   * another request rotated it first. Only a family started before generations keeps the hash it
   * leaves (its tokens cannot prove their generation); its first rotation gives it one.
   */
  rotate(f: RefreshFamilyRecord, toHash: string, generation: number, now: number, expiresAt: number): Promise<RefreshFamilyRecord | null> {
    const previousHashes = f.generation === undefined ? [f.currentHash, ...f.previousHashes].slice(0, REMEMBERED_GENERATIONS) : f.previousHashes;
    return this.families.findOneAndUpdate(
      { _id: f._id, realmId: f.realmId, currentHash: f.currentHash },
      { $set: { currentHash: toHash, generation, previousHashes, lastRefreshAt: now, expiresAt } },
    );
  }

  /** Deletes and returns the family: the one place a family ends (besides its client's end, removeClient). */
  remove(realmId: string, id: string): Promise<RefreshFamilyRecord | null> {
    return this.families.findOneAndDelete({ _id: id, realmId });
  }

  /** Deletes a client's families started at or before `upTo` (the client was deleted or disabled). */
  removeClient(realmId: string, clientId: string, upTo: number): Promise<number> {
    return this.families.deleteMany({ realmId, clientId, createdAt: { $lte: upTo } });
  }

  /** Families oldest first; `createdUpTo` keeps those started at or before it (epoch ms), a range on the indexes' createdAt. */
  list(filter: { realmId: string; userId?: string; ssoSessionId?: string; offline?: boolean; clientId?: string; createdUpTo?: number }): Promise<RefreshFamilyRecord[]> {
    const f: Filter = { realmId: filter.realmId };
    if (filter.userId !== undefined) f.userId = filter.userId;
    if (filter.ssoSessionId !== undefined) f.ssoSessionId = filter.ssoSessionId;
    if (filter.offline !== undefined) f.offline = filter.offline;
    if (filter.clientId !== undefined) f.clientId = filter.clientId;
    if (filter.createdUpTo !== undefined) f.createdAt = { $lte: filter.createdUpTo };
    return this.families.find(f, { sort: [["createdAt", 1]] });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.families.deleteMany({ realmId });
  }
}
