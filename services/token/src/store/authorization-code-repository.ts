import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { AuthorizationCodeRecord } from "../domain/authorization-code.js";

/** Authorization codes, stored under the SHA-256 of the code. */
export class AuthorizationCodeRepository {
  private constructor(readonly codes: Collection<AuthorizationCodeRecord>) {}

  static async open(store: Store): Promise<AuthorizationCodeRepository> {
    return new AuthorizationCodeRepository(await store.collection<AuthorizationCodeRecord>({
      name: "authorization_codes",
      ttl: true,
      indexes: [{ fields: ["realmId", "ssoSessionId"] }],
    }));
  }

  insert(code: AuthorizationCodeRecord): Promise<void> {
    return this.codes.insert(code);
  }

  /**
   * Marks the code consumed if it was not: the atomic "consume once" (DESIGN 4). Returns the code
   * when this call consumed it; null when it was unknown or already consumed (see findByHash).
   * The same write records the access token about to be issued, so a replay can revoke it without
   * a second write per issue (RFC 6749 section 4.1.2). Staged (Collection.stageFindOneAndUpdate):
   * `durable`, called after the refresh family's write, costs no flush of its own.
   */
  async consume(codeHash: string, now: number, access: { jti: string; expiresAt: number }): Promise<{ record: AuthorizationCodeRecord | null; durable: () => Promise<void> }> {
    const staged = await this.codes.stageFindOneAndUpdate(
      { _id: codeHash, consumedAt: { $exists: false } },
      { $set: { consumedAt: now, issuedAccessJti: access.jti, issuedAccessExpiresAt: access.expiresAt } },
    );
    return { record: staged.doc, durable: () => staged.durable };
  }

  findByHash(codeHash: string): Promise<AuthorizationCodeRecord | null> {
    return this.codes.get(codeHash);
  }

  /** Records a refused second redemption, which the first one checks once its family exists. */
  async markReplayed(codeHash: string, now: number): Promise<void> {
    await this.codes.update({ _id: codeHash }, { $set: { replayedAt: now } });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.codes.deleteMany({ realmId });
  }
}
