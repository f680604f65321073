import type { Collection, Store } from "../../../kit/src/store/port.js";

/**
 * Brute-force state (spec 3), one document per (realmId, userId), `_id` = `<realmId>:<userId>`.
 * Every change is one atomic conditional update or `$inc` on the port (DESIGN 4: counters are never
 * read-then-written), so parallel failures are each counted exactly once.
 */
export interface LoginFailureRecord {
  _id: string;
  realmId: string;
  userId: string;
  /** Failures since the counter was last reset (shown to admins). */
  failureCount: number;
  /** Failures since the last lockout: reaching maxLoginFailures locks. */
  pending: number;
  /** Epoch ms of the last counted failure. */
  lastFailure: number;
  /** Epoch ms until which the user is temporarily locked; 0 when not. */
  lockedUntil: number;
  temporaryLockouts: number;
  permanent: boolean;
  [key: string]: unknown;
}

export class LoginFailureRepository {
  private constructor(private readonly c: Collection<LoginFailureRecord>) {}

  static async open(store: Store): Promise<LoginFailureRepository> {
    return new LoginFailureRepository(await store.collection<LoginFailureRecord>({
      name: "login_failures",
      indexes: [{ fields: ["realmId", "lockedUntil"] }, { fields: ["realmId", "permanent"] }],
    }));
  }

  get(realmId: string, userId: string): Promise<LoginFailureRecord | null> {
    return this.c.get(idOf(realmId, userId));
  }

  /** Zeroes the counters when the last failure is older than `before` and no lock holds. */
  async resetIfStale(realmId: string, userId: string, before: number, now: number): Promise<void> {
    await this.c.update(
      { _id: idOf(realmId, userId), lastFailure: { $lte: before }, lockedUntil: { $lte: now }, permanent: false },
      { $set: { failureCount: 0, pending: 0, temporaryLockouts: 0 } },
    );
  }

  /** Counts one failure atomically and returns the record after it. */
  async increment(realmId: string, userId: string, now: number): Promise<LoginFailureRecord> {
    const _id = idOf(realmId, userId);
    const change = { $inc: { failureCount: 1, pending: 1 }, $set: { lastFailure: now } };
    const after = await this.c.findOneAndUpdate({ _id }, change);
    if (after) return after;
    try {
      await this.c.insert({ _id, realmId, userId, failureCount: 0, pending: 0, lastFailure: now, lockedUntil: 0, temporaryLockouts: 0, permanent: false });
    } catch {
      // A parallel failure created it first: fine, the increment below counts this one.
    }
    const retried = await this.c.findOneAndUpdate({ _id }, change);
    if (!retried) throw new Error("login failure record vanished");
    return retried;
  }

  /**
   * Locks when `pending` reached `max` and no lock holds; only one of parallel callers wins.
   * Returns the record after the lock, or null when another caller locked (or none was due).
   */
  lock(realmId: string, userId: string, max: number, now: number, until: number | "permanent"): Promise<LoginFailureRecord | null> {
    const filter = { _id: idOf(realmId, userId), pending: { $gte: max }, lockedUntil: { $lte: now }, permanent: false };
    return until === "permanent"
      ? this.c.findOneAndUpdate(filter, { $set: { permanent: true, lockedUntil: 0, pending: 0 } })
      : this.c.findOneAndUpdate(filter, { $set: { lockedUntil: until, pending: 0 }, $inc: { temporaryLockouts: 1 } });
  }

  /** After a successful login: forget the failures unless a lock holds (a parallel failure may have set one). */
  async clearUnlocked(realmId: string, userId: string, now: number): Promise<void> {
    await this.c.deleteMany({ _id: idOf(realmId, userId), lockedUntil: { $lte: now }, permanent: false });
  }

  /** Admin unlock: removes the record; returns it (to know whether it was permanent). */
  remove(realmId: string, userId: string): Promise<LoginFailureRecord | null> {
    return this.c.findOneAndDelete({ _id: idOf(realmId, userId) });
  }

  locked(realmId: string, now: number): Promise<LoginFailureRecord[]> {
    return this.c.find(
      { realmId, $or: [{ permanent: true }, { lockedUntil: { $gt: now } }] },
      { sort: [["lastFailure", -1]], limit: 10_000 },
    );
  }

  async deleteUser(realmId: string, userId: string): Promise<void> {
    await this.c.deleteMany({ _id: idOf(realmId, userId) });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.c.deleteMany({ realmId });
  }
}

function idOf(realmId: string, userId: string): string {
  return `${realmId}:${userId}`;
}
