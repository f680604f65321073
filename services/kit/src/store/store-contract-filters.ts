import type { Collection, Doc, Filter } from "./port.js";
import { rejectsWith, ids, type ContractContext } from "./store-contract-kit.js";

/** Documents chosen to catch type confusion: "40" vs 40, true vs 1, null vs missing. */
const PEOPLE: Doc[] = [
  { _id: "a", name: "Alice", age: 30, active: true, tag: "x", nick: null },
  { _id: "b", name: "bob", age: 25, active: false, tag: "y" },
  { _id: "c", name: "Carol", age: 35, active: true, nick: "cc" },
  { _id: "d", name: "dave", age: "40", active: 1, tag: "x" },
  { _id: "e", name: "Eve", age: 30.5, tag: null },
];

export function describeFilterContract(ctx: ContractContext): void {
  describe("filters", () => {
    let people: Collection<Doc>;
    const match = async (filter: Filter): Promise<string[]> => ids(await people.find(filter)).sort();

    beforeAll(async () => {
      // `active` indexed: a boolean term that an index serves must still keep true apart from 1.
      people = await ctx.fresh({ indexes: [{ fields: ["name"] }, { fields: ["age"] }, { fields: ["tag", "age"] }, { fields: ["active", "name"] }] });
      await people.insertMany(PEOPLE);
    });

    it("matches equality exactly, by type and case", async () => {
      expect(await match({ name: "bob" })).toEqual(["b"]);
      expect(await match({ name: "Bob" })).toEqual([]);
      expect(await match({ age: 30 })).toEqual(["a"]);
      expect(await match({ age: "40" })).toEqual(["d"]);
      expect(await match({ age: 40 })).toEqual([]);
      expect(await match({ age: { $eq: 30.5 } })).toEqual(["e"]);
      expect(await match({ name: "Alice", age: 30 })).toEqual(["a"]);
      expect(await match({ name: "Alice", age: 31 })).toEqual([]);
      expect(await match({})).toEqual(["a", "b", "c", "d", "e"]);
    });

    it("keeps booleans apart from 0 and 1", async () => {
      expect(await match({ active: true })).toEqual(["a", "c"]);
      expect(await match({ active: false })).toEqual(["b"]);
      expect(await match({ active: 1 })).toEqual(["d"]);
      expect(await match({ active: 0 })).toEqual([]);
      expect(await match({ active: { $ne: true } })).toEqual(["b", "d", "e"]);
      expect(await match({ active: { $in: [false, 1] } })).toEqual(["b", "d"]);
      expect(await match({ active: { $gte: 0 } })).toEqual(["d"]);
      expect(await match({ active: false, name: "bob" })).toEqual(["b"]);
      expect(await match({ active: true, name: { $ne: "Alice" } })).toEqual(["c"]);
      expect(await people.count({ active: false })).toBe(1);
    });

    it("treats null and missing alike for equality; $exists means present and not null", async () => {
      expect(await match({ nick: null })).toEqual(["a", "b", "d", "e"]);
      expect(await match({ nick: { $eq: null } })).toEqual(["a", "b", "d", "e"]);
      expect(await match({ nick: { $ne: null } })).toEqual(["c"]);
      expect(await match({ nick: { $exists: true } })).toEqual(["c"]);
      expect(await match({ nick: { $exists: false } })).toEqual(["a", "b", "d", "e"]);
      expect(await match({ tag: { $exists: true } })).toEqual(["a", "b", "d"]);
      expect(await match({ missing: { $exists: false } })).toEqual(["a", "b", "c", "d", "e"]);
    });

    it("$ne and $nin also match documents without the field", async () => {
      expect(await match({ tag: { $ne: "x" } })).toEqual(["b", "c", "e"]);
      expect(await match({ tag: { $nin: ["x"] } })).toEqual(["b", "c", "e"]);
      expect(await match({ tag: { $nin: ["x", null] } })).toEqual(["b"]);
      expect(await match({ tag: { $nin: [] } })).toEqual(["a", "b", "c", "d", "e"]);
      expect(await match({ age: { $nin: [30, "40"] } })).toEqual(["b", "c", "e"]);
    });

    it("$in matches any listed value, of any scalar type", async () => {
      expect(await match({ tag: { $in: ["x", "y"] } })).toEqual(["a", "b", "d"]);
      expect(await match({ tag: { $in: ["y", null] } })).toEqual(["b", "c", "e"]);
      expect(await match({ age: { $in: [25, 35, "40"] } })).toEqual(["b", "c", "d"]);
      expect(await match({ tag: { $in: [] } })).toEqual([]);
      expect(await match({ _id: { $in: ["a", "c", "zz"] } })).toEqual(["a", "c"]);
    });

    it("compares ranges like with like (numbers with numbers, strings with strings)", async () => {
      expect(await match({ age: { $gt: 25 } })).toEqual(["a", "c", "e"]);
      expect(await match({ age: { $gte: 30, $lt: 35 } })).toEqual(["a", "e"]);
      expect(await match({ age: { $lte: 25 } })).toEqual(["b"]);
      expect(await match({ age: { $gt: "3" } })).toEqual(["d"]);
      // Binary string order: uppercase before lowercase.
      expect(await match({ name: { $gte: "a" } })).toEqual(["b", "d"]);
      expect(await match({ name: { $lt: "C" } })).toEqual(["a"]);
      expect(await match({ _id: { $gt: "c" } })).toEqual(["d", "e"]);
      expect(await match({ missing: { $gt: 0 } })).toEqual([]);
    });

    it("$contains is a case-insensitive substring of strings only", async () => {
      expect(await match({ name: { $contains: "AL" } })).toEqual(["a"]);
      expect(await match({ name: { $contains: "o" } })).toEqual(["b", "c"]);
      expect(await match({ name: { $contains: "" } })).toEqual(["a", "b", "c", "d", "e"]);
      expect(await match({ age: { $contains: "3" } })).toEqual([]);
      expect(await match({ age: { $contains: "4" } })).toEqual(["d"]);
    });

    it("$includes matches an array holding the value, typed; never a scalar, an object or a missing field", async () => {
      const c = await ctx.fresh({ indexes: [{ fields: ["realm", "list"], multikey: true }] });
      await c.insertMany([
        { _id: "1", realm: "r", list: ["web", "app"] },
        { _id: "2", realm: "r", list: [1, true, "1"] },
        { _id: "3", realm: "r", list: [] },
        { _id: "4", realm: "r", list: "web" },
        { _id: "5", realm: "r", list: { k: "web" } },
        { _id: "6", realm: "r" },
        { _id: "7", realm: "s", list: ["web", 2.5] },
      ]);
      const has = async (f: Filter): Promise<string[]> => ids(await c.find(f)).sort();
      expect(await has({ list: { $includes: "web" } })).toEqual(["1", "7"]);
      expect(await has({ realm: "r", list: { $includes: "web" } })).toEqual(["1"]);
      expect(await has({ list: { $includes: 1 } })).toEqual(["2"]);
      expect(await has({ list: { $includes: "1" } })).toEqual(["2"]);
      expect(await has({ list: { $includes: true } })).toEqual(["2"]);
      expect(await has({ list: { $includes: false } })).toEqual([]);
      expect(await has({ list: { $includes: 2.5 } })).toEqual(["7"]);
      expect(await has({ list: { $includes: "nope" } })).toEqual([]);
      expect(await c.count({ realm: "r", list: { $includes: "app" } })).toBe(1);
      await rejectsWith(c.find({ list: { $includes: null } } as unknown as Filter), "invalidArgument");
      await rejectsWith(c.find({ list: { $includes: ["web"] } } as unknown as Filter), "invalidArgument");
    });

    it("combines several operators on one field, even repeating one", async () => {
      expect(await match({ tag: { $ne: "y", $exists: true } })).toEqual(["a", "d"]);
      expect(await match({ tag: { $exists: true, $nin: ["y"] } })).toEqual(["a", "d"]);
      expect(await match({ name: { $contains: "a", $ne: "dave" } })).toEqual(["a", "c"]);
      expect(await match({ name: { $eq: "bob", $ne: null } })).toEqual(["b"]);
    });

    it("supports a top-level $or alongside other fields", async () => {
      expect(await match({ $or: [{ name: "bob" }, { age: { $gt: 32 } }] })).toEqual(["b", "c"]);
      expect(await match({ tag: "x", $or: [{ age: 30 }, { active: 1 }] })).toEqual(["a", "d"]);
      expect(await match({ $or: [{ nick: { $exists: true } }, { tag: null }] })).toEqual(["c", "e"]);
      expect(await match({ $or: [] })).toEqual([]);
      expect(await people.count({ $or: [{ active: true }, { active: false }] })).toBe(3);
    });

    it("rejects unknown operators, nested $or and unsafe field names", async () => {
      await rejectsWith(people.find({ name: { $regex: "x" } } as unknown as Filter), "invalidArgument");
      await rejectsWith(people.find({ $or: [{ $or: [{ name: "a" }] }] } as unknown as Filter), "invalidArgument");
      await rejectsWith(people.find({ "a.b": 1 }), "invalidArgument");
      await rejectsWith(people.find({ $where: "1" } as unknown as Filter), "invalidArgument");
      await rejectsWith(people.find({ "x') OR 1=1 --": 1 }), "invalidArgument");
      await rejectsWith(people.find({}, { sort: [["na me", 1]] }), "invalidArgument");
      await rejectsWith(people.count({ "name'": "x" }), "invalidArgument");
    });

    it("treats quotes, %, _, regex characters and backslashes in values literally", async () => {
      const c = await ctx.fresh({ indexes: [{ fields: ["s"] }] });
      const values = [`O'Brien "the" one`, "100% sure", "snake_case", "a.b*c(d)[e]+?", "back\\slash", "plain",
        "'); DROP TABLE x; --", "Ünïcode ÄBC"];
      await c.insertMany(values.map((s, i) => ({ _id: `v${i}`, s })));
      const has = async (f: Filter): Promise<string[]> => (await c.find(f)).map((d) => d.s as string).sort();
      for (const s of values) expect(await has({ s })).toEqual([s]);
      expect(await has({ s: { $contains: "%" } })).toEqual(["100% sure"]);
      expect(await has({ s: { $contains: "_" } })).toEqual(["snake_case"]);
      expect(await has({ s: { $contains: "'" } })).toEqual(["'); DROP TABLE x; --", `O'Brien "the" one`]);
      expect(await has({ s: { $contains: `"THE"` } })).toEqual([`O'Brien "the" one`]);
      expect(await has({ s: { $contains: ".b*c(" } })).toEqual(["a.b*c(d)[e]+?"]);
      expect(await has({ s: { $contains: "[e]+?" } })).toEqual(["a.b*c(d)[e]+?"]);
      expect(await has({ s: { $contains: "k\\s" } })).toEqual(["back\\slash"]);
      expect(await has({ s: { $contains: "äbc" } })).toEqual(["Ünïcode ÄBC"]);
      expect(await has({ s: { $contains: "." } })).toEqual(["a.b*c(d)[e]+?"]);
      expect(await has({ s: { $in: ["100% sure", "nope%"] } })).toEqual(["100% sure"]);
    });
  });

  describe("sort, skip and limit", () => {
    let c: Collection<Doc>;
    const ranks: Array<[string, number | null | undefined]> = [
      ["g", 2], ["a", 1], ["f", 2], ["b", 3], ["e", 1], ["c", undefined], ["d", 2], ["h", null],
    ];

    beforeAll(async () => {
      c = await ctx.fresh({ indexes: [{ fields: ["rank"] }] });
      await c.insertMany(ranks.map(([id, rank]) => (rank === undefined ? { _id: id } : { _id: id, rank })));
    });

    it("breaks ties by _id, with missing and null first ascending and last descending", async () => {
      expect(ids(await c.find({}, { sort: [["rank", 1]] }))).toEqual(["c", "h", "a", "e", "d", "f", "g", "b"]);
      expect(ids(await c.find({}, { sort: [["rank", -1]] }))).toEqual(["b", "d", "f", "g", "a", "e", "c", "h"]);
      expect(ids(await c.find({}))).toEqual(["a", "b", "c", "d", "e", "f", "g", "h"]);
      expect(ids(await c.find({}, { sort: [["rank", -1], ["_id", -1]] }))).toEqual(["b", "g", "f", "d", "e", "a", "h", "c"]);
    });

    it("pages through equal keys without repeating or skipping", async () => {
      const all = ids(await c.find({ rank: { $gte: 1 } }, { sort: [["rank", 1]] }));
      const pages: string[] = [];
      for (let skip = 0; skip < all.length + 3; skip += 2) {
        pages.push(...ids(await c.find({ rank: { $gte: 1 } }, { sort: [["rank", 1]], skip, limit: 2 })));
      }
      expect(pages).toEqual(all);
      expect(all).toEqual(["a", "e", "d", "f", "g", "b"]);
    });

    it("handles the edges: skip past the end, limit past the end, limit 1", async () => {
      expect(await c.find({}, { skip: 8 })).toEqual([]);
      expect(await c.find({}, { skip: 100, limit: 5 })).toEqual([]);
      expect(ids(await c.find({}, { skip: 6, limit: 100 }))).toEqual(["g", "h"]);
      expect(ids(await c.find({}, { skip: 5 }))).toEqual(["f", "g", "h"]);
      expect(ids(await c.find({}, { limit: 3 }))).toEqual(["a", "b", "c"]);
      expect(ids(await c.find({}, { skip: 1, limit: 2 }))).toEqual(["b", "c"]);
      expect(ids(await c.find({}, { sort: [["rank", -1]], limit: 1 }))).toEqual(["b"]);
      expect(ids(await c.find({}, { skip: 0 }))).toHaveLength(8);
      expect((await c.findOne({ rank: 2 }, { sort: [["rank", 1]] }))?._id).toBe("d");
      expect((await c.findOne({}, { sort: [["rank", -1]] }))?._id).toBe("b");
    });

    it("rejects limit 0, negative or fractional paging and bad sort directions", async () => {
      await rejectsWith(c.find({}, { limit: 0 }), "invalidArgument", "limit");
      await rejectsWith(c.find({}, { limit: -1 }), "invalidArgument", "limit");
      await rejectsWith(c.find({}, { limit: 1.5 }), "invalidArgument", "limit");
      await rejectsWith(c.find({}, { skip: -1 }), "invalidArgument", "skip");
      await rejectsWith(c.find({}, { sort: [["rank", 0 as 1]] }), "invalidArgument");
    });
  });
}
