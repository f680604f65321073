import { adaptersUnderTest } from "../../../kit/src/store/adapters-under-test.js";
import type { Store } from "../../../kit/src/store/port.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import { FailureWindowRepository } from "../store/failure-window-repository.js";
import { FailureLimiter, type FailureLimits } from "./failure-limiter.js";

// The user-code bound's limiter on each store adapter: the counts live in the store, so two
// limiters on one store are two token replicas sharing the bound.
describe.each(adaptersUnderTest("FailureLimiter"))("FailureLimiter on %s", (_name, openStore) => {
  let clock: TestClock;
  let store: Store;
  let windows: FailureWindowRepository;
  beforeEach(async () => {
    clock = new TestClock();
    store = await openStore(clock);
    windows = await FailureWindowRepository.open(store);
    await (await store.collection({ name: "user_code_failures" })).deleteMany({});
  });
  afterEach(() => store.close());

  const limiter = (limits: FailureLimits) => new FailureLimiter(windows, clock, limits);
  const fail = async (l: FailureLimiter, key: string) => (await l.attempt(key)).retryAfter;

  it("lets `limit` failures per key through, then refuses the key with the seconds until the oldest leaves the window", async () => {
    const l = limiter({ limit: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) {
      expect(await fail(l, "a")).toBe(0);
      clock.advance(1_000);
    }
    // Failures at 0 s, 1 s, 2 s; now 3 s: the first leaves the window at 60 s.
    expect(await fail(l, "a")).toBe(57);
    expect(await l.retryAfter("a")).toBe(57);
    // Other keys are their own.
    expect(await l.retryAfter("b")).toBe(0);
    // Refused attempts count nothing: they do not push the end further.
    for (let i = 0; i < 5; i++) expect(await fail(l, "a")).toBe(57);
    clock.advance(56_500);
    expect(await fail(l, "a")).toBe(1); // 0.5 s left: rounded up, never 0 while refused
    clock.advance(500);
    expect(await fail(l, "a")).toBe(0); // the first failure has left the window: one more try
    expect(await fail(l, "a")).toBe(1); // full again; the failure of 1 s leaves in a second
  });

  it("counts an attempt until it succeeded, and takes back only that one (a success resets nothing)", async () => {
    const l = limiter({ limit: 2, windowMs: 10_000 });
    // Two attempts in flight at once count both: a third is refused before either has an outcome.
    const first = await l.attempt("k");
    const second = await l.attempt("k");
    expect([first.retryAfter, second.retryAfter]).toEqual([0, 0]);
    expect(await fail(l, "k")).toBe(10);
    await first.succeeded();
    expect(await l.retryAfter("k")).toBe(0);
    // The second failed; a success after it leaves it counted.
    const third = await l.attempt("k");
    await third.succeeded();
    await third.succeeded(); // once: the second's failure, of the same millisecond, stays
    expect(await fail(l, "k")).toBe(0);
    expect(await fail(l, "k")).toBe(10);
    // Successes alone never refuse.
    for (let i = 0; i < 20; i++) {
      const a = await l.attempt("ok");
      expect(a.retryAfter).toBe(0);
      await a.succeeded();
    }
    expect(await l.retryAfter("ok")).toBe(0);
  });

  it("lets the key try again as each failure leaves the window (sliding)", async () => {
    const l = limiter({ limit: 2, windowMs: 10_000 });
    await fail(l, "k"); // t = 0
    clock.advance(4_000);
    await fail(l, "k"); // t = 4 s
    expect(await l.retryAfter("k")).toBe(6);
    clock.advance(6_000); // t = 10 s: the first failure is out, the second still in
    expect(await l.retryAfter("k")).toBe(0);
    await fail(l, "k"); // t = 10 s: two within the window again
    expect(await l.retryAfter("k")).toBe(4);
    clock.advance(10_000); // t = 20 s: both out
    expect(await l.retryAfter("k")).toBe(0);
    await fail(l, "k");
    expect(await l.retryAfter("k")).toBe(0); // one failure of two allowed
  });

  it("shares the bound between replicas: of many attempts at once on two of them, exactly `limit` pass", async () => {
    const limits = { limit: 5, windowMs: 60_000 };
    const replicas = [limiter(limits), limiter(limits)];
    const outcomes = await Promise.all(Array.from({ length: 24 }, (_, i) => fail(replicas[i % 2]!, "ip")));
    expect(outcomes.filter((w) => w === 0)).toHaveLength(5);
    expect(outcomes.filter((w) => w > 0).every((w) => w === 60 || w === 1)).toBe(true);
    expect((await windows.get("ip"))?.failures).toHaveLength(5);
    expect(await replicas[1]!.retryAfter("ip")).toBe(60);
  });

  it("sweeps the keys whose failures all left the window, once a window", async () => {
    const l = limiter({ limit: 2, windowMs: 10_000 });
    await fail(l, "a");
    await fail(l, "b");
    const c = await l.attempt("c");
    await c.succeeded(); // a key whose only attempt succeeded keeps an empty record until the sweep
    clock.advance(5_000);
    await fail(l, "d");
    clock.advance(6_000); // a, b and c are stale; d is not
    await fail(l, "e");
    const kept = (await (await store.collection({ name: "user_code_failures" })).find({})).map((r) => r._id).sort();
    expect(kept).toEqual(["d", "e"]);
  });

  it("refuses a configuration that would turn the bound off", () => {
    expect(() => limiter({ limit: 0, windowMs: 60_000 })).toThrow("limit >= 1");
    expect(() => limiter({ limit: 10, windowMs: 0 })).toThrow("windowMs > 0");
  });
});
