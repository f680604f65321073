import { defaultHashingSlots, HashingSlots, threadpoolSize } from "./hashing-slots.js";

describe("HashingSlots", () => {
  const deferred = () => {
    let resolve!: (v: string) => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<string>((res, rej) => { resolve = res; reject = rej; });
    return { promise, resolve, reject };
  };

  it("runs at most `slots` jobs at once, the rest in arrival order", async () => {
    const slots = new HashingSlots(2);
    const jobs = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const results = jobs.map((j, i) => slots.run(() => { started.push(i); return j.promise; }));
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(slots.load).toEqual({ running: 2, waiting: 3 });
    jobs[1]!.resolve("b");
    await results[1];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    jobs[0]!.reject(new Error("boom"));
    await expect(results[0]).rejects.toThrow("boom");
    await new Promise((r) => setImmediate(r));
    // A failed job frees its slot too.
    expect(started).toEqual([0, 1, 2, 3]);
    for (const j of jobs.slice(2)) j.resolve("x");
    await Promise.all(results.slice(2));
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it("refuses a non-positive bound", () => {
    expect(() => new HashingSlots(0)).toThrow("hashing slots must be a positive integer, got 0");
  });

  it("defaults to the cores the process may use, never more than libuv's threads", () => {
    expect([defaultHashingSlots({}, 1), defaultHashingSlots({}, 2), defaultHashingSlots({}, 4), defaultHashingSlots({}, 64)]).toEqual([1, 2, 4, 4]);
    expect([defaultHashingSlots({ UV_THREADPOOL_SIZE: "17" }, 16), defaultHashingSlots({ UV_THREADPOOL_SIZE: "8" }, 16), defaultHashingSlots({ UV_THREADPOOL_SIZE: "2" }, 1)])
      .toEqual([16, 8, 1]);
  });

  it("reads UV_THREADPOOL_SIZE as libuv does: 4 when unset or unreadable, clamped to 1..1024", () => {
    expect([threadpoolSize({}), threadpoolSize({ UV_THREADPOOL_SIZE: "" }), threadpoolSize({ UV_THREADPOOL_SIZE: "abc" })]).toEqual([4, 4, 4]);
    expect([threadpoolSize({ UV_THREADPOOL_SIZE: "0" }), threadpoolSize({ UV_THREADPOOL_SIZE: "9" }), threadpoolSize({ UV_THREADPOOL_SIZE: "5000" })]).toEqual([1, 9, 1024]);
  });
});
