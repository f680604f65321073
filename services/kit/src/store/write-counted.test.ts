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
    const counter: WriteCounter = new WriteCounter(async (_realmId, write) => {
      const result = await write();
      seen.push(["announced", counter.value]);
      return result;
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

  it("announces the one realm a write's document or filter names, and none for a write across realms or by id", async () => {
    const realms: Array<string | undefined> = [];
    const counter = new WriteCounter(async (realmId, write) => {
      const result = await write();
      realms.push(realmId);
      return result;
    });
    const things = countWrites(await store.collection<{ _id: string; realmId: string; n: number }>({ name: "things", indexes: [] }), counter);
    await things.insert({ _id: "a", realmId: "r1", n: 1 });
    await things.insertMany([{ _id: "b", realmId: "r1", n: 1 }, { _id: "c", realmId: "r1", n: 1 }]);
    await things.insertMany([{ _id: "d", realmId: "r1", n: 1 }, { _id: "e", realmId: "r2", n: 1 }]);
    await things.update({ realmId: "r2", _id: "e" }, { $set: { n: 2 } });
    await things.update({ _id: "e" }, { $set: { n: 3 } });
    await things.findOneAndUpdate({ realmId: { $in: ["r1", "r2"] } }, { $set: { n: 4 } });
    await things.deleteMany({ realmId: "r1", n: 1 });
    await things.delete("e");
    expect(realms).toEqual(["r1", "r1", undefined, "r2", undefined, undefined, "r1", undefined]);
  });
});
