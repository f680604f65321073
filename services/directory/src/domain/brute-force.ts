import type { Logger } from "pino";
import { log } from "../../../kit/src/logger.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmRecord } from "./realm.js";
import type { LoginFailureRecord, LoginFailureRepository } from "../store/login-failure-repository.js";
import type { UserRepository } from "../store/user-repository.js";
import type { UserDisabling } from "./user-disabling.js";
import { InFlightWrites } from "./in-flight-writes.js";

export type LockState = "none" | "temporary" | "permanent";

/**
 * Brute-force protection (spec 3), active when the realm's `bruteForceEnabled` is true:
 *  1. `maxLoginFailures` failures lock the user for `lockoutDuration` seconds (a temporary lockout);
 *  2. the counters reset once `failureResetTime` seconds pass after the last failure (0: never by time),
 *     and on a successful login;
 *  3. with `permanentLockoutAfter` = N > 0, the lockout due after N temporary lockouts is permanent
 *     (Keycloak's "max temporary lockouts"): the user is disabled until an admin unlocks.
 * Failures are not counted while a lock holds (the password is still hashed, for equal timing, but
 * its result is ignored: PasswordAuthenticator).
 */
export class BruteForce {
  /** Failures counted after their reply (countFailureAfterReply), by `<realmId>:<userId>`. */
  private readonly inFlight = new InFlightWrites();

  constructor(
    private readonly repo: LoginFailureRepository,
    private readonly users: UserRepository,
    private readonly disabling: UserDisabling,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async state(realm: RealmRecord, userId: string): Promise<LockState> {
    if (!realm.bruteForceEnabled) return "none";
    await this.inFlight.settled(keyOf(realm._id, userId));
    return lockState(await this.repo.get(realm._id, userId), this.clock.now());
  }

  /**
   * Counts a wrong password without making its reply wait for the write (spec 3; no username
   * enumeration). Written before the reply, the count (an atomic increment, and its commit's WAL
   * flush) made a wrong password of an existing user about 1 ms slower to answer than an unknown
   * user's, who has no counter. Keycloak records login failures asynchronously as well (its
   * brute-force protector queues them).
   *
   * Nothing is lost to concurrency and sequential attempts stay exact: the count is still one
   * atomic conditional update per failure, and every later read or change of this user's record
   * in this process (state, success, unlock, forget, the locked list) first waits for the writes
   * started here, so the next attempt sees this failure and the lockout it caused, as before.
   * Another directory replica reads the record only after its own hash of the next attempt
   * (PasswordAuthenticator), a client round trip plus ~7 ms after this write started.
   *
   * What can be lost: a failure whose write has not committed when the process crashes, i.e. the
   * attempts answered within about a millisecond before the crash, each one guess an attacker gets
   * beyond maxLoginFailures. A failure is acknowledged to no one (admin writes are unaffected), and
   * a graceful stop waits for these writes (drain).
   */
  countFailureAfterReply(realm: RealmRecord, userId: string): void {
    if (!realm.bruteForceEnabled) return;
    const at = this.clock.now();
    const logger = log(this.logger);
    // On the next turn of the event loop: better-sqlite3 would run the statements in this one,
    // before the reply is handed to the transport.
    const write = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.failure(realm, userId, at))
      .then(() => undefined, (err: unknown) => logger.error({ err, realm: realm.name, userId }, "a login failure could not be counted"));
    this.inFlight.track(keyOf(realm._id, userId), write);
  }

  /**
   * Counts one failure (at `now`, the attempt's time); returns the lockout this failure caused
   * ("none" when it caused none).
   */
  async failure(realm: RealmRecord, userId: string, now = this.clock.now()): Promise<LockState> {
    if (!realm.bruteForceEnabled) return "none";
    if (realm.failureResetTime > 0) await this.repo.resetIfStale(realm._id, userId, now - realm.failureResetTime * 1000, now);
    const after = await this.repo.increment(realm._id, userId, now);
    const max = Math.max(1, realm.maxLoginFailures);
    if (after.pending < max) return "none";
    const permanent = realm.permanentLockoutAfter > 0 && after.temporaryLockouts >= realm.permanentLockoutAfter;
    const locked = await this.repo.lock(realm._id, userId, max, now, permanent ? "permanent" : now + realm.lockoutDuration * 1000);
    if (!locked) return "none";
    if (!permanent) return "temporary";
    // Permanent lockout disables the user (as Keycloak does); user.disabled lets the token service
    // end the user's sessions. Unlock re-enables.
    await this.disabling.disable(realm, userId, async () => (await this.users.update(realm._id, userId, { enabled: false, updatedAt: now })) !== null);
    return "permanent";
  }

  async success(realm: RealmRecord, userId: string): Promise<void> {
    if (!realm.bruteForceEnabled) return;
    await this.inFlight.settled(keyOf(realm._id, userId));
    await this.repo.clearUnlocked(realm._id, userId, this.clock.now());
  }

  /** Users locked now (temporarily or permanently). */
  async locked(realm: RealmRecord): Promise<LoginFailureRecord[]> {
    await this.inFlight.settledUnder(`${realm._id}:`);
    return this.repo.locked(realm._id, this.clock.now());
  }

  /** Clears the record, and re-enables a user that a permanent lockout disabled. */
  /** Whether the user has a failure record (counting or locked). */
  async hasRecord(realmId: string, userId: string): Promise<boolean> {
    return (await this.repo.get(realmId, userId)) !== null;
  }

  async unlock(realm: RealmRecord, userId: string): Promise<void> {
    // A failure answered before the unlock must not land after it and lock again.
    await this.inFlight.settled(keyOf(realm._id, userId));
    // A permanently locked user is enabled before the record goes: a crash (or a failing store)
    // in between leaves the lockout on record, still refusing the user, and the admin's retry
    // finds it and finishes. The other order left a disabled user with nothing to unlock.
    const enable = () => this.users.update(realm._id, userId, { enabled: true, updatedAt: this.clock.now() });
    const before = await this.repo.get(realm._id, userId);
    if (before?.permanent) await enable();
    const removed = await this.repo.remove(realm._id, userId);
    if (removed?.permanent && !before?.permanent) await enable(); // made permanent since it was read
  }

  async forget(realmId: string, userId: string): Promise<void> {
    await this.inFlight.settled(keyOf(realmId, userId));
    await this.repo.deleteUser(realmId, userId);
  }

  async deleteRealm(realmId: string): Promise<number> {
    await this.inFlight.settledUnder(`${realmId}:`);
    return this.repo.deleteRealm(realmId);
  }

  /** Waits for every failure still being counted (a graceful stop, before the store closes). */
  drain(): Promise<void> {
    return this.inFlight.settledUnder("");
  }
}

function keyOf(realmId: string, userId: string): string {
  return `${realmId}:${userId}`;
}

export function lockState(r: LoginFailureRecord | null, now: number): LockState {
  if (!r) return "none";
  if (r.permanent) return "permanent";
  return r.lockedUntil > now ? "temporary" : "none";
}
