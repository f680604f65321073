import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { ProviderRecord, SyncResultRecord } from "../domain/provider.js";

export type ScheduleField = "nextSyncAt" | "nextChangedSyncAt";
export interface SyncSchedule { nextSyncAt?: number; nextChangedSyncAt?: number; lastSyncStartedAt?: number }

/** The federation service's LDAP providers (spec 2.10), with their sync state and lease. */
export class ProviderRepository {
  private constructor(private readonly providers: Collection<ProviderRecord>) {}

  static async open(store: Store): Promise<ProviderRepository> {
    return new ProviderRepository(await store.collection<ProviderRecord>({
      name: "federation_providers",
      indexes: [
        { fields: ["realmId", "nameKey"], unique: true },
        { fields: ["realmId", "priority", "createdAt"] },
        { fields: ["nextSyncAt"] },
        { fields: ["nextChangedSyncAt"] },
      ],
    }));
  }

  /** Throws IamError alreadyExists when the realm has a provider of that name. */
  insert(p: ProviderRecord): Promise<void> {
    return this.providers.insert(p);
  }

  /** By priority (lower first, as Keycloak orders providers), then by creation. */
  listByPriority(realmId: string): Promise<ProviderRecord[]> {
    return this.providers.find({ realmId }, { sort: [["priority", 1], ["createdAt", 1]] });
  }

  findById(realmId: string, id: string): Promise<ProviderRecord | null> {
    return this.providers.findOne({ _id: id, realmId });
  }

  /** Providers of any realm by id: an imported document's ids must not belong to another realm. */
  findByIds(ids: string[]): Promise<ProviderRecord[]> {
    return ids.length ? this.providers.find({ _id: { $in: ids } }) : Promise.resolve([]);
  }

  /** Writes an imported provider under its kept id, taking over one left by the realm it replaces. */
  putImported(p: ProviderRecord): Promise<void> {
    return this.providers.upsert(p);
  }

  update(realmId: string, id: string, set: Partial<ProviderRecord>): Promise<ProviderRecord | null> {
    return this.providers.findOneAndUpdate({ _id: id, realmId }, { $set: set });
  }

  deleteById(realmId: string, id: string): Promise<ProviderRecord | null> {
    return this.providers.findOneAndDelete({ _id: id, realmId });
  }

  /** Providers whose periodic full or changed-entries sync is due (0 means never). */
  due(now: number): Promise<ProviderRecord[]> {
    return this.providers.find({
      $or: [{ nextSyncAt: { $gt: 0, $lte: now } }, { nextChangedSyncAt: { $gt: 0, $lte: now } }],
    }, { sort: [["createdAt", 1]], limit: 100 });
  }

  /**
   * Takes the provider's sync lease for `holder` until `until`, when it is free or expired (its
   * holder died) or already this holder's. One conditional update: two replicas asking at once
   * cannot both get it. `due`: only while that periodic sync is due by then.
   */
  takeLease(id: string, holder: string, now: number, until: number, due?: { field: ScheduleField; by: number }): Promise<ProviderRecord | null> {
    return this.providers.findOneAndUpdate({
      _id: id,
      ...(due ? { [due.field]: { $gt: 0, $lte: due.by } } : {}),
      $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lte: now } }, { leaseHolder: holder }],
    }, { $set: { leaseHolder: holder, leaseUntil: until } });
  }

  /** Extends a lease this holder still has; false when it was lost (taken over after expiry). */
  async renewLease(id: string, holder: string, until: number): Promise<boolean> {
    return (await this.providers.update({ _id: id, leaseHolder: holder }, { $set: { leaseUntil: until } })) > 0;
  }

  /** Records the run and its next schedule, and gives the lease back. */
  async finishSync(id: string, holder: string, result: SyncResultRecord | undefined, schedule: SyncSchedule): Promise<void> {
    const set = Object.fromEntries(Object.entries(schedule).filter(([, v]) => v !== undefined));
    await this.providers.update({ _id: id, leaseHolder: holder }, {
      $set: { ...(result ? { lastSync: result } : {}), ...set }, $unset: ["leaseHolder", "leaseUntil"],
    });
  }

  async releaseLease(id: string, holder: string): Promise<void> {
    await this.providers.update({ _id: id, leaseHolder: holder }, { $unset: ["leaseHolder", "leaseUntil"] });
  }

  deleteRealm(realmId: string, upTo: number): Promise<number> {
    return this.providers.deleteMany({ realmId, createdAt: { $lte: upTo } });
  }
}
