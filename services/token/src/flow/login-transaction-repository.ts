import type { Change, Collection, Store } from "../../../kit/src/store/port.js";
import type { LoginTransactionRecord } from "./login-transaction.js";

/** Login transactions (TTL collection `login_transactions`, owned by the browser flow). */
export class LoginTransactionRepository {
  private constructor(private readonly txs: Collection<LoginTransactionRecord>) {}

  static async open(store: Store): Promise<LoginTransactionRepository> {
    return new LoginTransactionRepository(await store.collection<LoginTransactionRecord>({
      name: "login_transactions",
      ttl: true,
      indexes: [{ fields: ["realmId", "createdAt"] }],
    }));
  }

  insert(tx: LoginTransactionRecord): Promise<void> {
    return this.txs.insert(tx);
  }

  find(realmId: string, id: string): Promise<LoginTransactionRecord | null> {
    return this.txs.findOne({ _id: id, realmId });
  }

  /** Moves the transaction on only from the step it was read at (two tabs cannot both advance it). */
  advance(tx: LoginTransactionRecord, set: Partial<LoginTransactionRecord>, unset: string[] = []): Promise<LoginTransactionRecord | null> {
    const change: Change = { $set: set };
    if (unset.length) change.$unset = unset;
    return this.txs.findOneAndUpdate({ _id: tx._id, realmId: tx.realmId, step: tx.step }, change);
  }

  /**
   * Removes the pending passkey challenge if it is still `challenge` (passkey-ceremony.ts): one
   * taker wins, so a challenge is verified at most once.
   */
  takeChallenge(tx: LoginTransactionRecord, challenge: string): Promise<LoginTransactionRecord | null> {
    return this.txs.findOneAndUpdate(
      { _id: tx._id, realmId: tx.realmId, step: tx.step, passkeyChallenge: challenge },
      { $unset: ["passkeyChallenge", "passkeyChallengeExpiresAt"] },
    );
  }

  /** Finishes the transaction: it can never be replayed. */
  async finish(tx: LoginTransactionRecord): Promise<boolean> {
    return (await this.txs.findOneAndDelete({ _id: tx._id, realmId: tx.realmId, step: tx.step })) !== null;
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.txs.deleteMany({ realmId });
  }
}
