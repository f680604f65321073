import { FailureLimiter } from "./failure-limiter.js";

describe("FailureLimiter", () => {
  let now = 1_000_000;
  const clock = { now: () => now };
  beforeEach(() => { now = 1_000_000; });
  const fail = (l: FailureLimiter, key: string) => l.attempt(key).retryAfter;

  it("lets `limit` failures per key through, then refuses the key with the seconds until the oldest leaves the window", () => {
    const l = new FailureLimiter(clock, { limit: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) {
      expect(fail(l, "a")).toBe(0);
      now += 1_000;
    }
    // Failures at 0 s, 1 s, 2 s; now 3 s: the first leaves the window at 60 s.
    expect(l.attempt("a").retryAfter).toBe(57);
    expect(l.retryAfter("a")).toBe(57);
    // Other keys are their own.
    expect(l.retryAfter("b")).toBe(0);
    // Refused attempts count nothing: they do not push the end further.
    for (let i = 0; i < 5; i++) expect(fail(l, "a")).toBe(57);
    now += 56_500;
    expect(fail(l, "a")).toBe(1); // 0.5 s left: rounded up, never 0 while refused
    now += 500;
    expect(fail(l, "a")).toBe(0); // the first failure has left the window: one more try
    expect(fail(l, "a")).toBe(1); // full again; the failure of 1 s leaves in a second
  });

  it("counts an attempt until it succeeded, and takes back only that one (a success resets nothing)", () => {
    const l = new FailureLimiter(clock, { limit: 2, windowMs: 10_000 });
    // Two attempts in flight at once count both: a third is refused before either has an outcome.
    const first = l.attempt("k");
    const second = l.attempt("k");
    expect([first.retryAfter, second.retryAfter]).toEqual([0, 0]);
    expect(l.attempt("k").retryAfter).toBe(10);
    first.succeeded();
    expect(l.retryAfter("k")).toBe(0);
    // The second failed; a success after it leaves it counted.
    const third = l.attempt("k");
    third.succeeded();
    third.succeeded(); // once: the second's failure, of the same millisecond, stays
    const fourth = l.attempt("k");
    expect(fourth.retryAfter).toBe(0);
    expect(l.attempt("k").retryAfter).toBe(10);
    // Successes alone never refuse.
    for (let i = 0; i < 20; i++) {
      const a = l.attempt("ok");
      expect(a.retryAfter).toBe(0);
      a.succeeded();
    }
    expect(l.retryAfter("ok")).toBe(0);
  });

  it("lets the key try again as each failure leaves the window (sliding), and a whole quiet window clears it", () => {
    const l = new FailureLimiter(clock, { limit: 2, windowMs: 10_000 });
    fail(l, "k"); // t = 0
    now += 4_000;
    fail(l, "k"); // t = 4 s
    expect(l.retryAfter("k")).toBe(6);
    now += 6_000; // t = 10 s: the first failure is out, the second still in
    expect(l.retryAfter("k")).toBe(0);
    fail(l, "k"); // t = 10 s: two within the window again
    expect(l.retryAfter("k")).toBe(4);
    now += 10_000; // t = 20 s: both out
    expect(l.retryAfter("k")).toBe(0);
    fail(l, "k");
    expect(l.retryAfter("k")).toBe(0); // one failure of two allowed
  });

  it("drops keys whose failures all left the window, and keeps at most maxKeys keys (the stalest goes)", () => {
    const l = new FailureLimiter(clock, { limit: 2, windowMs: 10_000, maxKeys: 3 });
    fail(l, "a");
    fail(l, "a");
    fail(l, "b");
    fail(l, "c");
    expect(l.size).toBe(3);
    fail(l, "d"); // over maxKeys: "a", the least recently counted, is forgotten
    expect(l.size).toBe(3);
    expect(l.retryAfter("a")).toBe(0);
    now += 11_000;
    fail(l, "e"); // a sweep: b, c and d are stale
    expect(l.size).toBe(1);
    // A key whose only attempt succeeded is not kept.
    l.attempt("f").succeeded();
    expect(l.size).toBe(1);
  });

  it("refuses a configuration that would turn the bound off", () => {
    expect(() => new FailureLimiter(clock, { limit: 0, windowMs: 60_000 })).toThrow("limit >= 1");
    expect(() => new FailureLimiter(clock, { limit: 10, windowMs: 0 })).toThrow("windowMs > 0");
  });
});
