import type { Collection, Store } from "../../../kit/src/store/port.js";
import { deepFreeze } from "../../../kit/src/deep-freeze.js";
import { ReadCache } from "../../../kit/src/read-cache.js";
import type { RealmRecord } from "../domain/realm.js";

/**
 * How long a realm read by name is reused. Every login, token and admin call of a realm starts with
 * this read (a code flow made five), so it is cached the way the token service caches realm
 * settings (docs/performance.md). A write through this process drops the entry at once;
 * one through another directory replica drops it here when its realm event arrives
 * (events/realm-cache-watcher.ts), and shows within this bound should the event be missed.
 */
export const REALM_CACHE_MS = 5_000;

/** A staging realm (an import not finished) is invisible to every lookup by name and to the list. */
const VISIBLE = { importHeartbeatAt: { $exists: false } } as const;

/** One repository per store: every slice of the directory then shares one cache and its invalidation. */
const perStore = new WeakMap<Store, Promise<RealmRepository>>();

/**
 * The directory's realms collection, named by intent. Realms served from the cache are frozen: a
 * caller that wants a changed realm writes it through `updateByName`.
 */
export class RealmRepository {
  private readonly cache: ReadCache<RealmRecord>;

  private constructor(private readonly realms: Collection<RealmRecord>, now: () => number) {
    this.cache = new ReadCache(REALM_CACHE_MS, now);
  }

  /** The store's one repository; `now` (the cache's clock, for tests) is taken from the first open. */
  static open(store: Store, now: () => number = () => performance.now()): Promise<RealmRepository> {
    let repo = perStore.get(store);
    if (!repo) {
      repo = store.collection<RealmRecord>({
        name: "realms",
        indexes: [{ fields: ["name"], unique: true }, { fields: ["createdAt"] }, { fields: ["importHeartbeatAt"] }],
      }).then((realms) => new RealmRepository(realms, now));
      perStore.set(store, repo);
    }
    return repo;
  }

  /** Throws IamError alreadyExists (field "name") when the name is taken. */
  async insert(realm: RealmRecord): Promise<void> {
    this.drop(realm.name);
    await this.realms.insert(realm);
  }

  /** The realm, from the cache when read within REALM_CACHE_MS. An unknown name is never cached. */
  findByName(name: string): Promise<RealmRecord | null> {
    return this.cache.get(name, async () => {
      const realm = await this.realms.findOne({ name, ...VISIBLE });
      return realm && deepFreeze(realm);
    });
  }

  /**
   * The realm as the store has it now, past the cache: for the internal RPCs whose callers cache
   * the answer (GetRealm, GetClientCredentialVerifier, ...). An answer from this replica's cache,
   * older than an event the caller has already acted on, would be kept by the caller as fresh.
   */
  async findCurrentByName(name: string): Promise<RealmRecord | null> {
    const realm = await this.realms.findOne({ name, ...VISIBLE });
    return realm && deepFreeze(realm);
  }

  /** The realm with this id, from the store (no cache), or null. */
  findById(id: string): Promise<RealmRecord | null> {
    return this.realms.get(id);
  }

  listByCreation(): Promise<RealmRecord[]> {
    return this.realms.find({ ...VISIBLE }, { sort: [["createdAt", 1], ["_id", 1]] });
  }

  /** One page of the list, its name or display name holding `search` (case-insensitive) when given. */
  pageByCreation(search: string, skip: number, limit: number): Promise<RealmRecord[]> {
    const filter = search === ""
      ? { ...VISIBLE }
      : { ...VISIBLE, $or: [{ name: { $contains: search } }, { displayName: { $contains: search } }] };
    return this.realms.find(filter, { sort: [["createdAt", 1], ["_id", 1]], skip, limit });
  }

  /** The realm record under this name whatever its state: a staging import's too. */
  findAnyByName(name: string): Promise<RealmRecord | null> {
    return this.realms.findOne({ name });
  }

  /** Imports in progress (staging realms) whose importer last showed life at or before `before`. */
  listStaging(before: number): Promise<RealmRecord[]> {
    return this.realms.find({ importHeartbeatAt: { $lte: before } }, { sort: [["importHeartbeatAt", 1]] });
  }

  /** Extends a staging realm's lease; false when it is no longer staging (finished or rolled back). */
  async heartbeat(id: string, now: number): Promise<boolean> {
    return (await this.realms.update({ _id: id, importHeartbeatAt: { $exists: true } }, { $set: { importHeartbeatAt: now } })) === 1;
  }

  /** Makes a staging realm the realm, atomically; null when it was rolled back meanwhile. */
  async finishImport(id: string, now: number): Promise<RealmRecord | null> {
    const realm = await this.realms.findOneAndUpdate(
      { _id: id, importHeartbeatAt: { $exists: true } }, { $unset: ["importHeartbeatAt"], $set: { updatedAt: now } },
    );
    if (realm) this.drop(realm.name);
    return realm;
  }

  /** Applies the changes to the named realm; returns the realm after the change, or null. */
  async updateByName(name: string, set: Partial<RealmRecord>, unset: string[] = []): Promise<RealmRecord | null> {
    this.drop(name);
    try {
      return await this.realms.findOneAndUpdate({ name }, { $set: set, ...(unset.length ? { $unset: unset } : {}) });
    } finally {
      this.drop(name);
    }
  }

  /**
   * Writes the realm's text overrides if no other write changed them since `revision` was read
   * (0: never written), bumping the revision; null when one did. A compare-and-set, so two admins
   * changing texts at once cannot lose either change (RealmAdmin.changeLocalizationTexts retries).
   */
  async updateLocalization(name: string, revision: number, set: Partial<RealmRecord>): Promise<RealmRecord | null> {
    this.drop(name);
    try {
      const seen = revision === 0 ? { localizationRevision: { $exists: false } } : { localizationRevision: revision };
      return await this.realms.findOneAndUpdate({ name, ...seen }, { $set: { ...set, localizationRevision: revision + 1 } });
    } finally {
      this.drop(name);
    }
  }

  /**
   * Deletes and returns the named realm if it is still the one with this id (not one recreated
   * under the name since it was read), or null.
   */
  async deleteByNameAndId(name: string, id: string): Promise<RealmRecord | null> {
    this.drop(name);
    try {
      return await this.realms.findOneAndDelete({ name, _id: id });
    } finally {
      this.drop(name);
    }
  }

  /** Drops the cached realm, or (no name) every cached realm: changed through another replica. */
  forget(name?: string): void {
    if (name === undefined) this.cache.dropWhere("");
    else this.drop(name);
  }

  private drop(name: string): void {
    this.cache.drop(name);
  }
}
