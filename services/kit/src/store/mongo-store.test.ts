import { randomBytes } from "node:crypto";
import mongoose from "mongoose";
import { describeStoreContract } from "./store-contract.js";
import { openStore } from "./open-store.js";

/**
 * Runs the store contract against a MongoDB-wire server when TESSERA_TEST_MONGODB_URI is set
 * (CI starts FerretDB with test/mongo/start.sh). Each run uses its own database and drops it.
 */
const uri = process.env.TESSERA_TEST_MONGODB_URI;

if (uri) {
  const database = `tessera_store_test_${randomBytes(6).toString("hex")}`;

  afterAll(async () => {
    const conn = await mongoose.createConnection(uri, { dbName: database }).asPromise();
    await conn.dropDatabase();
    await conn.close();
  });

  describeStoreContract(`mongodb (${uri})`, async (clock) =>
    openStore({ kind: "mongodb", uri, database, clock, sweepIntervalMs: 0 }),
  );
} else {
  it("is skipped without TESSERA_TEST_MONGODB_URI", () => {
    console.info("mongo store contract not run: set TESSERA_TEST_MONGODB_URI (see test/mongo/start.sh)");
  });
}
