import type { Clock, Doc, Store } from "./port.js";
import { TestClock, rejectsWith, ids, type ContractContext } from "./store-contract-kit.js";
import { describeFilterContract } from "./store-contract-filters.js";
import { describeWriteContract } from "./store-contract-writes.js";
import { describeConcurrencyContract } from "./store-contract-concurrency.js";
import { describeTtlContract } from "./store-contract-ttl.js";

/**
 * The one behaviour both store adapters must have (DESIGN 4). Each adapter's test file calls this
 * with a factory; the suite shares one store per adapter run and gives every test its own
 * collection, so tests are independent without reopening connections.
 */
export function describeStoreContract(name: string, makeStore: (clock: Clock) => Promise<Store>): void {
  describe(`store contract: ${name}`, () => {
    const clock = new TestClock();
    let store: Store | undefined;
    let seq = 0;
    const ctx: ContractContext = {
      clock,
      store: () => store!,
      fresh: (spec = {}) => store!.collection({ name: `c${++seq}_${Date.now().toString(36)}`, ...spec }),
    };

    beforeAll(async () => {
      store = await makeStore(clock);
    });
    afterAll(async () => {
      await store?.close();
    });
    beforeEach(() => {
      clock.t = TestClock.START;
    });

    describeBasics(ctx);
    describeFilterContract(ctx);
    describeWriteContract(ctx);
    describeConcurrencyContract(ctx);
    describeTtlContract(ctx);
  });
}

function describeBasics(ctx: ContractContext): void {
  describe("basics", () => {
    it("answers ping", async () => {
      await expect(ctx.store().ping()).resolves.toBeUndefined();
    });

    it("inserts and reads back by get, findOne and find", async () => {
      const c = await ctx.fresh();
      await c.insert({ _id: "a", name: "Alice", n: 1 });
      await c.insert({ _id: "b", name: "Bob", n: 2 });
      expect(await c.get("a")).toEqual({ _id: "a", name: "Alice", n: 1 });
      expect(await c.get("zzz")).toBeNull();
      expect(await c.findOne({ name: "Bob" })).toEqual({ _id: "b", name: "Bob", n: 2 });
      expect(await c.findOne({ name: "Nobody" })).toBeNull();
      expect(ids(await c.find({}))).toEqual(["a", "b"]);
      expect(await c.count({})).toBe(2);
      expect(await c.count({ n: { $gt: 1 } })).toBe(1);
    });

    it("round-trips booleans, nulls, nested objects and arrays; undefined means absent", async () => {
      const c = await ctx.fresh();
      const doc = { _id: "x", t: true, f: false, z: null, zero: 0, neg: -1.5, big: 1_700_000_000_123,
        nested: { a: [1, "x", null, true, { deep: false }], empty: {} }, list: [], u: undefined };
      await c.insert(doc);
      const back = await c.get("x");
      const { u: _u, ...expected } = doc;
      expect(back).toEqual(expected);
      expect(back && "u" in back).toBe(false);
    });

    it("refuses a duplicate _id with alreadyExists on _id", async () => {
      const c = await ctx.fresh();
      await c.insert({ _id: "a", v: 1 });
      const err = await rejectsWith(c.insert({ _id: "a", v: 2 }), "alreadyExists", "_id");
      expect(err.reason).toBe("conflict");
      expect(await c.get("a")).toEqual({ _id: "a", v: 1 });
    });

    it("refuses documents that one backend could not store like the other", async () => {
      const c = await ctx.fresh();
      await rejectsWith(c.insert({ _id: "", v: 1 }), "invalidArgument");
      await rejectsWith(c.insert({ _id: "d", at: new Date() } as Doc), "invalidArgument");
      await rejectsWith(c.insert({ _id: "d", n: Number.NaN }), "invalidArgument");
      await rejectsWith(c.insert({ _id: "d", "a.b": 1 }), "invalidArgument");
      await rejectsWith(c.insert({ _id: "d", $x: 1 }), "invalidArgument");
      await rejectsWith(c.insert({ _id: "d", m: { "a.b": 1 } }), "invalidArgument");
      await rejectsWith(c.insert({ _id: "d", m: { $gt: 1 } }), "invalidArgument");
      expect(await c.count({})).toBe(0);
    });

    it("refuses invalid collection names", async () => {
      await rejectsWith(ctx.store().collection({ name: "bad name; drop" }), "invalidArgument");
      await rejectsWith(ctx.store().collection({ name: "a.b" }), "invalidArgument");
    });

    it("declares a collection idempotently, keeping its documents", async () => {
      const spec = { name: `again_${Date.now().toString(36)}`, indexes: [{ fields: ["k"], unique: true }] };
      const c1 = await ctx.store().collection(spec);
      await c1.insert({ _id: "a", k: "x" });
      const c2 = await ctx.store().collection(spec);
      expect(await c2.get("a")).toEqual({ _id: "a", k: "x" });
      await rejectsWith(c2.insert({ _id: "b", k: "x" }), "alreadyExists", "k");
    });

    it("drops the indexes a collection retires, keeping its documents; retiring one never created is fine", async () => {
      const name = `retire_${Date.now().toString(36)}`;
      const c1 = await ctx.store().collection({ name, indexes: [{ fields: ["k"], unique: true }, { fields: ["g", "n"] }] });
      await c1.insert({ _id: "a", k: "x", g: "p", n: 1 });
      await rejectsWith(c1.insert({ _id: "b", k: "x" }), "alreadyExists", "k");
      // The next version replaces both: the unique index retired no longer refuses a duplicate.
      const c2 = await ctx.store().collection({ name, indexes: [{ fields: ["g", "k", "n"] }], retiredIndexes: ["k_1", "g_1_n_1", "never_1"] });
      await c2.insert({ _id: "b", k: "x", g: "p", n: 2 });
      expect(ids(await c2.find({ g: "p" }, { sort: [["n", -1]] }))).toEqual(["b", "a"]);
      await ctx.store().collection({ name, indexes: [{ fields: ["g", "k", "n"] }], retiredIndexes: ["k_1", "g_1_n_1"] });
      await rejectsWith(ctx.store().collection({ name, indexes: [{ fields: ["k"] }], retiredIndexes: ["k_1"] }), "invalidArgument");
    });
  });
}
