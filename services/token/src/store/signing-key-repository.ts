import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { SigningAlg } from "../domain/signing-alg.js";
import { activeSlot, type SigningKeyRecord } from "../domain/signing-key.js";

/** The token service's `signing_keys` collection, named by intent. */
export class SigningKeyRepository {
  private constructor(private readonly keys: Collection<SigningKeyRecord>) {}

  static async open(store: Store): Promise<SigningKeyRepository> {
    const keys = await store.collection<SigningKeyRecord>({
      name: "signing_keys",
      indexes: [
        { fields: ["slot"], unique: true },
        { fields: ["realmId", "status"] },
        { fields: ["status", "createdAt"] },
        { fields: ["realmName", "createdAt"] },
      ],
    });
    return new SigningKeyRepository(keys);
  }

  /** Throws IamError alreadyExists (field "slot") when the realm already has an active key of the alg. */
  insert(key: SigningKeyRecord): Promise<void> {
    return this.keys.insert(key);
  }

  /** The realm's published keys (active and passive), oldest first. */
  listPublished(realmId: string): Promise<SigningKeyRecord[]> {
    return this.keys.find({ realmId, status: { $in: ["active", "passive"] } }, { sort: [["createdAt", 1]] });
  }

  /** Every key of the realm, retired included, newest first. */
  listAll(realmId: string): Promise<SigningKeyRecord[]> {
    return this.keys.find({ realmId }, { sort: [["createdAt", -1]] });
  }

  findActive(realmId: string, alg: SigningAlg): Promise<SigningKeyRecord | null> {
    return this.keys.findOne({ slot: activeSlot(realmId, alg) });
  }

  /**
   * Demotes the named active key to passive, atomically (a conditional update): null when another
   * caller already rotated it away.
   */
  demote(kid: string, rotatedAt: number, notAfter: number): Promise<SigningKeyRecord | null> {
    return this.keys.findOneAndUpdate(
      { _id: kid, status: "active" },
      { $set: { status: "passive", slot: kid, rotatedAt, notAfter } },
    );
  }

  /** Active keys created at or before `createdBefore`, for scheduled rotation. */
  activeCreatedBefore(createdBefore: number, limit: number): Promise<SigningKeyRecord[]> {
    return this.keys.find({ status: "active", createdAt: { $lte: createdBefore } }, { sort: [["createdAt", 1]], limit });
  }

  /** Retires passive keys whose tokens have all expired; returns the retired keys' realm ids. */
  async retireExpired(now: number): Promise<string[]> {
    const due = await this.keys.find({ status: "passive", notAfter: { $lte: now } });
    const realms = new Set<string>();
    for (const k of due) {
      if (await this.keys.update({ _id: k._id, status: "passive" }, { $set: { status: "retired" } })) realms.add(k.realmId);
    }
    return [...realms];
  }

  /** The stored keys with these kids, whatever their realm (an import's kid collisions). */
  findByKids(kids: string[]): Promise<SigningKeyRecord[]> {
    return kids.length ? this.keys.find({ _id: { $in: kids } }) : Promise.resolve([]);
  }

  /**
   * Writes an imported key under its kid, taking over a record of the same kid left by the realm
   * it replaces (whose realm.deleted cascade, by the old realm id, then leaves it alone).
   */
  putImported(key: SigningKeyRecord): Promise<void> {
    return this.keys.upsert(key);
  }

  /** Drops a deleted realm's keys created up to `upTo` (a re-created realm keeps its new keys). */
  deleteRealm(realmId: string, upTo: number): Promise<number> {
    return this.keys.deleteMany({ realmId, createdAt: { $lte: upTo } });
  }
}
