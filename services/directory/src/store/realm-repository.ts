import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { RealmRecord } from "../domain/realm.js";

/** The directory's realms collection, named by intent. */
export class RealmRepository {
  private constructor(private readonly realms: Collection<RealmRecord>) {}

  static async open(store: Store): Promise<RealmRepository> {
    const realms = await store.collection<RealmRecord>({
      name: "realms",
      indexes: [{ fields: ["name"], unique: true }, { fields: ["createdAt"] }],
    });
    return new RealmRepository(realms);
  }

  /** Throws IamError alreadyExists (field "name") when the name is taken. */
  insert(realm: RealmRecord): Promise<void> {
    return this.realms.insert(realm);
  }

  findByName(name: string): Promise<RealmRecord | null> {
    return this.realms.findOne({ name });
  }

  listByCreation(): Promise<RealmRecord[]> {
    return this.realms.find({}, { sort: [["createdAt", 1], ["_id", 1]] });
  }

  /** Applies the changes to the named realm; returns the realm after the change, or null. */
  updateByName(name: string, set: Partial<RealmRecord>, unset: string[] = []): Promise<RealmRecord | null> {
    return this.realms.findOneAndUpdate({ name }, { $set: set, ...(unset.length ? { $unset: unset } : {}) });
  }

  /** Deletes and returns the named realm, or null when there was none. */
  deleteByName(name: string): Promise<RealmRecord | null> {
    return this.realms.findOneAndDelete({ name });
  }
}
