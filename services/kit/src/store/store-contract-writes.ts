import type { Doc } from "./port.js";
import { rejectsWith, ids, type ContractContext } from "./store-contract-kit.js";

export function describeWriteContract(ctx: ContractContext): void {
  describe("unique indexes", () => {
    it("refuses a duplicate with alreadyExists naming the index's first field", async () => {
      const c = await ctx.fresh({ indexes: [{ fields: ["email"], unique: true }, { fields: ["nameKey"], unique: true }] });
      await c.insert({ _id: "u1", email: "a@x.test", nameKey: "alice" });
      const err = await rejectsWith(c.insert({ _id: "u2", email: "a@x.test", nameKey: "other" }), "alreadyExists", "email");
      expect(err.reason).toBe("conflict");
      await rejectsWith(c.insert({ _id: "u3", email: "b@x.test", nameKey: "alice" }), "alreadyExists", "nameKey");
      await c.insert({ _id: "u4", email: "c@x.test", nameKey: "carol" });
      expect(ids(await c.find({}))).toEqual(["u1", "u4"]);
    });

    it("enforces compound uniqueness on the combination only", async () => {
      const c = await ctx.fresh({ indexes: [{ fields: ["realmId", "usernameKey"], unique: true, name: "realm_user" }] });
      await c.insert({ _id: "1", realmId: "r1", usernameKey: "bob" });
      await c.insert({ _id: "2", realmId: "r2", usernameKey: "bob" });
      await c.insert({ _id: "3", realmId: "r1", usernameKey: "bobby" });
      await rejectsWith(c.insert({ _id: "4", realmId: "r1", usernameKey: "bob" }), "alreadyExists", "realmId");
      expect(await c.count({})).toBe(3);
    });

    it("refuses a unique multikey index (SQLite could not enforce it)", async () => {
      await rejectsWith(ctx.fresh({ indexes: [{ fields: ["list"], multikey: true, unique: true }] }), "invalidArgument", "indexes");
    });

    it("allows duplicates on a non-unique index", async () => {
      const c = await ctx.fresh({ indexes: [{ fields: ["group"] }] });
      await c.insertMany([{ _id: "1", group: "g" }, { _id: "2", group: "g" }]);
      expect(await c.count({ group: "g" })).toBe(2);
    });

    it("refuses updates and replaces that would collide, leaving the document as it was", async () => {
      const c = await ctx.fresh({ indexes: [{ fields: ["email"], unique: true }] });
      await c.insertMany([{ _id: "1", email: "a" }, { _id: "2", email: "b" }]);
      await rejectsWith(c.update({ _id: "2" }, { $set: { email: "a" } }), "alreadyExists", "email");
      await rejectsWith(c.findOneAndUpdate({ _id: "2" }, { $set: { email: "a" } }), "alreadyExists", "email");
      await rejectsWith(c.replace({ _id: "2", email: "a" }), "alreadyExists", "email");
      await rejectsWith(c.upsert({ _id: "3", email: "a" }), "alreadyExists", "email");
      expect(await c.get("2")).toEqual({ _id: "2", email: "b" });
      expect(await c.get("3")).toBeNull();
    });
  });

  describe("stage", () => {
    it("inserts as insert does, visible at once, and settles durable", async () => {
      const c = await ctx.fresh({ indexes: [{ fields: ["email"], unique: true }] });
      const staged = await c.stage({ _id: "1", email: "a" });
      expect(await c.get("1")).toEqual({ _id: "1", email: "a" });
      await staged.durable;
      await rejectsWith(c.stage({ _id: "1", email: "b" }), "alreadyExists", "_id");
      await rejectsWith(c.stage({ _id: "2", email: "a" }), "alreadyExists", "email");
      await rejectsWith(c.stage({ _id: "3", "a.b": 1 } as unknown as Doc), "invalidArgument");
      expect(ids(await c.find({}))).toEqual(["1"]);
    });

    it("stageFindOneAndUpdate changes one match as findOneAndUpdate does, visible at once, and settles durable", async () => {
      const c = await ctx.fresh({ indexes: [{ fields: ["email"], unique: true }] });
      await c.insertMany([{ _id: "1", email: "a" }, { _id: "2", email: "b" }]);
      const staged = await c.stageFindOneAndUpdate({ _id: "1", used: { $exists: false } }, { $set: { used: true } });
      expect(staged.doc).toEqual({ _id: "1", email: "a", used: true });
      expect(await c.get("1")).toEqual({ _id: "1", email: "a", used: true });
      await staged.durable;
      const again = await c.stageFindOneAndUpdate({ _id: "1", used: { $exists: false } }, { $set: { used: true } });
      expect(again.doc).toBeNull();
      await again.durable;
      await rejectsWith(c.stageFindOneAndUpdate({ _id: "2" }, { $set: { email: "a" } }), "alreadyExists", "email");
      expect(await c.get("2")).toEqual({ _id: "2", email: "b" });
    });
  });

  describe("discard", () => {
    it("deletes by id as delete does", async () => {
      const c = await ctx.fresh();
      await c.insertMany([{ _id: "1" }, { _id: "2" }]);
      expect(await c.discard("1")).toBe(true);
      expect(await c.discard("1")).toBe(false);
      expect(await c.discard("nope")).toBe(false);
      expect(ids(await c.find({}))).toEqual(["2"]);
    });
  });

  describe("insertMany", () => {
    it("inserts every document, and nothing for an empty list", async () => {
      const c = await ctx.fresh();
      await c.insertMany([]);
      await c.insertMany([{ _id: "1" }, { _id: "2" }, { _id: "3" }]);
      expect(ids(await c.find({}))).toEqual(["1", "2", "3"]);
    });

    it("stores none of the batch when one document conflicts", async () => {
      const c = await ctx.fresh({ indexes: [{ fields: ["k"], unique: true }] });
      await c.insert({ _id: "old", k: "taken" });
      await rejectsWith(
        c.insertMany([{ _id: "n1", k: "a" }, { _id: "n2", k: "taken" }, { _id: "n3", k: "c" }]),
        "alreadyExists",
        "k",
      );
      await rejectsWith(c.insertMany([{ _id: "n4", k: "d" }, { _id: "old", k: "e" }]), "alreadyExists", "_id");
      expect(ids(await c.find({}))).toEqual(["old"]);
      expect(await c.get("old")).toEqual({ _id: "old", k: "taken" });
    });
  });

  describe("update", () => {
    it("returns how many documents matched the condition", async () => {
      const c = await ctx.fresh();
      await c.insertMany([{ _id: "1", status: "active" }, { _id: "2", status: "active" }, { _id: "3", status: "off" }]);
      expect(await c.update({ status: "active" }, { $set: { status: "locked" } })).toBe(2);
      expect(await c.update({ status: "active" }, { $set: { status: "locked" } })).toBe(0);
      // Matched, not modified: setting the value it already has still counts.
      expect(await c.update({ _id: "3" }, { $set: { status: "off" } })).toBe(1);
      expect(await c.count({ status: "locked" })).toBe(2);
    });

    it("applies $set, $unset and $inc together; $inc counts a missing field as 0", async () => {
      const c = await ctx.fresh();
      await c.insert({ _id: "1", a: 1, b: "x", n: 5 });
      expect(await c.update({ _id: "1" }, { $set: { b: "y", c: { nested: [true] } }, $unset: ["a"], $inc: { n: 2, m: 3 } })).toBe(1);
      expect(await c.get("1")).toEqual({ _id: "1", b: "y", c: { nested: [true] }, n: 7, m: 3 });
      expect(await c.update({ _id: "1" }, { $inc: { n: -7.5 }, $unset: ["never"] })).toBe(1);
      expect((await c.get("1"))?.n).toBe(-0.5);
      expect(await c.update({ _id: "1" }, { $set: { skipped: undefined } })).toBe(1);
      expect(await c.get("1")).not.toHaveProperty("skipped");
    });

    it("adds to a set with $addToSet: once, into a missing field too, alongside $set", async () => {
      const c = await ctx.fresh();
      await c.insert({ _id: "1", tags: ["a"], n: 0 });
      const after = await c.findOneAndUpdate({ _id: "1" }, { $addToSet: { tags: "b", fresh: 3 }, $set: { n: 1 } });
      expect(after).toEqual({ _id: "1", tags: ["a", "b"], fresh: [3], n: 1 });
      expect(await c.update({ _id: "1" }, { $addToSet: { tags: "a", fresh: 3 } })).toBe(1);
      expect(await c.get("1")).toEqual({ _id: "1", tags: ["a", "b"], fresh: [3], n: 1 });
      await rejectsWith(c.update({}, { $addToSet: { tags: { not: "scalar" } as unknown as string } }), "invalidArgument", "tags");
      await rejectsWith(c.update({}, { $addToSet: { tags: "c" }, $set: { tags: [] } }), "invalidArgument", "tags");
    });

    it("removes every equal element with $pull, typed; a missing field stays missing", async () => {
      const c = await ctx.fresh();
      await c.insertMany([
        { _id: "1", realm: "r", list: ["web", "app", "web", 1, "1", true] },
        { _id: "2", realm: "r", list: ["app"] },
        { _id: "3", realm: "r" },
      ]);
      // One write for every holder: only the documents that hold the value match.
      expect(await c.update({ realm: "r", list: { $includes: "web" } }, { $pull: { list: "web" } })).toBe(1);
      expect(await c.get("1")).toEqual({ _id: "1", realm: "r", list: ["app", 1, "1", true] });
      expect(await c.update({ _id: "1" }, { $pull: { list: 1 }, $set: { n: 1 } })).toBe(1);
      expect(await c.get("1")).toEqual({ _id: "1", realm: "r", list: ["app", "1", true], n: 1 });
      expect(await c.update({ realm: "r" }, { $pull: { list: "app" } })).toBe(3);
      expect(await c.find({}, { sort: [["_id", 1]] })).toEqual([
        { _id: "1", realm: "r", list: ["1", true], n: 1 }, { _id: "2", realm: "r", list: [] }, { _id: "3", realm: "r" },
      ]);
      await rejectsWith(c.update({}, { $pull: { list: { not: "scalar" } as unknown as string } }), "invalidArgument", "list");
      await rejectsWith(c.update({}, { $pull: { list: "x" }, $addToSet: { list: "y" } }), "invalidArgument", "list");
    });

    it("returns the changed document from findOneAndUpdate, or null", async () => {
      const c = await ctx.fresh();
      await c.insertMany([{ _id: "1", q: "w", seq: 2 }, { _id: "2", q: "w", seq: 1 }]);
      const first = await c.findOneAndUpdate({ q: "w" }, { $set: { q: "taken" }, $inc: { tries: 1 } }, { sort: [["seq", 1]] });
      expect(first).toEqual({ _id: "2", q: "taken", seq: 1, tries: 1 });
      expect(await c.findOneAndUpdate({ q: "none" }, { $set: { q: "x" } })).toBeNull();
      expect(await c.findOneAndUpdate({ _id: "1" }, {})).toEqual({ _id: "1", q: "w", seq: 2 });
      expect(await c.update({ q: "w" }, {})).toBe(1);
    });

    it("refuses to change _id, to touch one field twice, or to use odd field names", async () => {
      const c = await ctx.fresh();
      await c.insert({ _id: "1", n: 1 });
      await rejectsWith(c.update({}, { $set: { _id: "2" } }), "invalidArgument", "_id");
      await rejectsWith(c.update({}, { $set: { n: 2 }, $inc: { n: 1 } }), "invalidArgument", "n");
      await rejectsWith(c.update({}, { $set: { "a.b": 1 } }), "invalidArgument");
      await rejectsWith(c.update({}, { $inc: { n: Number.POSITIVE_INFINITY } }), "invalidArgument");
      await rejectsWith(c.findOneAndUpdate({}, { $unset: ["$x"] }), "invalidArgument");
      expect(await c.get("1")).toEqual({ _id: "1", n: 1 });
    });
  });

  describe("replace, upsert and delete", () => {
    it("replaces the whole document, only when present", async () => {
      const c = await ctx.fresh();
      await c.insert({ _id: "1", a: 1, b: 2 });
      expect(await c.replace({ _id: "1", c: 3 })).toBe(true);
      expect(await c.get("1")).toEqual({ _id: "1", c: 3 });
      expect(await c.replace({ _id: "2", c: 3 })).toBe(false);
      expect(await c.get("2")).toBeNull();
    });

    it("upserts: inserts when absent, replaces when present", async () => {
      const c = await ctx.fresh();
      await c.upsert({ _id: "1", v: 1, old: true });
      expect(await c.get("1")).toEqual({ _id: "1", v: 1, old: true });
      await c.upsert({ _id: "1", v: 2 });
      expect(await c.get("1")).toEqual({ _id: "1", v: 2 });
      expect(await c.count({})).toBe(1);
    });

    it("deletes by id and by filter, reporting what it did", async () => {
      const c = await ctx.fresh();
      await c.insertMany([{ _id: "1", k: "a" }, { _id: "2", k: "b" }, { _id: "3", k: "b" }, { _id: "4", k: "c" }]);
      expect(await c.delete("1")).toBe(true);
      expect(await c.delete("1")).toBe(false);
      expect(await c.deleteMany({ k: "b" })).toBe(2);
      expect(await c.deleteMany({ k: "b" })).toBe(0);
      expect(ids(await c.find({}))).toEqual(["4"]);
      expect(await c.deleteMany({})).toBe(1);
      expect(await c.count({})).toBe(0);
    });

    it("findOneAndDelete removes and returns the first match by sort", async () => {
      const c = await ctx.fresh();
      await c.insertMany([{ _id: "1", seq: 3 }, { _id: "2", seq: 1 }, { _id: "3", seq: 2 }] as Doc[]);
      expect(await c.findOneAndDelete({}, { sort: [["seq", 1]] })).toEqual({ _id: "2", seq: 1 });
      expect(await c.findOneAndDelete({ seq: { $gt: 2 } })).toEqual({ _id: "1", seq: 3 });
      expect(await c.findOneAndDelete({ seq: 99 })).toBeNull();
      expect(ids(await c.find({}))).toEqual(["3"]);
    });
  });
}
