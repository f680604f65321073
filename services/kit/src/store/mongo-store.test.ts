import { randomBytes } from "node:crypto";
import mongoose from "mongoose";
import { describeStoreContract } from "./store-contract.js";
import { openStore } from "./open-store.js";
import { MongoStore } from "./mongo-store.js";
import { TestClock } from "./store-contract-kit.js";
import { describeTier } from "../../../../test/support/tier.js";

/**
 * Runs the store contract against a MongoDB-wire server when TESSERA_TEST_MONGODB_URI is set
 * (CI starts FerretDB with test/mongo/start.sh). Each run uses its own database and drops it.
 */
const uri = process.env.TESSERA_TEST_MONGODB_URI as string;

describeTier("MongoDB tier", ["TESSERA_TEST_MONGODB_URI"], () => {
  const database = `tessera_store_test_${randomBytes(6).toString("hex")}`;

  afterAll(async () => {
    const conn = await mongoose.createConnection(uri, { dbName: database }).asPromise();
    await conn.dropDatabase();
    await conn.close();
  });

  describeStoreContract(`mongodb (${uri})`, async (clock) =>
    openStore({ kind: "mongodb", uri, database, clock, sweepIntervalMs: 0 }),
  );

  describe("mongo store specifics", () => {
    it("creates a native TTL index only with nativeTtl (FerretDB v1 refuses it), never returning its field", async () => {
      const clock = new TestClock();
      const store = await openStore({ kind: "mongodb", uri, database, clock, nativeTtl: true, sweepIntervalMs: 0 });
      try {
        const conn = await mongoose.createConnection(uri, { dbName: database }).asPromise();
        const info = await conn.db!.admin().command({ buildInfo: 1 });
        await conn.close();
        const declared = store.collection({ name: "native_ttl", ttl: true });
        if (typeof info.ferretdbVersion === "string") {
          await expect(declared).rejects.toThrow(/expireAfterSeconds/);
          return;
        }
        const c = await declared;
        await c.insert({ _id: "a", expiresAt: clock.now() + 60_000 });
        await c.update({ _id: "a" }, { $set: { expiresAt: clock.now() + 120_000 } });
        expect(await c.get("a")).toEqual({ _id: "a", expiresAt: clock.now() + 120_000 });
      } finally {
        await store.close();
      }
    });

    it("drops a retired index, leaving _id_ and the declared ones", async () => {
      const store = await openStore({ kind: "mongodb", uri, database, sweepIntervalMs: 0 });
      try {
        const name = `retired_${randomBytes(4).toString("hex")}`;
        await store.collection({ name, indexes: [{ fields: ["a", "b"] }] });
        await store.collection({ name, indexes: [{ fields: ["a", "c", "b"] }], retiredIndexes: ["a_1_b_1"] });
        const conn = await mongoose.createConnection(uri, { dbName: database }).asPromise();
        const names = (await conn.db!.collection(name).listIndexes().toArray()).map((i) => i.name as string).sort();
        await conn.close();
        expect(names).toEqual(["_id_", "a_1_c_1_b_1"]);
      } finally {
        await store.close();
      }
    });

    it("reports an unreachable server when opening", async () => {
      await expect(
        MongoStore.open({ uri: "mongodb://127.0.0.1:1", database, serverSelectionTimeoutMS: 300, sweepIntervalMs: 0 }),
      ).rejects.toThrow();
    });
  });
});
