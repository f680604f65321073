import type { Clock } from "../../../kit/src/store/port.js";

export interface FailureLimits {
  /** Failures a key may have within `windowMs`; the next attempt is refused. At least 1. */
  limit: number;
  windowMs: number;
  /** Keys kept at most (memory bound); past it the least recently counted key is forgotten. */
  maxKeys?: number;
}

/** One attempt: refused (`retryAfter` > 0, the whole seconds to wait), or let through and counted. */
export interface Attempt {
  retryAfter: number;
  /** The attempt succeeded: it is taken back, so it does not count (once; a no-op for a refused one). */
  succeeded(): void;
}

/**
 * Failures per key within a sliding window, kept exactly: the times of a key's last `limit`
 * failures. A key with `limit` failures younger than the window is refused until the oldest of
 * them leaves it; refused attempts count nothing, so they do not push that moment further.
 *
 * An attempt let through is counted as a failure at once, before its outcome is known, and taken
 * back if it succeeds: a burst of concurrent attempts cannot all pass the check before the first
 * of them fails. Only the successful attempt itself is taken back; a success clears no earlier
 * failure (whoever guesses can get a valid code of their own to interleave).
 *
 * Memory is bounded: a key whose failures all left the window is dropped on a sweep (once a
 * window), and at most `maxKeys` keys are kept. The counts live in this process. Used for RFC
 * 8628 section 5.1's bound on user-code guesses (DeviceVerification).
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();
  private lastSweep = 0;
  private readonly maxKeys: number;

  constructor(private readonly clock: Clock, private readonly limits: FailureLimits) {
    if (!(limits.limit >= 1) || !(limits.windowMs > 0)) throw new Error("FailureLimiter needs limit >= 1 and windowMs > 0");
    this.maxKeys = limits.maxKeys ?? 100_000;
  }

  /** Refuses the key, or lets the attempt through counted as a failure until it `succeeded()`. */
  attempt(key: string): Attempt {
    const now = this.clock.now();
    this.sweep(now);
    const wait = this.retryAfter(key);
    if (wait > 0) return { retryAfter: wait, succeeded: () => {} };
    const times = this.recent(key, now);
    times.push(now);
    // Re-inserted, so the map's order is the order of last failures (the first key is the stalest).
    this.failures.delete(key);
    this.failures.set(key, times);
    if (this.failures.size > this.maxKeys) this.failures.delete(this.failures.keys().next().value!);
    let counted = true;
    return { retryAfter: 0, succeeded: () => { if (counted) this.takeBack(key, times, now); counted = false; } };
  }

  /** 0 when the key may try, else the whole seconds until it may (at least 1). Counts nothing. */
  retryAfter(key: string): number {
    const now = this.clock.now();
    const times = this.recent(key, now);
    if (times.length < this.limits.limit) return 0;
    return Math.max(1, Math.ceil((times[0]! + this.limits.windowMs - now) / 1000));
  }

  /** How many keys are held (for tests of the memory bound). */
  get size(): number {
    return this.failures.size;
  }

  private takeBack(key: string, times: number[], at: number): void {
    const i = times.lastIndexOf(at);
    if (i >= 0) times.splice(i, 1);
    if (times.length === 0 && this.failures.get(key) === times) this.failures.delete(key);
  }

  /** The key's failure times still inside the window, oldest first (at most `limit` of them). */
  private recent(key: string, now: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const from = now - this.limits.windowMs;
    let i = 0;
    while (i < times.length && times[i]! <= from) i++;
    if (i > 0) times.splice(0, i);
    return times;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.limits.windowMs) return;
    this.lastSweep = now;
    const from = now - this.limits.windowMs;
    for (const [key, times] of this.failures) if (times.length === 0 || times[times.length - 1]! <= from) this.failures.delete(key);
  }
}
