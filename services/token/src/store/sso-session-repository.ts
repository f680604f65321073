import type { Collection, Filter, Store } from "../../../kit/src/store/port.js";
import type { SsoSessionRecord } from "../domain/sso-session.js";

/** SSO sessions (expire by `expiresAt`). Ending one goes through SsoSessions (events). */
export class SsoSessionRepository {
  private constructor(readonly sessions: Collection<SsoSessionRecord>) {}

  static async open(store: Store): Promise<SsoSessionRepository> {
    return new SsoSessionRepository(await store.collection<SsoSessionRecord>({
      name: "sso_sessions",
      ttl: true,
      // (realmId, userId, createdAt): a user's sessions come sorted by createdAt, and bounded by it
      // (those up to a password change), so the field belongs in the index, or SQLite walks the
      // realm's sessions through (realmId, createdAt).
      indexes: [
        { fields: ["cookieHash"], unique: true },
        { fields: ["realmId", "userId", "createdAt"] },
        { fields: ["realmId", "createdAt"] },
        // A deleted client's sessions (forgetClient): MongoDB finds them by element; SQLite cannot
        // index one (IndexSpec.multikey) and tests clientIds within the realm's sessions.
        { fields: ["realmId", "clientIds"], multikey: true },
      ],
    }));
  }

  insert(session: SsoSessionRecord): Promise<void> {
    return this.sessions.insert(session);
  }

  /**
   * Inserts ahead of the caller's next write, which makes it durable too (Collection.stage);
   * `durable` looked at after that write costs no flush of its own.
   */
  stage(session: SsoSessionRecord): Promise<{ durable: Promise<void> }> {
    return this.sessions.stage(session);
  }

  findById(realmId: string, id: string): Promise<SsoSessionRecord | null> {
    return this.sessions.findOne({ _id: id, realmId });
  }

  /** Those of `ids` still stored (a revoke-all finished by the outbox relay: what is left of its list). */
  async listByIds(realmId: string, ids: string[]): Promise<SsoSessionRecord[]> {
    return ids.length === 0 ? [] : this.sessions.find({ _id: { $in: ids }, realmId });
  }

  findByCookieHash(realmId: string, cookieHash: string): Promise<SsoSessionRecord | null> {
    return this.sessions.findOne({ cookieHash, realmId });
  }

  /**
   * A user's sessions, oldest first; with `createdUpTo`, only those created at or before it (epoch
   * ms): the bound is a range on the index's last field, so the sessions created later are never read.
   */
  listByUser(realmId: string, userId: string, createdUpTo?: number): Promise<SsoSessionRecord[]> {
    const filter: Filter = { realmId, userId };
    if (createdUpTo !== undefined) filter.createdAt = { $lte: createdUpTo };
    return this.sessions.find(filter, { sort: [["createdAt", 1], ["_id", 1]] });
  }

  /**
   * Records use by a client and slides the idle expiry; returns the session or null if gone. One
   * atomic write ($addToSet): two clients logging in on one session at once both land in clientIds,
   * so both get the back-channel logout.
   */
  touch(realmId: string, id: string, clientId: string | undefined, now: number, expiresAt: number): Promise<SsoSessionRecord | null> {
    return this.sessions.findOneAndUpdate({ _id: id, realmId }, {
      $set: { lastSeenAt: now, expiresAt }, ...(clientId ? { $addToSet: { clientIds: clientId } } : {}),
    });
  }

  /**
   * Moves the session's end to `expiresAt` unless it already lies there or later (a racing refresh
   * or login moved it), and returns the session as it then is; null when it has ended. One
   * conditional update by primary key, so an ended session (deleted, or expired and so invisible to
   * writes) is never brought back; the read only follows a lost race.
   */
  async extend(realmId: string, id: string, now: number, expiresAt: number): Promise<SsoSessionRecord | null> {
    const moved = await this.sessions.findOneAndUpdate({ _id: id, realmId, expiresAt: { $lt: expiresAt } }, { $set: { lastSeenAt: now, expiresAt } });
    return moved ?? this.findById(realmId, id);
  }

  /** Records a fresh interactive authentication in the session (prompt=login, max_age). */
  reauthenticate(realmId: string, id: string, authTime: number, amr: string[], now: number, expiresAt: number): Promise<SsoSessionRecord | null> {
    return this.sessions.findOneAndUpdate({ _id: id, realmId }, { $set: { authTime, amr, lastSeenAt: now, expiresAt } });
  }

  /**
   * Takes a deleted client out of every session of the realm that names it, in one write ($pull),
   * so a login racing the deletion cannot lose another client's entry; returns how many it changed.
   */
  forgetClient(realmId: string, clientId: string): Promise<number> {
    return this.sessions.update({ realmId, clientIds: { $includes: clientId } }, { $pull: { clientIds: clientId } });
  }

  /** Deletes and returns the session (null when already gone): the one place a session ends. */
  remove(realmId: string, id: string): Promise<SsoSessionRecord | null> {
    return this.sessions.findOneAndDelete({ _id: id, realmId });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.sessions.deleteMany({ realmId });
  }
}
