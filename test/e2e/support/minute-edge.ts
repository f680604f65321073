/**
 * The throttle's limiter weights the previous minute by how much of it still overlaps
 * (gateway/src/http/rate-limiter.ts), so requests that straddle a minute edge may count as
 * slightly fewer than they are. Counting tests start well inside a minute so they check the
 * limit, not the approximation at the edge.
 */
export async function awayFromMinuteEdge(): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 50_000) await new Promise((r) => setTimeout(r, 60_000 - into + 100));
}
