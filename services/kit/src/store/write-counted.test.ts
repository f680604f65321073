import { openStore } from "./open-store.js";
import type { Store } from "./port.js";
import { countWrites, WriteCounter } from "./write-counted.js";

describe("countWrites", () => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore({ kind: "sqlite", path: ":memory:", sweepIntervalMs: 0 });
  });
  afterEach(async () => store.close());

  it("counts each write before and after it runs and announces it before the writer resumes; reads and failed writes announce nothing", async () => {
    const seen: Array<[string, number]> = [];
    const counter: WriteCounter = new WriteCounter(async () => {
      seen.push(["announced", counter.value]);
    });
    const things = countWrites(await store.collection<{ _id: string; n: number }>({ name: "things", indexes: [] }), counter);
    await things.insert({ _id: "a", n: 1 });
    seen.push(["resumed", counter.value]);
    expect(seen).toEqual([["announced", 2], ["resumed", 2]]);
    await things.findOne({ _id: "a" });
    await things.find({});
    expect(counter.value).toBe(2);
    await expect(things.insert({ _id: "a", n: 2 })).rejects.toThrow();
    expect(counter.value).toBe(4);
    expect(seen).toHaveLength(2);
    await things.update({ _id: "a" }, { $set: { n: 3 } });
    expect(seen.at(-1)).toEqual(["announced", 6]);
    counter.bump();
    expect(counter.value).toBe(7);
  });
});
