/**
 * A sliding-window request counter per key (per-IP and per-client throttle). It keeps the
 * previous and the current fixed window and weights the previous by how much of it still overlaps
 * the last minute, so a burst at a window edge cannot pass twice the limit. Memory is bounded:
 * windows older than two periods are dropped on each sweep.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; current: number; previous: number }>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now, private readonly periodMs = 60_000) {}

  /** Counts one request; returns 0 when allowed, else the seconds until a retry may succeed. */
  hit(key: string, limit: number): number {
    const now = this.now();
    this.sweep(now);
    const start = now - (now % this.periodMs);
    let w = this.windows.get(key);
    if (!w || w.start < start - this.periodMs) w = { start, current: 0, previous: 0 };
    else if (w.start < start) w = { start, current: 0, previous: w.current };
    const overlap = 1 - (now - start) / this.periodMs;
    const estimate = w.previous * overlap + w.current;
    if (estimate >= limit) {
      this.windows.set(key, w);
      // Time until the weighted estimate falls below the limit, at least one second.
      const retryMs = w.previous > 0 && w.current < limit
        ? ((estimate - limit + 1) / w.previous) * this.periodMs
        : start + this.periodMs - now;
      return Math.max(1, Math.ceil(retryMs / 1000));
    }
    w.current += 1;
    this.windows.set(key, w);
    return 0;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.periodMs) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows) if (w.start < now - 2 * this.periodMs) this.windows.delete(key);
  }
}
