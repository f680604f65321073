import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describeStoreContract } from "./store-contract.js";
import { TestClock } from "./store-contract-kit.js";
import { SqliteStore } from "./sqlite-store.js";
import type { Collection, Doc } from "./port.js";
import { openStore } from "./open-store.js";
import { recordQueryPlans, selectsFrom } from "./sqlite-query-plans.js";

const dir = mkdtempSync(join(tmpdir(), "tessera-sqlite-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeStoreContract("sqlite :memory:", async (clock) => openStore({ kind: "sqlite", path: ":memory:", clock, sweepIntervalMs: 0 }));
describeStoreContract("sqlite file", async (clock) => openStore({ kind: "sqlite", path: join(dir, "contract.db"), clock, sweepIntervalMs: 0 }));

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}

/**
 * A file store whose flushes wait to be let go (`flushes`, in order), with a collection made;
 * `calls` counts the flushes asked for after that.
 */
async function heldFlushes(file: string): Promise<{ store: SqliteStore; things: Collection<Doc>; flushes: Array<() => void>; calls: () => number }> {
  const flushes: Array<() => void> = [];
  let calls = 0;
  const syncFile = () => new Promise<void>((done) => { calls++; flushes.push(done); });
  const store = new SqliteStore({ path: join(dir, file), syncFile });
  const pending = store.collection({ name: "things" });
  await waitFor(() => flushes.length === 1); // the table's creation
  flushes.shift()!();
  const things = await pending;
  calls = 0;
  return { store, things, flushes, calls: () => calls };
}

describe("sqlite store specifics", () => {
  it("drops a retired index from a store created before (a replaced index costs no write)", async () => {
    const path = join(dir, "retired.db");
    const first = new SqliteStore({ path });
    await first.collection({ name: "things", indexes: [{ fields: ["a", "b"] }] });
    await first.close();
    const second = new SqliteStore({ path });
    await second.collection({ name: "things", indexes: [{ fields: ["a", "c", "b"] }], retiredIndexes: ["a_1_b_1"] });
    expect(second.statement(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'things' ORDER BY name`).all()).toEqual([
      { name: "sqlite_autoindex_things_1" }, { name: "things__a_1_c_1_b_1" },
    ]);
    await second.close();
  });

  it("keeps data across reopen, in WAL mode", async () => {
    const path = join(dir, "reopen.db");
    const first = new SqliteStore({ path });
    await (await first.collection({ name: "things", indexes: [{ fields: ["k"], unique: true }] })).insert({ _id: "1", k: "a" });
    await first.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    raw.close();
    const second = new SqliteStore({ path });
    const things = await second.collection({ name: "things", indexes: [{ fields: ["k"], unique: true }] });
    expect(await things.get("1")).toEqual({ _id: "1", k: "a" });
    await second.close();
  });

  it("by default resolves a write only once a flush of the WAL after its commit has finished; \"normal\" never flushes", async () => {
    const flushes: Array<{ fd: number; done: () => void }> = [];
    const syncFile = (fd: number) => new Promise<void>((done) => { flushes.push({ fd, done }); });
    const full = new SqliteStore({ path: join(dir, "full.db"), syncFile });
    // PRAGMA synchronous: 1 = NORMAL. COMMIT itself does not fsync; the flush is ours, off the event loop.
    expect(full.statement("PRAGMA synchronous").get()).toEqual({ synchronous: 1 });
    const c = full.collection({ name: "things" });
    await waitFor(() => flushes.length === 1); // the table's creation
    flushes.shift()!.done();
    const things = await c;
    let resolved = false;
    const write = things.insert({ _id: "a" }).then(() => { resolved = true; });
    await waitFor(() => flushes.length === 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(resolved).toBe(false); // committed, not yet durable
    flushes.shift()!.done();
    await write;
    expect(resolved).toBe(true);

    // A staged insert resolves before its flush, and shares it with the write that follows it in
    // the same turn (the outbox's entry and its write): one commit, one flush for both.
    let stagedAt = -1;
    const staged = await things.stage({ _id: "s" });
    stagedAt = flushes.length;
    const after = things.insert({ _id: "t" });
    await waitFor(() => flushes.length === 1);
    await new Promise((r) => setTimeout(r, 20));
    expect([stagedAt, flushes.length]).toEqual([0, 1]);
    flushes.shift()!.done();
    await Promise.all([staged.durable, after]);
    expect(flushes).toHaveLength(0);

    // A discard asks for no flush of its own: it commits, and the next flush carries it.
    expect(await things.discard("s")).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(flushes).toHaveLength(0);
    const next = things.insert({ _id: "u" });
    await waitFor(() => flushes.length === 1);
    flushes.shift()!.done();
    await next;
    expect(await things.get("s")).toBeNull();

    const normal = new SqliteStore({ path: join(dir, "normal.db"), synchronous: "normal", syncFile });
    expect(normal.statement("PRAGMA synchronous").get()).toEqual({ synchronous: 1 });
    await (await normal.collection({ name: "things" })).insert({ _id: "b" });
    expect(flushes).toHaveLength(0);
    await full.close();
    await normal.close();
  });

  it("flushes a staged write with the caller's next durable write, even a turn later, and alone only when asked", async () => {
    const { store, things, flushes, calls } = await heldFlushes("staged.db");

    // A login: its session staged, its code written a turn later; one flush makes both durable.
    const session = await things.stage({ _id: "session" });
    await new Promise((r) => setImmediate(r)); // the session's group commits, asking for no flush
    await new Promise((r) => setTimeout(r, 20));
    expect(calls()).toBe(0);
    const code = things.insert({ _id: "code" });
    await waitFor(() => flushes.length === 1);
    flushes.shift()!();
    await code;
    await session.durable; // looked at after the code's flush: settled by it
    await new Promise((r) => setTimeout(r, 20));
    expect(calls()).toBe(1);

    // Looked at while a flush that started after it is in flight: that flush settles it.
    const second = await things.stage({ _id: "second" });
    await new Promise((r) => setImmediate(r));
    const other = things.insert({ _id: "other" });
    await waitFor(() => flushes.length === 1);
    let settled = false;
    const looked = second.durable.then(() => { settled = true; });
    await new Promise((r) => setTimeout(r, 20));
    expect([settled, calls()]).toEqual([false, 2]);
    flushes.shift()!();
    await Promise.all([looked, other]);
    expect(calls()).toBe(2);

    // A staged change (the code exchange's consume) likewise, settled by the family's flush.
    const consumed = await things.stageFindOneAndUpdate({ _id: "code" }, { $set: { used: true } });
    expect(consumed.doc).toEqual({ _id: "code", used: true });
    await new Promise((r) => setImmediate(r));
    const family = things.insert({ _id: "family" });
    await waitFor(() => flushes.length === 1);
    flushes.shift()!();
    await Promise.all([family, consumed.durable]);
    expect(calls()).toBe(3);

    // With no durable write after it, looking asks for a flush of its own, and waits for it.
    const alone = await things.stage({ _id: "alone" });
    await new Promise((r) => setImmediate(r));
    expect(calls()).toBe(3);
    settled = false;
    const lookedAlone = alone.durable.then(() => { settled = true; });
    await waitFor(() => flushes.length === 1);
    expect([settled, calls()]).toEqual([false, 4]);
    flushes.shift()!();
    await lookedAlone;
    await store.close();
  });

  it("makes a commit made during a flush wait for the next flush, which serves every such commit", async () => {
    const { store, things, flushes, calls } = await heldFlushes("queued.db");
    const settled: string[] = [];
    const first = things.insert({ _id: "1" }).then(() => settled.push("1"));
    await waitFor(() => flushes.length === 1); // flush A, for commit 1, in flight
    const second = things.insert({ _id: "2" }).then(() => settled.push("2"));
    await new Promise((r) => setImmediate(r)); // commit 2 made while A runs
    const third = things.insert({ _id: "3" }).then(() => settled.push("3"));
    await new Promise((r) => setImmediate(r)); // commit 3 too
    expect(calls()).toBe(1); // only A started
    flushes.shift()!(); // A done: 1 is durable; 2 and 3 may not be, so B starts for both
    await first;
    await waitFor(() => flushes.length === 1);
    expect(settled).toEqual(["1"]);
    expect(calls()).toBe(2);
    flushes.shift()!();
    await Promise.all([second, third]);
    expect(settled.sort()).toEqual(["1", "2", "3"]);
    await store.close();
  });

  it("rejects the writes whose flush failed, and every write after it until the store is reopened", async () => {
    let fail = false;
    const syncFile = async () => { if (fail) throw Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" }); };
    const path = join(dir, "flush-fails.db");
    const store = new SqliteStore({ path, syncFile });
    const things = await store.collection({ name: "things" });
    await things.insert({ _id: "kept" });
    fail = true;
    await expect(things.insert({ _id: "unsure" })).rejects.toThrow("EIO");
    fail = false; // a flush that succeeds after a failed one proves nothing (the dropped pages)
    await expect(things.insert({ _id: "later" })).rejects.toThrow("EIO");
    // Readiness fails too, so an orchestrator restarts the process.
    await expect(store.ping()).rejects.toThrow("the write-ahead log could not be flushed (EIO: i/o error, fdatasync); restart to recover");
    await store.close();
    const reopened = new SqliteStore({ path, syncFile });
    const again = await reopened.collection({ name: "things" });
    expect(await again.get("kept")).toEqual({ _id: "kept" });
    await again.insert({ _id: "after-restart" });
    await reopened.ping();
    await reopened.close();
  });

  it("flushes with fdatasync on the WAL file by default, and waits for a flush in flight on close", async () => {
    const path = join(dir, "real-flush.db");
    const store = new SqliteStore({ path });
    const things = await store.collection({ name: "things" });
    const writes = Array.from({ length: 20 }, (_, i) => things.insert({ _id: String(i) }));
    await store.close();
    await Promise.all(writes);
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare(`SELECT count(*) AS n FROM "things"`).get()).toEqual({ n: 20 });
    raw.close();
  });

  it("group-commits a turn's writes: each resolves after the shared commit, and a failed one fails alone", async () => {
    const path = join(dir, "group.db");
    const store = new SqliteStore({ path });
    const c = await store.collection({ name: "things" });
    const other = new Database(path, { readonly: true });
    const seen = (id: string) => other.prepare(`SELECT count(*) AS n FROM "things" WHERE _id = ?`).get(id) as { n: number };
    await c.insert({ _id: "taken" });
    const writes = [c.insert({ _id: "a" }), c.insert({ _id: "taken" }), c.upsert({ _id: "b", v: 1 })];
    // Ran, but not committed yet: another connection does not see them; this one does.
    expect(seen("a").n).toBe(0);
    expect(await c.get("a")).toEqual({ _id: "a" });
    const [a, dup, b] = await Promise.allSettled(writes);
    expect([a?.status, b?.status]).toEqual(["fulfilled", "fulfilled"]);
    expect(dup).toMatchObject({ status: "rejected", reason: { code: "alreadyExists" } });
    expect([seen("a").n, seen("b").n]).toEqual([1, 1]);
    other.close();
    await store.close();
  });

  it("rejects the writes of a group SQLite rolled back, and carries on with a new group", async () => {
    const store = new SqliteStore({ path: join(dir, "rolled-back.db") });
    const c = await store.collection({ name: "things" });
    const lost = c.insert({ _id: "lost" });
    store.statement("ROLLBACK").run(); // what SQLite does itself on an I/O error or a full disk
    const kept = c.insert({ _id: "kept" });
    await expect(lost).rejects.toThrow("rolled back a group commit");
    await kept;
    expect(await c.get("lost")).toBeNull();
    expect(await c.get("kept")).toEqual({ _id: "kept" });
    await store.close();
  });

  it("uses the json_extract expression indexes for equality and ranges", async () => {
    const path = join(dir, "plan.db");
    const store = new SqliteStore({ path });
    const c = await store.collection({ name: "users", indexes: [{ fields: ["realmId", "usernameKey"], unique: true }] });
    await c.insert({ _id: "1", realmId: "r", usernameKey: "u" });
    await store.close();
    const raw = new Database(path, { readonly: true });
    const plan = raw
      .prepare(`EXPLAIN QUERY PLAN SELECT doc FROM "users" WHERE json_extract(doc, '$.realmId') IS ? AND json_extract(doc, '$.usernameKey') IS ?`)
      .all("r", "u") as Array<{ detail: string }>;
    raw.close();
    expect(plan.map((p) => p.detail).join(" ")).toContain("users__realmId_1_usernameKey_1");
  });

  it("serves a boolean equality from an index on the field, as any other equality", async () => {
    const recording = recordQueryPlans(selectsFrom("flags"));
    const store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
    try {
      const c = await store.collection({ name: "flags", indexes: [{ fields: ["realmId", "offline", "createdAt"] }] });
      await c.insertMany([
        { _id: "a", realmId: "r", offline: false, createdAt: 2 }, { _id: "b", realmId: "r", offline: true, createdAt: 1 },
        { _id: "c", realmId: "r", offline: 0, createdAt: 3 }, { _id: "d", realmId: "r", createdAt: 4 },
      ]);
      expect((await c.find({ realmId: "r", offline: false }, { sort: [["createdAt", 1]] })).map((d) => d._id)).toEqual(["a"]);
      expect((await c.find({ realmId: "r", offline: true }, { sort: [["createdAt", 1]] })).map((d) => d._id)).toEqual(["b"]);
      // One statement per value (the type guard names it); the sort's `_id` tie-break is all that is sorted apart.
      expect(recording.plans.map((p) => p.plan)).toEqual(Array(2).fill(
        "SEARCH flags USING INDEX flags__realmId_1_offline_1_createdAt_1 (<expr>=? AND <expr>=?) | USE TEMP B-TREE FOR LAST TERM OF ORDER BY",
      ));
    } finally {
      recording.stop();
      await store.close();
    }
  });

  it("sweeps expired documents periodically and stops on close", async () => {
    const clock = new TestClock();
    const store = new SqliteStore({ path: ":memory:", clock, sweepIntervalMs: 10 });
    const c = await store.collection({ name: "codes", ttl: true });
    await c.insert({ _id: "a", expiresAt: clock.now() + 1 });
    clock.advance(1);
    await new Promise((r) => setTimeout(r, 60));
    clock.t = TestClock.START; // the document would be visible again had it not been deleted
    expect(await c.get("a")).toBeNull();
    await store.close();
  });

  it("reports sweep failures to onSweepError instead of throwing from a timer", async () => {
    const errors: unknown[] = [];
    const store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 10, onSweepError: (e) => errors.push(e) });
    await store.collection({ name: "t", ttl: true });
    (store as unknown as { sweepExpired: () => Promise<number> }).sweepExpired = () => Promise.reject(new Error("boom"));
    await new Promise((r) => setTimeout(r, 50));
    await store.close();
    expect(errors.length).toBeGreaterThan(0);
  });
});
