import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { ServiceProviderRecord } from "../domain/service-provider.js";

/** The saml service's registered service providers, named by intent. */
export class ServiceProviderRepository {
  private constructor(private readonly sps: Collection<ServiceProviderRecord>) {}

  static async open(store: Store): Promise<ServiceProviderRepository> {
    const sps = await store.collection<ServiceProviderRecord>({
      name: "saml_service_providers",
      indexes: [{ fields: ["realmId", "entityId"], unique: true }, { fields: ["realmId", "createdAt"] }],
    });
    return new ServiceProviderRepository(sps);
  }

  /** Throws IamError alreadyExists when the realm already has an SP with this entityId. */
  insert(sp: ServiceProviderRecord): Promise<void> {
    return this.sps.insert(sp);
  }

  listByCreation(realmId: string): Promise<ServiceProviderRecord[]> {
    return this.sps.find({ realmId }, { sort: [["createdAt", 1]] });
  }

  findById(realmId: string, id: string): Promise<ServiceProviderRecord | null> {
    return this.sps.findOne({ _id: id, realmId });
  }

  findByEntityId(realmId: string, entityId: string): Promise<ServiceProviderRecord | null> {
    return this.sps.findOne({ realmId, entityId });
  }

  /** Applies the change; returns the SP after it, or null. Unique conflicts throw alreadyExists. */
  update(realmId: string, id: string, set: Partial<ServiceProviderRecord>, unset: string[]): Promise<ServiceProviderRecord | null> {
    return this.sps.findOneAndUpdate({ _id: id, realmId }, { $set: set, ...(unset.length ? { $unset: unset } : {}) });
  }

  deleteById(realmId: string, id: string): Promise<ServiceProviderRecord | null> {
    return this.sps.findOneAndDelete({ _id: id, realmId });
  }

  /** The records with these ids, whatever their realm (an import's id collisions). */
  findByIds(ids: string[]): Promise<ServiceProviderRecord[]> {
    return ids.length ? this.sps.find({ _id: { $in: ids } }) : Promise.resolve([]);
  }

  /** Writes an imported record under its kept id, taking over one left by the realm it replaces. */
  putImported(record: ServiceProviderRecord): Promise<void> {
    return this.sps.upsert(record);
  }

  /** A deleted realm's SPs created up to `upTo` (RealmDeleted). */
  deleteRealm(realmId: string, upTo: number): Promise<number> {
    return this.sps.deleteMany({ realmId, createdAt: { $lte: upTo } });
  }
}
