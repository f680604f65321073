import { randomBytes } from "node:crypto";
import mongoose from "mongoose";
import type { Clock, Store } from "../../kit/src/store/port.js";
import { openStore } from "../../kit/src/store/open-store.js";
import { describeTier } from "../../../test/support/tier.js";
import { AdminLoginLockout } from "./domain/admin-login-lockout.js";
import { AdminLoginFailureRepository } from "./store/admin-login-failure-repository.js";

/**
 * The admin login lockout's counting (admin-login-lockout.ts) on each real store: SQLite always,
 * a MongoDB-wire server when TESSERA_TEST_MONGODB_URI names one (CI: FerretDB). The HTTP answers
 * are test/e2e/admin-login-lockout.e2e.test.ts's.
 */
describe("AdminLoginLockout (sqlite)", () => {
  lockoutContract((clock) => openStore({ kind: "sqlite", path: ":memory:", clock }));
});

describeTier("AdminLoginLockout (mongodb)", ["TESSERA_TEST_MONGODB_URI"], () => {
  const uri = process.env.TESSERA_TEST_MONGODB_URI as string;
  const databases: string[] = [];
  afterAll(async () => {
    const conn = await mongoose.createConnection(uri).asPromise();
    for (const db of databases) await conn.useDb(db).dropDatabase();
    await conn.close();
  });
  lockoutContract((clock) => {
    const database = `tessera_lockout_test_${randomBytes(6).toString("hex")}`;
    databases.push(database);
    return openStore({ kind: "mongodb", uri, database, clock, sweepIntervalMs: 0 });
  });
});

function lockoutContract(open: (clock: Clock) => Promise<Store>): void {
  let store: Store;
  let now = 1_000_000;
  const clock = { now: () => now };
  let lockout: AdminLoginLockout;

  beforeEach(async () => {
    store = await open(clock);
    lockout = new AdminLoginLockout(await AdminLoginFailureRepository.open(store), clock, { maxPerAccount: 3, maxPerAddress: 5, lockoutSeconds: 60 });
  });
  afterEach(async () => store.close());

  it("lets `max` attempts through, refuses the next for the lockout, then starts afresh", async () => {
    for (let i = 0; i < 3; i++) expect(await lockout.attempt("admin", "192.0.2.1")).toBe(0);
    expect(await lockout.attempt("admin", "192.0.2.1")).toBe(60);
    now += 59_000;
    expect(await lockout.attempt("Admin", "192.0.2.2")).toBe(1); // the name in another case is the same account
    now += 1_000;
    expect(await lockout.attempt("admin", "192.0.2.2")).toBe(0);
  });

  it("bounds parallel guesses as it bounds sequential ones", async () => {
    const waits = await Promise.all(Array.from({ length: 20 }, () => lockout.attempt("admin", "")));
    expect(waits.filter((w) => w === 0)).toHaveLength(3);
  });

  it("forgets an account's attempts on a success, and takes the address's attempt back", async () => {
    for (let i = 0; i < 3; i++) expect(await lockout.attempt("admin", "192.0.2.1")).toBe(0);
    await lockout.succeeded("admin", "192.0.2.1");
    for (let i = 0; i < 2; i++) expect(await lockout.attempt("admin", "192.0.2.1")).toBe(0);
    // The address has counted 5 - 1 = 4 attempts: one more is allowed, then it is locked for any name.
    expect(await lockout.attempt("other", "192.0.2.1")).toBe(0);
    expect(await lockout.attempt("third", "192.0.2.1")).toBe(60);
  });

  it("counts an IPv6 client by its /64, and forgets attempts older than the window", async () => {
    for (let i = 0; i < 5; i++) expect(await lockout.attempt(`u${i}`, `2001:db8:1:2::${i + 1}`)).toBe(0);
    expect(await lockout.attempt("u9", "2001:db8:1:2:ffff::9")).toBe(60);
    expect(await lockout.attempt("u9", "2001:db8:1:3::1")).toBe(0);
    now += 61_000;
    for (let i = 0; i < 5; i++) expect(await lockout.attempt(`v${i}`, "2001:db8:1:3::1")).toBe(0);
  });
}
