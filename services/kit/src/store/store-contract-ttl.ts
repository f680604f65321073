import { ids, type ContractContext } from "./store-contract-kit.js";

/** Expired documents are invisible everywhere, and the sweep deletes them (port.ts, CollectionSpec.ttl). */
export function describeTtlContract(ctx: ContractContext): void {
  describe("ttl collections", () => {
    it("hides expired documents from every read, count and write", async () => {
      const { clock } = ctx;
      const c = await ctx.fresh({ ttl: true });
      const now = clock.now();
      await c.insertMany([
        { _id: "soon", kind: "code", expiresAt: now + 1000 },
        { _id: "later", kind: "code", expiresAt: now + 5000 },
        { _id: "never", kind: "code" },
        { _id: "nullish", kind: "code", expiresAt: null },
      ]);
      expect(await c.count({})).toBe(4);

      clock.advance(1000); // expiresAt == now counts as expired
      expect(await c.get("soon")).toBeNull();
      // get checks the expiry itself on MongoDB (a bare _id query): a missing or null expiresAt never expires.
      expect(await c.get("later")).toEqual({ _id: "later", kind: "code", expiresAt: now + 5000 });
      expect(await c.get("never")).toEqual({ _id: "never", kind: "code" });
      expect(await c.get("nullish")).toEqual({ _id: "nullish", kind: "code", expiresAt: null });
      expect(await c.findOne({ _id: "soon" })).toBeNull();
      expect(ids(await c.find({}))).toEqual(["later", "never", "nullish"]);
      expect(ids(await c.find({ $or: [{ _id: "soon" }, { _id: "later" }] }))).toEqual(["later"]);
      expect(await c.count({ kind: "code" })).toBe(3);
      expect(await c.update({}, { $set: { seen: true } })).toBe(3);
      expect(await c.findOneAndUpdate({ _id: "soon" }, { $set: { used: true } })).toBeNull();
      expect(await c.findOneAndDelete({ _id: "soon" })).toBeNull();
      expect(await c.replace({ _id: "soon", kind: "x" })).toBe(false);
      expect(await c.delete("soon")).toBe(false);
      expect(await c.deleteMany({ _id: "soon" })).toBe(0);
      expect(await c.findOne({ expiresAt: { $lte: clock.now() } })).toBeNull();

      // Still stored until swept: moving the clock back shows it again, untouched.
      clock.t -= 1;
      expect(await c.get("soon")).toEqual({ _id: "soon", kind: "code", expiresAt: now + 1000 });
    });

    it("sweepExpired deletes exactly the expired documents", async () => {
      const { clock } = ctx;
      const c = await ctx.fresh({ ttl: true });
      const plain = await ctx.fresh();
      const now = clock.now();
      await c.insertMany([
        { _id: "a", expiresAt: now + 10 },
        { _id: "b", expiresAt: now + 20 },
        { _id: "c", expiresAt: now + 1000 },
        { _id: "d" },
      ]);
      await plain.insert({ _id: "p", expiresAt: now - 1 }); // not a ttl collection: expiresAt means nothing
      expect(await plain.get("p")).not.toBeNull();

      clock.advance(20);
      const swept = await ctx.store().sweepExpired();
      expect(swept).toBeGreaterThanOrEqual(2); // other tests' ttl collections may contribute
      clock.t = now; // back in time: swept documents are gone for good, the others come back
      expect(ids(await c.find({}))).toEqual(["c", "d"]);
      expect(await plain.get("p")).not.toBeNull();
      clock.t = now + 1000;
      await ctx.store().sweepExpired();
      clock.t = now;
      expect(ids(await c.find({}))).toEqual(["d"]);
    });

    it("does not let an expired document block a new one", async () => {
      const { clock } = ctx;
      const c = await ctx.fresh({ ttl: true, indexes: [{ fields: ["code"], unique: true }] });
      await c.insert({ _id: "old", code: "X", expiresAt: clock.now() + 10 });
      await expect(c.insert({ _id: "dup", code: "X", expiresAt: clock.now() + 10 })).rejects.toMatchObject({
        code: "alreadyExists",
        field: "code",
      });
      clock.advance(10);
      await c.insert({ _id: "new", code: "X", expiresAt: clock.now() + 1000 });
      await c.insert({ _id: "old", code: "Y", expiresAt: clock.now() + 1000 });
      expect(ids(await c.find({}))).toEqual(["new", "old"]);
      expect(await c.get("old")).toEqual({ _id: "old", code: "Y", expiresAt: clock.now() + 1000 });
    });

    it("upsert brings back an expired _id with the new content", async () => {
      const { clock } = ctx;
      const c = await ctx.fresh({ ttl: true });
      await c.insert({ _id: "s", v: 1, expiresAt: clock.now() + 5 });
      clock.advance(5);
      await c.upsert({ _id: "s", v: 2, expiresAt: clock.now() + 5 });
      expect(await c.get("s")).toEqual({ _id: "s", v: 2, expiresAt: clock.now() + 5 });
    });

    it("lets updates extend or remove an expiry", async () => {
      const { clock } = ctx;
      const c = await ctx.fresh({ ttl: true });
      await c.insertMany([{ _id: "x", expiresAt: clock.now() + 5 }, { _id: "y", expiresAt: clock.now() + 5 }]);
      expect(await c.update({ _id: "x" }, { $set: { expiresAt: clock.now() + 100 } })).toBe(1);
      expect(await c.update({ _id: "y" }, { $unset: ["expiresAt"] })).toBe(1);
      clock.advance(50);
      expect(ids(await c.find({}))).toEqual(["x", "y"]);
      clock.advance(50);
      expect(ids(await c.find({}))).toEqual(["y"]);
    });
  });
}
