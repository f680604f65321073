import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** A revoked access token (RFC 7009 section 2), remembered by `jti` until the token expires. */
export interface RevokedTokenRecord extends Doc {
  realmId: string;
  expiresAt: number;
}

/** Access tokens cost no write when issued; only revoking one writes (this deny list). */
export class RevokedTokenRepository {
  private constructor(readonly tokens: Collection<RevokedTokenRecord>) {}

  static async open(store: Store): Promise<RevokedTokenRepository> {
    return new RevokedTokenRepository(await store.collection<RevokedTokenRecord>({
      name: "revoked_access_tokens", ttl: true, indexes: [{ fields: ["realmId"] }],
    }));
  }

  add(realmId: string, jti: string, expiresAt: number): Promise<void> {
    return this.tokens.upsert({ _id: `${realmId}:${jti}`, realmId, expiresAt });
  }

  async isRevoked(realmId: string, jti: string): Promise<boolean> {
    return (await this.tokens.get(`${realmId}:${jti}`)) !== null;
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.tokens.deleteMany({ realmId });
  }
}
