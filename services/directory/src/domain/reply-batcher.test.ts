import { DEFAULT_BATCH_LIMITS, ReplyBatcher } from "./reply-batcher.js";

describe("ReplyBatcher", () => {
  const clockAt = (times: number[]) => () => times.shift() ?? Number.NaN;

  it("posts at once when no other job waits, so an idle server adds no latency", () => {
    const b = new ReplyBatcher<string>({ maxBatch: 8, maxHoldMs: 50 }, clockAt([0, 7]));
    expect([b.add("a", false, 7), b.add("b", false, 7)]).toEqual([["a"], ["b"]]);
  });

  it("holds replies while jobs wait, and posts them with the reply after which none waits", () => {
    const b = new ReplyBatcher<string>({ maxBatch: 8, maxHoldMs: 50 }, clockAt([0, 7, 14]));
    expect([b.add("a", true, 7), b.add("b", true, 7), b.add("c", false, 7)]).toEqual([undefined, undefined, ["a", "b", "c"]]);
  });

  it("posts when the batch is full, and starts the next one empty", () => {
    const b = new ReplyBatcher<number>({ maxBatch: 3, maxHoldMs: 1000 }, clockAt([0, 1, 2, 3, 4]));
    expect([1, 2, 3, 4, 5].map((n) => b.add(n, true, 1))).toEqual([undefined, undefined, [1, 2, 3], undefined, undefined]);
  });

  it("posts before the next job would take the oldest held reply past maxHoldMs", () => {
    // Replies at 0, 20 and 40 ms of 20 ms jobs: holding past 40 would make the first wait 60 ms.
    const b = new ReplyBatcher<string>({ maxBatch: 8, maxHoldMs: 50 }, clockAt([0, 20, 40, 60]));
    expect([b.add("a", true, 20), b.add("b", true, 20), b.add("c", true, 20), b.add("d", true, 20)])
      .toEqual([undefined, undefined, ["a", "b", "c"], undefined]);
  });

  it("never holds a reply whose job alone is longer than maxHoldMs (a costly imported hash)", () => {
    const b = new ReplyBatcher<string>(DEFAULT_BATCH_LIMITS, clockAt([0, 100]));
    expect([b.add("a", true, 100), b.add("b", true, 100)]).toEqual([["a"], ["b"]]);
    expect(DEFAULT_BATCH_LIMITS).toEqual({ maxBatch: 8, maxHoldMs: 50 });
  });

  it("refuses a batch size that is not a positive integer", () => {
    expect(() => new ReplyBatcher({ maxBatch: 0, maxHoldMs: 50 })).toThrow("maxBatch must be a positive integer, got 0");
  });
});
