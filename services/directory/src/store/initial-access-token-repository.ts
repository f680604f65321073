import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** An initial access token as stored: the SHA-256 of its value, never the value. */
export interface InitialAccessTokenRecord extends Doc {
  realmId: string;
  tokenHash: string;
  /** Seconds from creation; 0 never expires. */
  expiration: number;
  count: number;
  remainingCount: number;
  createdAt: number;
  /** Absent when it never expires; the store hides and sweeps it once past. */
  expiresAt?: number;
}

/**
 * Initial access tokens (RFC 7591 section 3). A use is taken by one conditional update on the
 * remaining count, so concurrent registrations with a one-use token register exactly one client.
 */
export class InitialAccessTokenRepository {
  private constructor(private readonly tokens: Collection<InitialAccessTokenRecord>) {}

  static async open(store: Store): Promise<InitialAccessTokenRepository> {
    return new InitialAccessTokenRepository(await store.collection<InitialAccessTokenRecord>({
      name: "initial_access_tokens", ttl: true,
      indexes: [{ fields: ["tokenHash"], unique: true }, { fields: ["realmId", "createdAt"] }],
    }));
  }

  insert(record: InitialAccessTokenRecord): Promise<void> {
    return this.tokens.insert(record);
  }

  /** A page of the realm's tokens, oldest first. */
  list(realmId: string, first: number, max: number): Promise<InitialAccessTokenRecord[]> {
    return this.tokens.find({ realmId }, { sort: [["realmId", 1], ["createdAt", 1]], skip: first, limit: max });
  }

  findByHash(tokenHash: string): Promise<InitialAccessTokenRecord | null> {
    return this.tokens.findOne({ tokenHash });
  }

  /** Takes one use; null when the token is gone, expired or used up. */
  takeUse(tokenHash: string): Promise<InitialAccessTokenRecord | null> {
    return this.tokens.findOneAndUpdate({ tokenHash, remainingCount: { $gt: 0 } }, { $inc: { remainingCount: -1 } });
  }

  /** Gives back a use a registration took and then failed to complete. */
  async returnUse(id: string): Promise<void> {
    await this.tokens.update({ _id: id }, { $inc: { remainingCount: 1 } });
  }

  async delete(realmId: string, id: string): Promise<boolean> {
    return (await this.tokens.deleteMany({ _id: id, realmId })) > 0;
  }

  findById(realmId: string, id: string): Promise<InitialAccessTokenRecord | null> {
    return this.tokens.findOne({ _id: id, realmId });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.tokens.deleteMany({ realmId });
  }
}
