import { MemoryBus } from "./memory-bus.js";
import type { Bus, BusMessage } from "./port.js";
import { Outbox, type OutboxKind, type OutboxWrite } from "./outbox.js";
import { captureLogger, recorder, sleep, text, waitUntil } from "./bus-test-kit.js";
import { SqliteStore } from "../store/sqlite-store.js";
import { TestClock } from "../store/store-contract-kit.js";
import type { Collection, Doc } from "../store/port.js";

interface Thing extends Doc {
  name: string;
}
type Snapshot = { _id: string; name: string };

const SUBJECT = "iam.test.v1.thing.deleted";
const LEASE_MS = 30_000;

/**
 * The outbox while the bus fails (DESIGN 8: a request never waits on the bus once its write has
 * committed): the write answers, its announcement waits in the store, and the relay sends it once
 * the bus takes it, at once rather than a lease later, under its one id.
 */
describe("Outbox while the bus is down", () => {
  let clock: TestClock;
  let store: SqliteStore;
  let bus: MemoryBus;
  let things: Collection<Thing>;
  let entries: Collection<Doc>;
  let kind: OutboxKind<Snapshot>;
  let delivered: ReturnType<typeof recorder>;
  let announcedIds: string[];

  async function process(processBus: Bus): Promise<{ outbox: Outbox; kind: OutboxKind<Snapshot> }> {
    const outbox = await Outbox.open(store, processBus, clock, captureLogger().logger, { leaseMs: LEASE_MS, relayIntervalMs: 0 });
    outbox.register(kind);
    return { outbox, kind };
  }

  function removal(k: OutboxKind<Snapshot>, id: string): OutboxWrite<Snapshot> {
    return {
      kind: k,
      snapshot: { _id: id, name: `thing ${id}` },
      announce: (s, stamp) => {
        announcedIds.push(stamp.id("event"));
        return [{ subject: SUBJECT, payload: text(s.name), id: stamp.id("event") }];
      },
      apply: async () => {
        const gone = await things.findOneAndDelete({ _id: id });
        return gone && { _id: gone._id, name: gone.name };
      },
    };
  }

  beforeEach(async () => {
    clock = new TestClock();
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0, clock });
    bus = new MemoryBus({ path: ":memory:", logger: captureLogger().logger, pruneIntervalMs: 0 });
    things = await store.collection<Thing>({ name: "things" });
    entries = await store.collection<Doc>({ name: "outbox", indexes: [{ fields: ["leaseUntil"] }, { fields: ["createdAt"] }] });
    await things.insertMany([{ _id: "t1", name: "thing t1" }]);
    announcedIds = [];
    kind = { name: "test.thing", applied: async (s) => (await things.get(s._id)) === null };
    delivered = recorder();
    await bus.subscribe({ durable: "test", subject: SUBJECT }, delivered.handler);
  });
  afterEach(async () => {
    await bus.close();
    await store.close();
  });

  it("answers a committed write although the bus refuses its announcement, and the next relay round announces it once, not a lease later", async () => {
    let fail = true;
    const flaky = Object.create(bus) as Bus;
    flaky.publish = async (subject, payload, options): Promise<BusMessage> => {
      if (fail) throw new Error("bus unavailable");
      return bus.publish(subject, payload, options);
    };
    const { outbox, kind: k } = await process(flaky);
    await expect(outbox.write(removal(k, "t1"))).resolves.toEqual({ _id: "t1", name: "thing t1" });
    await outbox.settled();
    expect(await things.get("t1")).toBeNull();
        expect(await entries.count({})).toBe(1);
    // Still failing: the round leaves it for the next one.
    expect(await outbox.relay()).toBe(0);
    expect(await entries.count({})).toBe(1);
    fail = false;
    // No clock advance: the entry was handed back, its lease is not waited for.
    expect(await outbox.relay()).toBe(1);
    await waitUntil("delivery", () => delivered.got.length === 1);
    expect(delivered.got[0]?.id).toBe(announcedIds[0]);
    expect(await entries.count({})).toBe(0);
    expect(await outbox.relay()).toBe(0);
    await sleep(20);
    expect(delivered.got).toHaveLength(1);
  });

  it("does not wait on a bus that hangs: the write answers within publishWaitMs, and its announcement goes out when the publish returns", async () => {
    let release: (() => void) | undefined;
    const slow = Object.create(bus) as Bus;
    slow.publish = async (subject, payload, options): Promise<BusMessage> => {
      await new Promise<void>((r) => { release = r; });
      return bus.publish(subject, payload, options);
    };
    const outbox = await Outbox.open(store, slow, clock, captureLogger().logger, { leaseMs: LEASE_MS, relayIntervalMs: 0, publishWaitMs: 50 });
    outbox.register(kind);
    const started = Date.now();
    await expect(outbox.write(removal(kind, "t1"))).resolves.toEqual({ _id: "t1", name: "thing t1" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(delivered.got).toHaveLength(0);
    // The publish in progress keeps its entry: a relay round does not send a second copy meanwhile.
    expect(await outbox.relay()).toBe(0);
    release!();
    await outbox.settled();
    await waitUntil("delivery", () => delivered.got.length === 1);
    expect(await entries.count({})).toBe(0);
  });

  it("while the bus is known to be down, publishes nothing in the request nor in relay rounds, and relays as soon as it reconnects", async () => {
    let up = false;
    const reconnects: Array<() => void> = [];
    const calls: string[] = [];
    const down = Object.create(bus) as Bus;
    down.available = () => up;
    down.onReconnect = (l) => { reconnects.push(l); };
    down.publish = async (subject, payload, options): Promise<BusMessage> => {
      calls.push(subject);
      return bus.publish(subject, payload, options);
    };
    const outbox = await Outbox.open(store, down, clock, captureLogger().logger, { leaseMs: LEASE_MS, relayIntervalMs: 0 });
    outbox.register(kind);
    await expect(outbox.write(removal(kind, "t1"))).resolves.toEqual({ _id: "t1", name: "thing t1" });
    await outbox.send([{ subject: SUBJECT, payload: text("login"), id: "e-login" }]);
    expect(await outbox.relay()).toBe(0);
    expect(calls).toEqual([]);
    expect(await entries.count({})).toBe(2);
    up = true;
    expect(reconnects).toHaveLength(1);
    reconnects[0]!();
    await waitUntil("deliveries", () => delivered.got.length === 2);
    expect(delivered.bodies().sort()).toEqual(["login", "thing t1"]);
    await waitUntil("the outbox emptied", async () => (await entries.count({})) === 0);
  });

  it("sends events of no write through an entry, and drops it once published", async () => {
    const { outbox } = await process(bus);
    await outbox.send([{ subject: SUBJECT, payload: text("a"), id: "e-a" }, { subject: SUBJECT, payload: text("b"), id: "e-b" }]);
    await outbox.settled();
    await waitUntil("deliveries", () => delivered.got.length === 2);
    expect(delivered.got.map((m) => m.id)).toEqual(["e-a", "e-b"]);
    expect(await entries.count({})).toBe(0);
    await outbox.send([]);
    expect(await entries.count({})).toBe(0);
  });

});
