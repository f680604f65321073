import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { IdentityProviderRecord } from "../domain/identity-provider.js";

/** A realm's identity providers, named by intent. */
export class ProviderRepository {
  private constructor(private readonly providers: Collection<IdentityProviderRecord>) {}

  static async open(store: Store): Promise<ProviderRepository> {
    const providers = await store.collection<IdentityProviderRecord>({
      name: "broker_identity_providers",
      indexes: [{ fields: ["realmId", "alias"], unique: true }, { fields: ["realmId", "createdAt"] },
        // The login page lists a realm's enabled providers on every render.
        { fields: ["realmId", "enabled", "createdAt"] }],
    });
    return new ProviderRepository(providers);
  }

  /** Throws IamError alreadyExists when the realm already has a provider with this alias. */
  insert(p: IdentityProviderRecord): Promise<void> {
    return this.providers.insert(p);
  }

  listByCreation(realmId: string): Promise<IdentityProviderRecord[]> {
    return this.providers.find({ realmId }, { sort: [["createdAt", 1]] });
  }

  listEnabled(realmId: string): Promise<IdentityProviderRecord[]> {
    return this.providers.find({ realmId, enabled: true }, { sort: [["createdAt", 1]] });
  }

  findById(realmId: string, id: string): Promise<IdentityProviderRecord | null> {
    return this.providers.findOne({ _id: id, realmId });
  }

  findByAlias(realmId: string, alias: string): Promise<IdentityProviderRecord | null> {
    return this.providers.findOne({ realmId, alias });
  }

  /** Providers of any realm by id: an imported document's ids must not belong to another realm. */
  findByIds(ids: string[]): Promise<IdentityProviderRecord[]> {
    return ids.length ? this.providers.find({ _id: { $in: ids } }) : Promise.resolve([]);
  }

  /** Writes an imported provider under its kept id, taking over one left by the realm it replaces. */
  putImported(p: IdentityProviderRecord): Promise<void> {
    return this.providers.upsert(p);
  }

  update(realmId: string, id: string, set: Partial<IdentityProviderRecord>, unset: string[]): Promise<IdentityProviderRecord | null> {
    return this.providers.findOneAndUpdate({ _id: id, realmId }, { $set: set, ...(unset.length ? { $unset: unset } : {}) });
  }

  deleteById(realmId: string, id: string): Promise<IdentityProviderRecord | null> {
    return this.providers.findOneAndDelete({ _id: id, realmId });
  }

  /** A deleted realm's providers created up to `upTo` (RealmDeleted). */
  deleteRealm(realmId: string, upTo: number): Promise<number> {
    return this.providers.deleteMany({ realmId, createdAt: { $lte: upTo } });
  }
}
