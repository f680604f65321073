import { randomUUID } from "node:crypto";
import type { Clock } from "../../../kit/src/store/port.js";
import type { CountedFailure, FailureWindowRepository } from "../store/failure-window-repository.js";

export interface FailureLimits {
  /** Failures a key may have within `windowMs`; the next attempt is refused. At least 1. */
  limit: number;
  windowMs: number;
}

/** One attempt: refused (`retryAfter` > 0, the whole seconds to wait), or let through and counted. */
export interface Attempt {
  retryAfter: number;
  /** The attempt succeeded: it is taken back, so it does not count (once; a no-op for a refused one). */
  succeeded(): Promise<void>;
}

/**
 * How often a write loses the compare-and-set to another before the attempt is refused for a
 * second: that many writes on one key at once is a flood from that key, not a user.
 */
const MAX_SWAPS = 20;

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
 * The counts live in the store (FailureWindowRepository), each change a compare-and-set, so all
 * replicas of the token service count against one bound and none of their increments is lost;
 * keys whose failures all left the window are swept once a window. Used for RFC 8628 section
 * 5.1's bound on user-code guesses (DeviceVerification): a page that is rarely used, so the two
 * store operations an attempt costs (four when it succeeds) do not matter.
 */
export class FailureLimiter {
  private lastSweep = 0;

  constructor(private readonly windows: FailureWindowRepository, private readonly clock: Clock, private readonly limits: FailureLimits) {
    if (!(limits.limit >= 1) || !(limits.windowMs > 0)) throw new Error("FailureLimiter needs limit >= 1 and windowMs > 0");
  }

  /** Refuses the key, or lets the attempt through counted as a failure until it `succeeded()`. */
  async attempt(key: string): Promise<Attempt> {
    await this.sweep();
    for (let i = 0; i < MAX_SWAPS; i++) {
      const now = this.clock.now();
      const record = await this.windows.get(key);
      const recent = this.recent(record?.failures ?? [], now);
      if (recent.length >= this.limits.limit) return refused(this.wait(recent, now));
      const mine: CountedFailure = { id: randomUUID(), at: now };
      if (await this.windows.swap(key, record?.version, [...recent, mine])) {
        let counted = true;
        return { retryAfter: 0, succeeded: async () => { if (counted) await this.takeBack(key, mine.id); counted = false; } };
      }
    }
    return refused(1);
  }

  /** 0 when the key may try, else the whole seconds until it may (at least 1). Counts nothing. */
  async retryAfter(key: string): Promise<number> {
    const now = this.clock.now();
    const recent = this.recent((await this.windows.get(key))?.failures ?? [], now);
    return recent.length < this.limits.limit ? 0 : this.wait(recent, now);
  }

  private async takeBack(key: string, id: string): Promise<void> {
    for (let i = 0; i < MAX_SWAPS; i++) {
      const record = await this.windows.get(key);
      if (!record?.failures.some((f) => f.id === id)) return; // left the window and swept meanwhile
      if (await this.windows.swap(key, record.version, record.failures.filter((f) => f.id !== id))) return;
    }
  }

  /** Failures still inside the window, oldest first. */
  private recent(failures: CountedFailure[], now: number): CountedFailure[] {
    const from = now - this.limits.windowMs;
    return failures.filter((f) => f.at > from).sort((a, b) => a.at - b.at);
  }

  /** Until the oldest of a full window's failures leaves it, in whole seconds (at least 1). */
  private wait(recent: CountedFailure[], now: number): number {
    return Math.max(1, Math.ceil((recent[recent.length - this.limits.limit]!.at + this.limits.windowMs - now) / 1000));
  }

  /** Once a window per process: the keys whose failures all left it. */
  private async sweep(): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastSweep < this.limits.windowMs) return;
    this.lastSweep = now;
    await this.windows.dropStale(now - this.limits.windowMs);
  }
}

function refused(retryAfter: number): Attempt {
  return { retryAfter, succeeded: async () => {} };
}
