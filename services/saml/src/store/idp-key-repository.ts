import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { IdpKeyRecord } from "../domain/idp-key.js";

/** The saml service's signing keys, named by intent. */
export class IdpKeyRepository {
  private constructor(private readonly keys: Collection<IdpKeyRecord>) {}

  static async open(store: Store): Promise<IdpKeyRepository> {
    const keys = await store.collection<IdpKeyRecord>({
      name: "saml_idp_keys",
      indexes: [{ fields: ["slot"], unique: true }, { fields: ["realmId", "createdAt"] }],
    });
    return new IdpKeyRepository(keys);
  }

  findActive(realmId: string): Promise<IdpKeyRecord | null> {
    return this.keys.findOne({ slot: realmId });
  }

  findById(realmId: string, id: string): Promise<IdpKeyRecord | null> {
    return this.keys.findOne({ realmId, _id: id });
  }

  /** Throws IamError alreadyExists when the realm already has an active key. */
  insert(key: IdpKeyRecord): Promise<void> {
    return this.keys.insert(key);
  }

  /** Active and passive keys not yet retired at `now`, newest first. */
  findPublished(realmId: string, now: number): Promise<IdpKeyRecord[]> {
    return this.keys.find(
      { realmId, $or: [{ status: "ACTIVE" }, { status: "PASSIVE", retiresAt: { $gt: now } }] },
      { sort: [["createdAt", -1]] },
    );
  }

  /** Rotates `key` out of the active slot; false when another rotation already did. */
  async demote(key: IdpKeyRecord, retiresAt: number): Promise<boolean> {
    const n = await this.keys.update(
      { _id: key._id, slot: key.realmId },
      { $set: { slot: `passive:${key._id}`, status: "PASSIVE", retiresAt } },
    );
    return n === 1;
  }

  deleteRetired(realmId: string, now: number): Promise<number> {
    return this.keys.deleteMany({ realmId, status: "PASSIVE", retiresAt: { $lte: now } });
  }

  /** The records with these ids, whatever their realm (an import's id collisions). */
  findByIds(ids: string[]): Promise<IdpKeyRecord[]> {
    return ids.length ? this.keys.find({ _id: { $in: ids } }) : Promise.resolve([]);
  }

  /** Writes an imported record under its kept id, taking over one left by the realm it replaces. */
  putImported(record: IdpKeyRecord): Promise<void> {
    return this.keys.upsert(record);
  }

  /** A deleted realm's keys created up to `upTo` (RealmDeleted). */
  deleteRealm(realmId: string, upTo: number): Promise<number> {
    return this.keys.deleteMany({ realmId, createdAt: { $lte: upTo } });
  }
}
