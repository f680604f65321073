import { HashingSlots } from "./hashing-slots.js";

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
});
