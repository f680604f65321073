import { IamError } from "../../../kit/src/errors.js";
import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** Whose access tokens a revocation by issue time covers: a user's (`sub`) or a client's (`azp`). */
export interface TokenHolder {
  kind: "user" | "client";
  /** The user's id, or the client's clientId (what `azp` holds: a re-created client's new tokens are not covered). */
  id: string;
}

/** What the deny list needs to know of a verified access token. */
export interface IssuedToken {
  jti: string;
  /** Epoch ms (access-token-id.ts). */
  issuedAt: number;
  userId: string;
  clientId: string;
}

/**
 * One of two kinds of revocation of signed access tokens, which stay valid JWTs until `exp`:
 * - a revoked token (RFC 7009 section 2), by `jti`, remembered until the token expires (`expiresAt`);
 * - a not-before mark of a user or client: every token issued to it at or before `notBefore`
 *   (epoch ms) is revoked (Keycloak's "not before" of a user or client). Written when a user is
 *   disabled or deleted, changes password or has every session revoked, and when a client is
 *   disabled or deleted. It has no expiry: the tokens it covers may have been issued under a
 *   longer accessTokenLifespan than the realm has when it is written (a lowered lifespan would
 *   otherwise bring them back), so it lives, one record per user or client, until the realm goes.
 */
export interface RevokedTokenRecord extends Doc {
  realmId: string;
  expiresAt?: number;
  notBefore?: number;
}

/**
 * The deny list of access tokens (DESIGN 5: access tokens cost no write when issued; only revoking
 * them writes). Both kinds live in one collection, keyed by `_id`, so checking a token against its
 * jti, its user and its client is one read by primary key (docs/performance.md: at most one extra read per
 * introspection or userinfo check). The collection keeps its first name, revoked_access_tokens.
 */
export class RevokedTokenRepository {
  private constructor(readonly tokens: Collection<RevokedTokenRecord>) {}

  static async open(store: Store): Promise<RevokedTokenRepository> {
    return new RevokedTokenRepository(await store.collection<RevokedTokenRecord>({
      name: "revoked_access_tokens", ttl: true, indexes: [{ fields: ["realmId"] }],
    }));
  }

  /** Revokes one token until it expires (RFC 7009). */
  add(realmId: string, jti: string, expiresAt: number): Promise<void> {
    return this.tokens.upsert({ _id: jtiKey(realmId, jti), realmId, expiresAt });
  }

  /**
   * Revokes every token issued to `holder` at or before `at`. The mark only moves forward: a
   * redelivered or late event of an earlier time never lowers it (conditional update, then
   * insert when there is none; an insert that finds one, raced or not, falls back to the
   * conditional update, which leaves a later mark alone).
   */
  async revokeIssuedUpTo(realmId: string, holder: TokenHolder, at: number): Promise<void> {
    const _id = holderKey(realmId, holder);
    if ((await this.tokens.update({ _id, notBefore: { $lt: at } }, { $set: { notBefore: at } })) > 0) return;
    try {
      await this.tokens.insert({ _id, realmId, notBefore: at });
    } catch (e) {
      if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
      await this.tokens.update({ _id, notBefore: { $lt: at } }, { $set: { notBefore: at } });
    }
  }

  /** The holder's not-before mark (epoch ms), if it has one. */
  async notBeforeOf(realmId: string, holder: TokenHolder): Promise<number | undefined> {
    return (await this.tokens.get(holderKey(realmId, holder)))?.notBefore;
  }

  /** Whether this one token is revoked (RFC 7009), by its jti alone: a get by primary key. */
  async isJtiRevoked(realmId: string, jti: string): Promise<boolean> {
    return (await this.tokens.get(jtiKey(realmId, jti))) !== null;
  }

  /** Whether the token is revoked by its jti, or by its user's or client's not-before mark: one read. */
  async isRevoked(realmId: string, token: IssuedToken): Promise<boolean> {
    const found = await this.tokens.find({ _id: { $in: [
      jtiKey(realmId, token.jti),
      holderKey(realmId, { kind: "user", id: token.userId }),
      holderKey(realmId, { kind: "client", id: token.clientId }),
    ] } });
    return found.some((r) => r.notBefore === undefined || token.issuedAt <= r.notBefore);
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.tokens.deleteMany({ realmId });
  }
}

function jtiKey(realmId: string, jti: string): string {
  return `${realmId}:${jti}`;
}

/** Never a jti key: a jti is a UUID, which has no ":". */
function holderKey(realmId: string, holder: TokenHolder): string {
  return `${realmId}:not-before:${holder.kind}:${holder.id}`;
}
