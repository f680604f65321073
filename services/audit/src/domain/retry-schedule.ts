/**
 * When a failed delivery is tried again: exponential backoff from `baseMs`, doubled per attempt
 * and capped at `maxMs`, with "equal jitter" (half the delay fixed, half random) so that the
 * deliveries of one outage do not all come back at the same instant; retried for `windowMs`
 * from the first attempt (24 h, as Svix and Standard Webhooks' reference retry), then dead.
 */
export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  windowMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 2_000, maxMs: 3_600_000, windowMs: 86_400_000 };

/** The delay after the `attempts`-th failed attempt (1-based); `random` in [0, 1). */
export function backoffDelay(policy: RetryPolicy, attempts: number, random: () => number): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 40));
  const half = exp / 2;
  return Math.round(half + random() * half);
}

/** The next attempt's time, or null when it would fall past the window: the delivery is dead. */
export function nextAttempt(policy: RetryPolicy, attempts: number, firstAttemptAt: number, now: number, random: () => number): number | null {
  const at = now + backoffDelay(policy, attempts, random);
  return at > firstAttemptAt + policy.windowMs ? null : at;
}
