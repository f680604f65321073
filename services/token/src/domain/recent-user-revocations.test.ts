import { RecentUserRevocations } from "./recent-user-revocations.js";

describe("RecentUserRevocations", () => {
  let now = 1_000_000;
  const clock = () => now;

  it("revokes the user's tokens issued at or before the event, in its realm only", () => {
    const r = new RecentUserRevocations(clock);
    r.note("r1", "u1", 5_000);
    expect([r.revokes("r1", "u1", 4_999), r.revokes("r1", "u1", 5_000), r.revokes("r1", "u1", 5_001)]).toEqual([true, true, false]);
    expect([r.revokes("r2", "u1", 1), r.revokes("r1", "u2", 1)]).toEqual([false, false]);
    // A late, older event never moves the mark back.
    r.note("r1", "u1", 3_000);
    expect(r.revokes("r1", "u1", 4_000)).toBe(true);
  });

  it("forgets a mark after its time to live, and the oldest first past the cap", () => {
    const r = new RecentUserRevocations(clock, 60_000, 2);
    r.note("r1", "a", 10);
    r.note("r1", "b", 10);
    r.note("r1", "a", 10); // noted again: now the newest
    r.note("r1", "c", 10);
    expect(["a", "b", "c"].map((u) => r.revokes("r1", u, 1))).toEqual([true, false, true]);
    now += 60_000;
    expect(["a", "c"].map((u) => r.revokes("r1", u, 1))).toEqual([false, false]);
  });
});
