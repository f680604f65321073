import { MAX_PASSKEYS_PER_USER } from "../../../kit/src/realm-transfer/document-format.js";
import type { Collection, Store } from "../../../kit/src/store/port.js";

/**
 * WebAuthn credentials (passkeys, WebAuthn Level 2 section 4 "Public Key Credential Source" as the
 * relying party keeps it): the credential id (base64url, unique per realm: an assertion names only
 * it), the COSE public key (base64url), the signature counter, transports, and when it was made
 * and last used. Public keys are not secrets; nothing here is sealed.
 */
export interface PasskeyRecord {
  _id: string;
  realmId: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
  label: string;
  backedUp: boolean;
  createdAt: number;
  lastUsedAt: number;
  [key: string]: unknown;
}

// A user keeps at most MAX_PASSKEYS_PER_USER passkeys (each one is an allowCredentials entry of a
// second factor); the realm export's schema holds the number, so an import can never exceed it.
export { MAX_PASSKEYS_PER_USER };

export class PasskeyRepository {
  private constructor(private readonly keys: Collection<PasskeyRecord>) {}

  static async open(store: Store): Promise<PasskeyRepository> {
    return new PasskeyRepository(await store.collection<PasskeyRecord>({
      name: "passkey_credentials",
      indexes: [{ fields: ["realmId", "credentialId"], unique: true }, { fields: ["realmId", "userId", "createdAt"] }],
    }));
  }

  /** Throws IamError alreadyExists when the credential id is registered in the realm already. */
  insert(record: PasskeyRecord): Promise<void> {
    return this.keys.insert(record);
  }

  listByUser(realmId: string, userId: string): Promise<PasskeyRecord[]> {
    return this.keys.find({ realmId, userId }, { sort: [["createdAt", 1]], limit: MAX_PASSKEYS_PER_USER });
  }

  countByUser(realmId: string, userId: string): Promise<number> {
    return this.keys.count({ realmId, userId });
  }

  findByCredentialId(realmId: string, credentialId: string): Promise<PasskeyRecord | null> {
    return this.keys.findOne({ realmId, credentialId });
  }

  find(realmId: string, userId: string, id: string): Promise<PasskeyRecord | null> {
    return this.keys.findOne({ _id: id, realmId, userId });
  }

  /**
   * Records a use with its signature counter (WebAuthn section 7.2 step 21): when either counter is
   * non-zero the new one must be greater than the stored one, checked in the update's filter so
   * two assertions racing with one counter value cannot both pass. False: a regression (a cloned
   * authenticator, or a replayed assertion), or the passkey is gone.
   */
  async recordUse(record: PasskeyRecord, newCount: number, now: number): Promise<boolean> {
    const counter = newCount === 0 && record.signCount === 0 ? { signCount: 0 } : { signCount: { $lt: newCount } };
    const n = await this.keys.update({ _id: record._id, realmId: record.realmId, ...counter }, { $set: { signCount: newCount, lastUsedAt: now } });
    return n > 0;
  }

  async delete(realmId: string, userId: string, id: string): Promise<boolean> {
    return (await this.keys.deleteMany({ _id: id, realmId, userId })) > 0;
  }

  async deleteUser(realmId: string, userId: string): Promise<boolean> {
    return (await this.keys.deleteMany({ realmId, userId })) > 0;
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.keys.deleteMany({ realmId });
  }
}
