import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmRecord } from "./realm.js";
import type { LoginFailureRecord, LoginFailureRepository } from "../store/login-failure-repository.js";
import type { UserRepository } from "../store/user-repository.js";
import type { UserEvents } from "../events/user-events.js";

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
  constructor(
    private readonly repo: LoginFailureRepository,
    private readonly users: UserRepository,
    private readonly events: UserEvents,
    private readonly clock: Clock,
  ) {}

  async state(realm: RealmRecord, userId: string): Promise<LockState> {
    if (!realm.bruteForceEnabled) return "none";
    return lockState(await this.repo.get(realm._id, userId), this.clock.now());
  }

  /**
   * Counts one failure; returns the lockout this failure caused ("none" when it caused none).
   */
  async failure(realm: RealmRecord, userId: string): Promise<LockState> {
    if (!realm.bruteForceEnabled) return "none";
    const now = this.clock.now();
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
    await this.users.update(realm._id, userId, { enabled: false, updatedAt: now });
    await this.events.disabled(realm, userId);
    return "permanent";
  }

  async success(realm: RealmRecord, userId: string): Promise<void> {
    if (!realm.bruteForceEnabled) return;
    await this.repo.clearUnlocked(realm._id, userId, this.clock.now());
  }

  /** Users locked now (temporarily or permanently). */
  locked(realm: RealmRecord): Promise<LoginFailureRecord[]> {
    return this.repo.locked(realm._id, this.clock.now());
  }

  /** Clears the record, and re-enables a user that a permanent lockout disabled. */
  async unlock(realm: RealmRecord, userId: string): Promise<void> {
    const removed = await this.repo.remove(realm._id, userId);
    if (removed?.permanent) await this.users.update(realm._id, userId, { enabled: true, updatedAt: this.clock.now() });
  }

  forget(realmId: string, userId: string): Promise<void> {
    return this.repo.deleteUser(realmId, userId);
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.repo.deleteRealm(realmId);
  }
}

export function lockState(r: LoginFailureRecord | null, now: number): LockState {
  if (!r) return "none";
  if (r.permanent) return "permanent";
  return r.lockedUntil > now ? "temporary" : "none";
}
