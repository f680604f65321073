import type { Collection, Store } from "../../../kit/src/store/port.js";

/** A user's credential (spec 2.2 password): only the argon2id hash, in its own collection. */
export interface CredentialFields {
  realmId: string;
  userId: string;
  hash: string;
  temporary: boolean;
  createdAt: number;
}

export interface CredentialRecord {
  _id: string;
  realmId: string;
  userId: string;
  type: "password";
  hash: string;
  temporary: boolean;
  createdAt: number;
  [key: string]: unknown;
}

/** A past password hash, for the realm's passwordHistoryCount rule. */
export interface PasswordHistoryRecord {
  _id: string;
  realmId: string;
  userId: string;
  hash: string;
  createdAt: number;
  [key: string]: unknown;
}

/** Credentials and password history. The password credential's id is `<userId>:password`. */
export class CredentialRepository {
  private constructor(
    private readonly credentials: Collection<CredentialRecord>,
    private readonly history: Collection<PasswordHistoryRecord>,
  ) {}

  static async open(store: Store): Promise<CredentialRepository> {
    const credentials = await store.collection<CredentialRecord>({
      name: "credentials",
      indexes: [{ fields: ["realmId", "userId"] }],
    });
    const history = await store.collection<PasswordHistoryRecord>({
      name: "password_history",
      indexes: [{ fields: ["realmId", "userId", "createdAt"] }],
    });
    return new CredentialRepository(credentials, history);
  }

  findPassword(realmId: string, userId: string): Promise<CredentialRecord | null> {
    return this.credentials.findOne({ _id: passwordId(userId), realmId });
  }

  /** Replaces the user's password credential (one per user). */
  setPassword(c: CredentialFields): Promise<void> {
    return this.credentials.upsert({ ...c, _id: passwordId(c.userId), type: "password" });
  }

  /**
   * Swaps the stored hash only if it is still `from` (re-hash of an imported hash after a login,
   * DESIGN 5): a password changed meanwhile is never overwritten. Returns whether it swapped.
   */
  async replaceHash(realmId: string, userId: string, from: string, to: string): Promise<boolean> {
    return (await this.credentials.update({ _id: passwordId(userId), realmId, hash: from }, { $set: { hash: to } })) > 0;
  }

  /** The most recent `n` hashes, newest first. */
  recentHashes(realmId: string, userId: string, n: number): Promise<PasswordHistoryRecord[]> {
    if (n <= 0) return Promise.resolve([]);
    return this.history.find({ realmId, userId }, { sort: [["createdAt", -1], ["_id", -1]], limit: n });
  }

  /** Records a hash and keeps only the newest `keep` (0 keeps none). */
  async remember(entry: PasswordHistoryRecord, keep: number): Promise<void> {
    if (keep > 0) await this.history.insert(entry);
    const all = await this.history.find({ realmId: entry.realmId, userId: entry.userId }, { sort: [["createdAt", -1], ["_id", -1]] });
    const stale = all.slice(Math.max(keep, 0)).map((h) => h._id);
    if (stale.length) await this.history.deleteMany({ _id: { $in: stale } });
  }

  async deleteUser(realmId: string, userId: string): Promise<void> {
    await this.credentials.deleteMany({ realmId, userId });
    await this.history.deleteMany({ realmId, userId });
  }

  async deleteRealm(realmId: string): Promise<number> {
    const n = await this.credentials.deleteMany({ realmId });
    await this.history.deleteMany({ realmId });
    return n;
  }
}

function passwordId(userId: string): string {
  return `${userId}:password`;
}
