import { randomBytes } from "node:crypto";
import mongoose from "mongoose";
import { openStore } from "./open-store.js";
import type { Store } from "./port.js";
import type { TestClock } from "./store-contract-kit.js";
import { describeTier } from "../../../../test/support/tier.js";

export type OpenTestStore = (clock: TestClock) => Promise<Store>;

/**
 * The store adapters a repository test runs on, for `describe.each`: SQLite always, and a
 * MongoDB-wire server when TESSERA_TEST_MONGODB_URI is set, in a database of its own that is
 * dropped after the file's tests. Without the URI the MongoDB variant is reported as a skipped
 * tier (describeTier), so the summary names it. Call at
 * a test file's top level: it registers jest hooks. Test use only.
 */
export function adaptersUnderTest(what: string): Array<[string, OpenTestStore]> {
  const uri = process.env.TESSERA_TEST_MONGODB_URI;
  const database = `tessera_test_${randomBytes(6).toString("hex")}`;
  const sqlite: OpenTestStore = async (clock) => openStore({ kind: "sqlite", path: ":memory:", clock, sweepIntervalMs: 0 });
  if (!uri) {
    describeTier(`${what} on MongoDB (MongoDB tier)`, ["TESSERA_TEST_MONGODB_URI"], () => {
      it("runs this file's tests on MongoDB as on SQLite", () => undefined);
    });
    return [["sqlite", sqlite]];
  }
  afterAll(async () => {
    const conn = await mongoose.createConnection(uri, { dbName: database }).asPromise();
    await conn.dropDatabase();
    await conn.close();
  });
  return [["sqlite", sqlite], ["mongodb", async (clock) => openStore({ kind: "mongodb", uri, database, clock, sweepIntervalMs: 0 })]];
}
