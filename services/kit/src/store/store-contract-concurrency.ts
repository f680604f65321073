import { sortedIds, type ContractContext } from "./store-contract-kit.js";

const N = 50;
const times = <T>(n: number, f: (i: number) => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

/** "Consume once" and counters are conditional updates, never read-then-write (DESIGN 4). */
export function describeConcurrencyContract(ctx: ContractContext): void {
  describe("atomicity under parallel calls", () => {
    it(`loses none of ${N} parallel $inc increments`, async () => {
      const c = await ctx.fresh();
      await c.insert({ _id: "ctr", failures: 0 });
      const matched = await times(N, () => c.update({ _id: "ctr" }, { $inc: { failures: 1, fresh: 2 } }));
      expect(matched).toEqual(Array(N).fill(1));
      expect(await c.get("ctr")).toEqual({ _id: "ctr", failures: N, fresh: 2 * N });
    });

    it(`keeps every one of ${N} parallel $addToSet additions`, async () => {
      const c = await ctx.fresh();
      await c.insert({ _id: "set", members: [] });
      await times(N, (i) => c.findOneAndUpdate({ _id: "set" }, { $addToSet: { members: `m${i % 25}` } }));
      const members = ((await c.get("set"))?.members as string[]).sort();
      expect(members).toEqual(Array.from({ length: 25 }, (_, i) => `m${i}`).sort());
    });

    it(`gives each of ${N} parallel findOneAndUpdate increments its own value`, async () => {
      const c = await ctx.fresh();
      await c.insert({ _id: "seq", n: 0 });
      const after = await times(N, () => c.findOneAndUpdate({ _id: "seq" }, { $inc: { n: 1 } }));
      const values = after.map((d) => d?.n as number).sort((a, b) => a - b);
      expect(values).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    });

    it(`lets exactly one of ${N} parallel compare-and-set attempts win`, async () => {
      const c = await ctx.fresh();
      await c.insert({ _id: "code", used: false });
      const results = await times(N, (i) => c.findOneAndUpdate({ _id: "code", used: false }, { $set: { used: true, by: i } }));
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect(await c.get("code")).toEqual(winners[0]);
      expect(await c.update({ _id: "code", used: false }, { $set: { by: -1 } })).toBe(0);
    });

    it(`lets exactly one of ${N} parallel findOneAndDelete calls consume a document`, async () => {
      const c = await ctx.fresh();
      await c.insert({ _id: "rt", family: "f1" });
      const results = await times(N, () => c.findOneAndDelete({ _id: "rt" }));
      expect(results.filter((r) => r !== null)).toEqual([{ _id: "rt", family: "f1" }]);
      expect(await c.get("rt")).toBeNull();
    });

    it("hands each queued document to exactly one of many parallel consumers", async () => {
      const c = await ctx.fresh({ indexes: [{ fields: ["kind", "seq"] }] });
      await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: `job${i}`, kind: "job", seq: i })));
      const taken = await times(30, () => c.findOneAndDelete({ kind: "job" }, { sort: [["seq", 1]] }));
      expect(sortedIds(taken)).toEqual(Array.from({ length: 10 }, (_, i) => `job${i}`).sort());
      expect(await c.count({})).toBe(0);
    });

    it(`accepts exactly one of ${N} parallel inserts of the same unique key`, async () => {
      const c = await ctx.fresh({ indexes: [{ fields: ["usernameKey"], unique: true }] });
      const results = await Promise.allSettled(
        Array.from({ length: N }, (_, i) => c.insert({ _id: `u${i}`, usernameKey: "same" })),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(rejected.every((r) => (r.reason as { code?: string }).code === "alreadyExists")).toBe(true);
      expect(await c.count({})).toBe(1);
    });
  });
}
