import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/**
 * Admin login attempts not yet answered by a success, one document per counted key (an account
 * name's hash, or an address): `_id` = the key. Kept in the directory's store, so every directory
 * replica (and every gateway in front of them) counts against the same numbers, and a restart
 * forgets nothing. Each change is one atomic update on the port (DESIGN 4: counters are never
 * read-then-written). A document expires (`expiresAt`, a TTL collection) when its window or its
 * lockout ends, so unknown names an attacker sprays leave nothing behind.
 */
export interface AdminLoginFailureRecord extends Doc {
  /** Attempts counted in the current window. */
  attempts: number;
  /** Epoch ms until which logins on this key are refused; 0 when not locked. */
  lockedUntil: number;
  expiresAt: number;
}

export class AdminLoginFailureRepository {
  private constructor(private readonly c: Collection<AdminLoginFailureRecord>) {}

  static async open(store: Store): Promise<AdminLoginFailureRepository> {
    return new AdminLoginFailureRepository(await store.collection<AdminLoginFailureRecord>({ name: "admin_login_failures", ttl: true }));
  }

  get(key: string): Promise<AdminLoginFailureRecord | null> {
    return this.c.get(key);
  }

  /** Counts one attempt atomically (the window restarts at it) and returns the record after it. */
  async count(key: string, now: number, windowMs: number): Promise<AdminLoginFailureRecord> {
    const change = { $inc: { attempts: 1 }, $set: { expiresAt: now + windowMs } };
    // A lockout keeps its own expiry: counting during it must not shorten or lengthen it.
    const after = await this.c.findOneAndUpdate({ _id: key, lockedUntil: { $lte: now } }, change);
    if (after) return after;
    // No unlocked record: a lockout holds, or there is no record yet (or a parallel attempt has
    // just created one, which the increment below then counts this attempt on).
    const held = await this.c.get(key);
    if (held && held.lockedUntil > now) return held;
    try {
      await this.c.insert({ _id: key, attempts: 0, lockedUntil: 0, expiresAt: now + windowMs });
    } catch {
      // A parallel attempt created it first: the increment below counts this one.
    }
    return (await this.c.findOneAndUpdate({ _id: key, lockedUntil: { $lte: now } }, change)) ?? (await this.c.get(key))
      ?? { _id: key, attempts: 1, lockedUntil: 0, expiresAt: now + windowMs };
  }

  /** Locks the key until `until` when more than `max` attempts are counted; only one of parallel callers wins. */
  async lock(key: string, max: number, now: number, until: number): Promise<void> {
    await this.c.update(
      { _id: key, attempts: { $gt: max }, lockedUntil: { $lte: now } },
      { $set: { lockedUntil: until, expiresAt: until, attempts: 0 } },
    );
  }

  /** A success on an account: its count goes, unless a lockout holds (a parallel attempt may have set one). */
  async clearUnlocked(key: string, now: number): Promise<void> {
    await this.c.deleteMany({ _id: key, lockedUntil: { $lte: now } });
  }

  /** A success from an address: its attempt is no longer counted against the address. */
  async uncount(key: string): Promise<void> {
    await this.c.update({ _id: key, attempts: { $gt: 0 } }, { $inc: { attempts: -1 } });
  }
}
