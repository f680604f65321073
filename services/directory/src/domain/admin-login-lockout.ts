import { sha256Hex } from "../../../kit/src/crypto/random.js";
import { rateLimitAddress } from "../../../kit/src/rate-limit-address.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { AdminLoginFailureRepository } from "../store/admin-login-failure-repository.js";

export interface AdminLoginPolicy {
  /** Attempts per account name within the window before it is locked (TESSERA_ADMIN_LOGIN_MAX_FAILURES). */
  maxPerAccount: number;
  /** Attempts per address within the window before it is locked (TESSERA_ADMIN_LOGIN_MAX_FAILURES_PER_ADDRESS). */
  maxPerAddress: number;
  /** The window and the lockout, in seconds (TESSERA_ADMIN_LOGIN_LOCKOUT_SECONDS). */
  lockoutSeconds: number;
}

/**
 * Brute-force protection of the admin login (POST /admin/auth/login), per account and per address.
 *
 * Every attempt is counted BEFORE its password is checked, and a success takes it back: so
 * parallel guesses are bounded as sequential ones are (at most `max` are ever checked per window),
 * which counting failures after the check would not do. More than `maxPerAccount` attempts on an
 * account name, or `maxPerAddress` from an address (an IPv6 client by its /64), within
 * `lockoutSeconds` of each other lock that name or address for `lockoutSeconds`; the window
 * restarts at each attempt, as Keycloak's failure reset time does.
 *
 * The account key is the submitted name's hash, whether or not such an account exists, so a
 * locked name answers the same for an account and for nobody (no enumeration), and no attacker's
 * string is stored. A lockout of the bootstrap admin leaves the Admin API key working.
 */
export class AdminLoginLockout {
  constructor(
    private readonly repo: AdminLoginFailureRepository,
    private readonly clock: Clock,
    private readonly policy: AdminLoginPolicy,
  ) {}

  /**
   * Counts the attempt; returns the seconds to wait when it is refused (a lockout holds or this
   * attempt is over a limit), else 0: the caller checks the password, then calls `succeeded`.
   */
  async attempt(username: string, ip: string): Promise<number> {
    const now = this.clock.now();
    const keys = this.keysOf(username, ip);
    const held = await Promise.all(keys.map(([key]) => this.repo.get(key)));
    const lockedUntil = Math.max(0, ...held.map((r) => r?.lockedUntil ?? 0));
    if (lockedUntil > now) return secondsUntil(lockedUntil, now);
    const windowMs = this.policy.lockoutSeconds * 1000;
    const after = await Promise.all(keys.map(([key]) => this.repo.count(key, now, windowMs)));
    let refused = false;
    for (const [i, record] of after.entries()) {
      const [key, max] = keys[i]!;
      if (record.lockedUntil > now) refused = true;
      else if (record.attempts > max) {
        await this.repo.lock(key, max, now, now + windowMs);
        refused = true;
      }
    }
    return refused ? this.policy.lockoutSeconds : 0;
  }

  /** The password was right: the account's count goes, and the address's attempt is taken back. */
  async succeeded(username: string, ip: string): Promise<void> {
    const [account, address] = this.keysOf(username, ip);
    await this.repo.clearUnlocked(account![0], this.clock.now());
    if (address) await this.repo.uncount(address[0]);
  }

  private keysOf(username: string, ip: string): Array<[key: string, max: number]> {
    const keys: Array<[string, number]> = [[`account:${sha256Hex(username.toLowerCase())}`, this.policy.maxPerAccount]];
    const address = rateLimitAddress(ip);
    if (address) keys.push([`address:${address}`, this.policy.maxPerAddress]);
    return keys;
  }
}

function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}
