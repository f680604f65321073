import { MemoryBus } from "./memory-bus.js";
import type { Bus, BusMessage } from "./port.js";
import { EventStamp, Outbox, type OutgoingEvent, type OutboxWrite, type OutboxKind } from "./outbox.js";
import { captureLogger, recorder, sleep, text, waitUntil } from "./bus-test-kit.js";
import { adaptersUnderTest } from "../store/adapters-under-test.js";
import { TestClock } from "../store/store-contract-kit.js";
import type { Collection, Doc, Store } from "../store/port.js";

interface Thing extends Doc {
  name: string;
}
interface Part extends Doc {
  thingId: string;
}
type Snapshot = { _id: string; name: string };

const SUBJECT = "iam.test.v1.thing.deleted";
const LEASE_MS = 30_000;
/** Outbox's default owner TTL (ownerTtlMs). */
const OWNER_TTL_MS = 10_000;
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/**
 * The outbox on each store adapter with the in-process bus. A crash is a removal left hanging
 * (its publish or its write never returns) and a second outbox on the same store, as the process
 * that starts after it: the clock then moves past the lease, as time does across a restart.
 */
describe.each(adaptersUnderTest("Outbox"))("Outbox on %s", (_name, openStore) => {
  let clock: TestClock;
  let store: Store;
  let bus: MemoryBus;
  let things: Collection<Thing>;
  let parts: Collection<Part>;
  let entries: Collection<Doc>;
  let finished: string[];
  let kind: OutboxKind<Snapshot>;
  let delivered: ReturnType<typeof recorder>;
  /** The id of each event `announce` built, in order: the staged copy's, then the published one's. */
  let announcedIds: string[];

  /** A process's outbox: its own kind object, registered as each process registers its own. */
  async function process(processBus: Bus, soleProcess = false): Promise<{ outbox: Outbox; kind: OutboxKind<Snapshot> }> {
    const own: OutboxKind<Snapshot> = {
      name: "test.thing",
      applied: async (s) => (await things.get(s._id)) === null,
      finish: async (s) => {
        finished.push(s._id);
        await parts.deleteMany({ thingId: s._id });
      },
    };
    const outbox = await Outbox.open(store, processBus, clock, captureLogger().logger, { leaseMs: LEASE_MS, relayIntervalMs: 0, soleProcess });
    outbox.register(own);
    return { outbox, kind: own };
  }

  function removal(k: OutboxKind<Snapshot>, id: string, overrides: Partial<OutboxWrite<Snapshot>> = {}): OutboxWrite<Snapshot> {
    return {
      kind: k,
      snapshot: { _id: id, name: `thing ${id}` },
      announce: (s: Snapshot, stamp: EventStamp): OutgoingEvent[] => {
        announcedIds.push(stamp.id("event"));
        return [{ subject: SUBJECT, payload: text(s.name), id: stamp.id("event") }];
      },
      apply: async () => {
        const gone = await things.findOneAndDelete({ _id: id });
        return gone && { _id: gone._id, name: gone.name };
      },
      rest: async () => { await parts.deleteMany({ thingId: id }); },
      undo: async () => { await things.insert({ _id: id, name: `thing ${id}` }); },
      ...overrides,
    };
  }

  beforeEach(async () => {
    clock = new TestClock();
    store = await openStore(clock);
    bus = new MemoryBus({ path: ":memory:", logger: captureLogger().logger, pruneIntervalMs: 0 });
    const suffix = Math.random().toString(36).slice(2, 8);
    things = await store.collection<Thing>({ name: `things_${suffix}` });
    parts = await store.collection<Part>({ name: `parts_${suffix}` });
    entries = await store.collection<Doc>({ name: "outbox", indexes: [{ fields: ["leaseUntil"] }, { fields: ["createdAt"] }] });
    await entries.deleteMany({});
    await (await store.collection<Doc>({ name: "outbox_owners", indexes: [{ fields: ["aliveUntil"] }] })).deleteMany({});
    await things.insertMany([{ _id: "t1", name: "thing t1" }, { _id: "t2", name: "thing t2" }]);
    await parts.insertMany([{ _id: "p1", thingId: "t1" }, { _id: "p2", thingId: "t1" }, { _id: "p3", thingId: "t2" }]);
    finished = [];
    announcedIds = [];
    kind = (await process(bus)).kind;
    delivered = recorder();
    await bus.subscribe({ durable: `test-${suffix}`, subject: SUBJECT }, delivered.handler);
  });
  afterEach(async () => {
    await bus.close();
    await store.close();
  });

  it("stages the announcement, takes the record, does the rest, publishes under the staged id, and keeps no entry", async () => {
    const { outbox, kind: k } = await process(bus);
    const r = removal(k, "t1");
    await expect(outbox.write(r)).resolves.toEqual({ _id: "t1", name: "thing t1" });
    expect(await things.get("t1")).toBeNull();
    expect(await parts.count({ thingId: "t1" })).toBe(0);
    await waitUntil("delivery", () => delivered.got.length === 1);
    expect(delivered.got[0]?.id).toBe(announcedIds[0]);
    expect(announcedIds).toEqual([announcedIds[0], announcedIds[0]]); // staged and published copies
    expect(delivered.bodies()).toEqual(["thing t1"]);
    expect(await entries.count({})).toBe(0);
  });

  it("announces nothing and keeps no entry when the record was already gone", async () => {
    const { outbox, kind: k } = await process(bus);
    await things.delete("t1");
    await expect(outbox.write(removal(k, "t1"))).resolves.toBeNull();
    expect(await parts.count({ thingId: "t1" })).toBe(2);
    expect(await entries.count({})).toBe(0);
    clock.advance(LEASE_MS + 1);
    expect(await outbox.relay()).toBe(0);
    await sleep(20);
    expect(delivered.got).toEqual([]);
  });

  it("after a crash between the removal and its announcement, the next process's relay finishes the rest and announces it once, under the staged id", async () => {
    const hung = Object.create(bus) as Bus;
    hung.publish = () => never();
    const crashed = await process(hung);
    const r = removal(crashed.kind, "t1", { rest: never }); // dies after the record went, before the rest
    void crashed.outbox.write(r);
    await waitUntil("the store to show it", async () => (await things.get("t1")) === null);
    expect(await entries.count({})).toBe(1);

    const next = await process(bus);
    // Within the lease the entry belongs to the removal in progress (it may yet finish).
    expect(await next.outbox.relay()).toBe(0);
    expect(await parts.count({ thingId: "t1" })).toBe(2);
    clock.advance(LEASE_MS);
    expect(await next.outbox.relay()).toBe(1);
    expect(finished).toEqual(["t1"]);
    expect(await parts.count({ thingId: "t1" })).toBe(0);
    expect(await parts.count({ thingId: "t2" })).toBe(1);
    await waitUntil("delivery", () => delivered.got.length === 1);
    expect(delivered.got[0]?.id).toBe(announcedIds[0]);
    expect(delivered.bodies()).toEqual(["thing t1"]);
    expect(await entries.count({})).toBe(0);
    clock.advance(LEASE_MS);
    expect(await next.outbox.relay()).toBe(0);
    // A publish that went out before the crash is not delivered twice: the same id is dropped.
    await bus.publish(SUBJECT, text("thing t1"), { id: announcedIds[0] });
    await sleep(20);
    expect(delivered.got).toHaveLength(1);
  });

  it("in a cluster, a replica takes the entries of a process that stopped beating once its owner TTL passed, not a lease later, and then forgets it", async () => {
    const hung = Object.create(bus) as Bus;
    hung.publish = () => never();
    const crashed = await process(hung);
    void crashed.outbox.write(removal(crashed.kind, "t1", { rest: never }));
    await waitUntil("the store to show it", async () => (await things.get("t1")) === null);
    const other = await process(bus);
    const owners = await store.collection<Doc>({ name: "outbox_owners" });
    expect(await owners.count({})).toBe(3); // beforeEach's process, the crashed one, the other

    clock.advance(OWNER_TTL_MS - 1); // its last beat still holds
    expect(await other.outbox.relay()).toBe(0);
    clock.advance(1); // silent for the TTL: gone, 20 s before its entry's lease ends
    expect(await other.outbox.relay()).toBe(1);
    expect(finished).toEqual(["t1"]);
    await waitUntil("delivery", () => delivered.got.length === 1);
    expect(delivered.got[0]?.id).toBe(announcedIds[0]);
    expect(await entries.count({})).toBe(0);
    expect(await other.outbox.relay()).toBe(0);
    // Gone owners are dropped once they have no entries (the crashed one, a round after its entry
    // went); the relaying one beat and stays.
    expect((await owners.find({})).map((o) => o._id)).toHaveLength(1);
  });

  it("in a cluster, the entry of a process that still beats waits for its lease, and a stopped process's for nobody", async () => {
    const hung = Object.create(bus) as Bus;
    hung.publish = () => never();
    const slow = await process(hung);
    void slow.outbox.write(removal(slow.kind, "t1", { rest: never }));
    await waitUntil("the store to show it", async () => (await things.get("t1")) === null);
    const other = await process(bus);
    clock.advance(OWNER_TTL_MS * 2);
    await slow.outbox.relay(); // it beats (a relay round beats first; its own entry is under its lease)
    expect(await other.outbox.relay()).toBe(0);
    clock.advance(LEASE_MS - OWNER_TTL_MS * 2);
    expect(await other.outbox.relay()).toBe(1); // a write hanging past its lease is taken all the same
    expect(finished).toEqual(["t1"]);

    const stopping = await process(hung);
    void stopping.outbox.write(removal(stopping.kind, "t2", { rest: never }));
    await waitUntil("the store to show it", async () => (await things.get("t2")) === null);
    expect(await other.outbox.relay()).toBe(0);
    await stopping.outbox.stop(); // its hanging write dies with the process
    expect(await other.outbox.relay()).toBe(1);
    expect(finished).toEqual(["t1", "t2"]);
    await waitUntil("delivery", () => delivered.got.length === 2);
    expect(delivered.bodies()).toEqual(["thing t1", "thing t2"]);
  });

  it("as the store's only process, the next one takes a crashed predecessor's entries at start, not a lease later, and leaves its own writes in progress", async () => {
    const hung = Object.create(bus) as Bus;
    hung.publish = () => never();
    const crashed = await process(hung);
    void crashed.outbox.write(removal(crashed.kind, "t1", { rest: never }));
    await waitUntil("the store to show it", async () => (await things.get("t1")) === null);

    clock.advance(1); // a restart takes a millisecond; far from the 30 s lease
    const next = await process(bus, true);
    // Its own write in progress (hung before the record goes) is under its lease like any other.
    void next.outbox.write(removal(next.kind, "t2", { apply: never }));
    await waitUntil("both entries", async () => (await entries.count({})) === 2);
    expect(await next.outbox.relay()).toBe(1); // the lease does not hold it
    expect(finished).toEqual(["t1"]);
    expect(await parts.count({ thingId: "t1" })).toBe(0);
    await waitUntil("delivery", () => delivered.got.length === 1);
    expect(delivered.got[0]?.id).toBe(announcedIds[0]);
    expect(delivered.bodies()).toEqual(["thing t1"]);
    expect(await entries.count({})).toBe(1);
    expect(await things.get("t2")).toEqual({ _id: "t2", name: "thing t2" });
    expect(await next.outbox.relay()).toBe(0);
    expect(await entries.count({})).toBe(1);
  });

  it("after a crash before the record went, the relay drops the entry and announces nothing", async () => {
    const crashed = await process(bus);
    void crashed.outbox.write(removal(crashed.kind, "t1", { apply: never }));
    await waitUntil("the store to show it", async () => (await entries.count({})) === 1);
    const next = await process(bus);
    clock.advance(LEASE_MS);
    expect(await next.outbox.relay()).toBe(0);
    expect(await entries.count({})).toBe(0);
    expect(finished).toEqual([]);
    expect(await things.get("t1")).toEqual({ _id: "t1", name: "thing t1" });
    expect(await parts.count({ thingId: "t1" })).toBe(2);
    await sleep(20);
    expect(delivered.got).toEqual([]);
  });

  it("drops the entry at once when the write is refused, and leaves it to the relay when the store cannot say whether it happened", async () => {
    const { outbox, kind: k } = await process(bus);
    const conflict = new Error("conflict");
    await expect(outbox.write(removal(k, "t1", { apply: () => Promise.reject(conflict) }))).rejects.toBe(conflict);
    expect(await entries.count({})).toBe(0);
    expect(await things.get("t1")).not.toBeNull();
    // The store fails both the write and the look at it: the entry stays for the relay.
    const unsure: OutboxKind<Snapshot> = { name: "test.unsure", applied: () => Promise.reject(new Error("store down")) };
    outbox.register(unsure);
    await expect(outbox.write(removal(unsure, "t1", { apply: () => Promise.reject(conflict) }))).rejects.toBe(conflict);
    expect(await entries.count({ kind: "test.unsure" })).toBe(1);
    await sleep(20);
    expect(delivered.got).toEqual([]);
  });

  it("announces from the record taken, under the same ids as the staged copy", async () => {
    const { outbox, kind: k } = await process(bus);
    const r = removal(k, "t1", {
      apply: async () => {
        await things.delete("t1");
        return { _id: "t1", name: "renamed since it was read" };
      },
    });
    await outbox.write(r);
    await waitUntil("delivery", () => delivered.got.length === 1);
    expect(delivered.bodies()).toEqual(["renamed since it was read"]);
    expect(delivered.got[0]?.id).toBe(announcedIds[0]);
    expect(announcedIds).toEqual([announcedIds[0], announcedIds[0]]);
  });

  it("hands each entry to one relay when replicas relay at once", async () => {
    const hung = Object.create(bus) as Bus;
    hung.publish = () => never();
    const crashed = await process(hung);
    void crashed.outbox.write(removal(crashed.kind, "t1"));
    void crashed.outbox.write(removal(crashed.kind, "t2"));
    await waitUntil("the store to show it", async () => (await things.count({})) === 0);
    const a = await process(bus);
    const b = await process(bus);
    clock.advance(LEASE_MS);
    const [byA, byB, byAAgain] = await Promise.all([a.outbox.relay(), b.outbox.relay(), a.outbox.relay()]);
    // A second call during a round runs after it, and finds nothing left.
    expect(byAAgain).toBe(0);
    expect((byA ?? 0) + (byB ?? 0)).toBe(2);
    expect([...finished].sort()).toEqual(["t1", "t2"]);
    await waitUntil("deliveries", () => delivered.got.length === 2);
    expect(delivered.bodies().sort()).toEqual(["thing t1", "thing t2"]);
  });

  it("hands an entry whose announcement fails back to the next round, and stops the round there", async () => {
    const hung = Object.create(bus) as Bus;
    hung.publish = () => never();
    const crashed = await process(hung);
    void crashed.outbox.write(removal(crashed.kind, "t1"));
    void crashed.outbox.write(removal(crashed.kind, "t2"));
    await waitUntil("the store to show it", async () => (await things.get("t1")) === null && (await things.get("t2")) === null);
    let fail = true;
    let attempts = 0;
    const flaky = Object.create(bus) as Bus;
    flaky.publish = async (subject, payload, options): Promise<BusMessage> => {
      attempts++;
      if (fail) throw new Error("bus unavailable");
      return bus.publish(subject, payload, options);
    };
    const next = await process(flaky);
    clock.advance(LEASE_MS);
    expect(await next.outbox.relay()).toBe(0);
    expect(attempts).toBe(1); // the second entry is not tried against a failing bus
    expect(await entries.count({})).toBe(2);
    fail = false;
    expect(await next.outbox.relay()).toBe(2);
    await waitUntil("delivery", () => delivered.got.length === 2);
    expect(await entries.count({})).toBe(0);
  });

  it("refuses a kind registered twice under one name, and a removal of a kind not registered", async () => {
    const outbox = await Outbox.open(store, bus, clock, captureLogger().logger, { relayIntervalMs: 0 });
    outbox.register(kind);
    outbox.register(kind); // the same kind again is harmless
    expect(() => outbox.register({ ...kind })).toThrow('outbox kind "test.thing" registered twice');
    const other: OutboxKind<Snapshot> = { name: "test.other", applied: async () => true };
    await expect(outbox.write(removal(other, "t1"))).rejects.toThrow('outbox kind "test.other" is not registered');
    expect(await things.get("t1")).not.toBeNull();
    expect(await entries.count({})).toBe(0);
  });

  it("leaves an entry of a kind this process does not know in place, and logs it", async () => {
    await entries.insert({ _id: "e1", kind: "test.unknown", snapshot: {}, events: [], leaseUntil: clock.now() - 1, createdAt: clock.now() - 1 });
    const log = captureLogger();
    const outbox = await Outbox.open(store, bus, clock, log.logger, { relayIntervalMs: 0 });
    expect(await outbox.relay()).toBe(0);
    expect(await entries.count({ _id: "e1" })).toBe(1);
    expect(log.records).toContainEqual(expect.objectContaining({ kind: "test.unknown", msg: "outbox entry of an unknown kind left in place" }));
  });
});
