/**
 * The users whose tokens this process has just heard revoked (user disabled or deleted, password
 * changed), in memory, until the store's not-before mark surely stands. The durable consumer of
 * the same events ends the sessions and writes the mark (SessionTerminator), but only after the
 * sessions, one by one: a disabled user's access token was still introspected `active` meanwhile
 * (audit: up to about a second with many sessions), where Keycloak answers inactive at once. The
 * watch that feeds this runs in every replica, in process before the directory's publish returns
 * (so before the admin's answer), in a cluster within the bus's delivery. No I/O on the check.
 *
 * Entries live `ttlMs` (an hour: far past a consumer's lag, unless it is down, when the store's
 * sessions still stand as before), at most `max` of them (the oldest go first).
 */
export class RecentUserRevocations {
  private readonly marks = new Map<string, { at: number; until: number }>();

  constructor(private readonly now: () => number, private readonly ttlMs = 60 * 60 * 1000, private readonly max = 100_000) {}

  /** Every token of the user issued at or before `at` (the event's time) is revoked. */
  note(realmId: string, userId: string, at: number): void {
    const key = `${realmId}:${userId}`;
    const prior = this.marks.get(key);
    this.marks.delete(key); // re-inserted last: the Map's order is the eviction order
    this.marks.set(key, { at: Math.max(at, prior?.at ?? 0), until: this.now() + this.ttlMs });
    while (this.marks.size > this.max) this.marks.delete(this.marks.keys().next().value!);
  }

  /** Whether a token of the user issued at `issuedAt` (epoch ms) was revoked by a noted event. */
  revokes(realmId: string, userId: string, issuedAt: number): boolean {
    const key = `${realmId}:${userId}`;
    const mark = this.marks.get(key);
    if (!mark) return false;
    if (mark.until <= this.now()) {
      this.marks.delete(key);
      return false;
    }
    return issuedAt <= mark.at;
  }
}
