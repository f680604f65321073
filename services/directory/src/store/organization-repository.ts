import type { Collection, Filter, Store } from "../../../kit/src/store/port.js";
import type { OrganizationRecord } from "../domain/organization.js";

/** A realm's organizations; name and alias each unique per realm, listed in name order. */
export class OrganizationRepository {
  private constructor(private readonly organizations: Collection<OrganizationRecord>) {}

  static async open(store: Store): Promise<OrganizationRepository> {
    return new OrganizationRepository(await store.collection<OrganizationRecord>({
      name: "organizations",
      indexes: [
        { fields: ["realmId", "nameKey"], unique: true },
        { fields: ["realmId", "alias"], unique: true },
        // linkedTo: the organizations an identity provider is linked to (multikey in MongoDB).
        { fields: ["realmId", "identityProviders"], multikey: true },
      ],
    }));
  }

  /** A taken name or alias throws alreadyExists naming the index's first field after realmId. */
  insert(o: OrganizationRecord): Promise<void> {
    return this.organizations.insert(o);
  }

  findById(realmId: string, id: string): Promise<OrganizationRecord | null> {
    return this.organizations.findOne({ _id: id, realmId });
  }

  findByIds(realmId: string, ids: string[]): Promise<OrganizationRecord[]> {
    return ids.length ? this.organizations.find({ realmId, _id: { $in: ids } }, { sort: [["nameKey", 1]] }) : Promise.resolve([]);
  }

  findByAlias(realmId: string, alias: string): Promise<OrganizationRecord | null> {
    return this.organizations.findOne({ realmId, alias });
  }

  /** The organizations that list the identity provider `alias` (the broker's first login). */
  linkedTo(realmId: string, alias: string): Promise<OrganizationRecord[]> {
    return this.organizations.find({ realmId, identityProviders: { $includes: alias } }, { sort: [["nameKey", 1]], limit: 100 });
  }

  /** A page in name order of those matching `filter` (within the realm). */
  page(realmId: string, filter: Filter, skip: number, limit: number): Promise<OrganizationRecord[]> {
    return this.organizations.find({ ...filter, realmId }, { sort: [["nameKey", 1]], skip, limit });
  }

  count(realmId: string, filter: Filter): Promise<number> {
    return this.organizations.count({ ...filter, realmId });
  }

  listRealm(realmId: string): Promise<OrganizationRecord[]> {
    return this.organizations.find({ realmId }, { sort: [["nameKey", 1]] });
  }

  update(realmId: string, id: string, set: Partial<OrganizationRecord>): Promise<OrganizationRecord | null> {
    return this.organizations.findOneAndUpdate({ _id: id, realmId }, { $set: set });
  }

  delete(realmId: string, id: string): Promise<boolean> {
    return this.organizations.deleteMany({ _id: id, realmId }).then((n) => n > 0);
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.organizations.deleteMany({ realmId });
  }
}
