import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeBusContract } from "./bus-contract.js";
import { captureLogger, recorder, sleep, text, untext, waitUntil } from "./bus-test-kit.js";
import { MemoryBus } from "./memory-bus.js";
import { openBus } from "./open-bus.js";

describeBusContract("memory (:memory:)", () => ({
  root: "iam",
  persistent: false,
  open: async (logger) => new MemoryBus({ path: ":memory:", logger }),
}));

describeBusContract("memory (SQLite file)", () => {
  const dir = mkdtempSync(join(tmpdir(), "tessera-bus-"));
  const path = join(dir, "bus.db");
  return {
    root: "iam",
    persistent: true,
    open: async (logger) => new MemoryBus({ path, logger }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe("MemoryBus specifics", () => {
  const quiet = (): ReturnType<typeof captureLogger>["logger"] => captureLogger().logger;
  let dir = "";
  const buses: MemoryBus[] = [];
  const open = (opts: Partial<ConstructorParameters<typeof MemoryBus>[0]> = {}): MemoryBus => {
    const bus = new MemoryBus({ path: ":memory:", logger: quiet(), ...opts });
    buses.push(bus);
    return bus;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "tessera-bus-"));
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it("prunes only entries every durable has handled and that are older than the retention window", async () => {
    let now = 1_000_000;
    const bus = open({ clock: { now: () => now }, retentionMs: 1000, pruneIntervalMs: 0 });
    const a = recorder();
    await bus.subscribe({ durable: "a", subject: "iam.>" }, a.handler);
    await bus.publish("iam.x.v1.a.created", text("1"));
    await bus.publish("iam.x.v1.a.created", text("2"));
    await waitUntil("a handled both", () => a.got.length === 2);
    // "b" is known but stopped after the first message: it holds the journal from message 2 on.
    const b = recorder();
    const subB = await bus.subscribe({ durable: "b", subject: "iam.>" }, b.handler);
    await waitUntil("b handled both", () => b.got.length === 2);
    await subB.stop();
    await bus.publish("iam.x.v1.a.created", text("3"));
    await waitUntil("a handled 3", () => a.got.length === 3);
    expect(bus.prune()).toBe(0);
    now += 5000;
    expect(bus.prune()).toBe(2);
    // A new durable sees only what is retained, and sequence numbers keep increasing after a prune.
    await bus.publish("iam.x.v1.a.created", text("4"));
    const late = recorder();
    await bus.subscribe({ durable: "late", subject: "iam.>" }, late.handler);
    await waitUntil("late", () => late.got.length === 2);
    expect(late.bodies()).toEqual(["3", "4"]);
    const b2 = recorder();
    await bus.subscribe({ durable: "b", subject: "iam.>" }, b2.handler);
    await waitUntil("b resumed", () => b2.got.length === 2);
    expect(b2.bodies()).toEqual(["3", "4"]);
  });

  it("deletes a retired durable at once, so the journal is pruned past where it had stopped", async () => {
    let now = 1_000_000;
    const bus = open({ clock: { now: () => now }, retentionMs: 1000, pruneIntervalMs: 0 });
    const a = recorder();
    await bus.subscribe({ durable: "a", subject: "iam.>" }, a.handler);
    const old = await bus.subscribe({ durable: "retired", subject: "iam.y.>" }, async () => undefined);
    await old.stop();
    await bus.publish("iam.x.v1.a.created", text("1"));
    await bus.publish("iam.y.v1.a.created", text("2"));
    await waitUntil("a handled both", () => a.got.length === 2);
    now += 5000;
    // "retired" never got past the start: it holds the whole journal.
    expect(bus.prune()).toBe(0);
    expect(await bus.retireDurable("retired")).toBe(true);
    expect(bus.prune()).toBe(2);
    // Deleted at once: a second retirement finds none.
    expect(await bus.retireDurable("retired")).toBe(false);
  });

  it("has run a watcher by the time the publisher's await resumes (a write's cache drops precede its reply)", async () => {
    const bus = open();
    const got: string[] = [];
    await bus.watch({ subject: "iam.x.v1.a.updated", onGap: () => undefined }, (m) => { got.push(untext(m.payload)); });
    const pending = bus.publish("iam.x.v1.a.updated", text("1"));
    expect(got).toEqual([]);
    await pending;
    expect(got).toEqual(["1"]);
  });

  it("resolves publish on a file journal only once a flush of its log after the append has finished", async () => {
    const flushes: Array<() => void> = [];
    const bus = open({ path: join(dir, "flushed.db"), syncFile: () => new Promise<void>((done) => { flushes.push(done); }) });
    let resolved = false;
    const published = bus.publish("iam.test.v1.flushed", text("a")).then(() => { resolved = true; });
    await waitUntil("the flush", () => flushes.length === 1);
    await sleep(20);
    expect(resolved).toBe(false); // appended and committed, not yet durable
    flushes.shift()!();
    await published;
    expect(resolved).toBe(true);
  });

  it("rejects a publish whose flush failed, and is not ready from then on", async () => {
    const bus = open({ path: join(dir, "flush-fails.db"), syncFile: async () => { throw new Error("EIO: i/o error, fdatasync"); } });
    await expect(bus.publish("iam.test.v1.lost", text("a"))).rejects.toThrow("EIO");
    await expect(bus.ping()).rejects.toThrow("the write-ahead log could not be flushed (EIO: i/o error, fdatasync); restart to recover");
  });

  it("keeps delivery counts across a restart, so maxDeliveries is not reset by one", async () => {
    const path = join(dir, "bus.db");
    const capture = captureLogger();
    let attempts = 0;
    const failing = async (): Promise<void> => {
      attempts++;
      throw new Error("fails");
    };
    const first = new MemoryBus({ path, logger: capture.logger });
    await first.publish("iam.x.v1.a.created", text("poison"));
    await first.subscribe({ durable: "a", subject: "iam.>", retryDelayMs: 10_000, maxDeliveries: 2 }, failing);
    await waitUntil("first attempt", () => attempts === 1);
    await first.close();

    const second = open({ path, logger: capture.logger });
    const r = recorder();
    await second.subscribe({ durable: "a", subject: "iam.>", retryDelayMs: 10, maxDeliveries: 2 }, async (m) => {
      if (untext(m.payload) === "poison") return failing();
      return r.handler(m);
    });
    await second.publish("iam.x.v1.a.created", text("fine"));
    await waitUntil("fine", () => r.got.length === 1);
    expect(attempts).toBe(2);
    expect(capture.records.filter((x) => x.level === 50)).toHaveLength(1);
  });

  it("moves an idle durable past other subjects' messages without delivering them, and stores that position on close", async () => {
    const path = join(dir, "bus.db");
    const first = new MemoryBus({ path, logger: quiet() });
    const a = recorder();
    await first.subscribe({ durable: "a", subject: "iam.a.>" }, a.handler);
    await first.publish("iam.a.v1.x.created", text("mine-1"));
    await waitUntil("mine-1", () => a.got.length === 1);
    for (let i = 0; i < 5; i++) await first.publish("iam.b.v1.x.created", text(`other-${i}`));
    await first.publish("iam.a.v1.x.created", text("mine-2"));
    await waitUntil("mine-2", () => a.got.length === 2);
    for (let i = 0; i < 3; i++) await first.publish("iam.b.v1.x.created", text(`later-${i}`));
    await first.close();
    // The skipped tail (seq 8..10) was stored on close, though no matching message followed it.
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare("SELECT ack_seq FROM consumers WHERE durable = 'a'").get()).toEqual({ ack_seq: 10 });
    } finally {
      db.close();
    }
    expect(a.bodies()).toEqual(["mine-1", "mine-2"]);
    const second = open({ path });
    const again = recorder();
    await second.subscribe({ durable: "a", subject: "iam.a.>" }, again.handler);
    await second.publish("iam.a.v1.x.created", text("mine-3"));
    await waitUntil("mine-3", () => again.got.length === 1);
    expect(again.bodies()).toEqual(["mine-3"]);
  });

  it("refuses a second live subscription of the same durable", async () => {
    const bus = open();
    await bus.subscribe({ durable: "a", subject: "iam.>" }, async () => undefined);
    await expect(bus.subscribe({ durable: "a", subject: "iam.>" }, async () => undefined))
      .rejects.toThrow("already subscribed");
  });

  it("re-points an existing durable at a new filter, keeping its position", async () => {
    const bus = open();
    const r = recorder();
    const sub = await bus.subscribe({ durable: "a", subject: "iam.x.>" }, r.handler);
    await bus.publish("iam.x.v1.a.created", text("x1"));
    await waitUntil("x1", () => r.got.length === 1);
    await sub.stop();
    await bus.publish("iam.y.v1.a.created", text("y1"));
    await bus.publish("iam.x.v1.a.created", text("x2"));
    const r2 = recorder();
    await bus.subscribe({ durable: "a", subject: "iam.y.>" }, r2.handler);
    await waitUntil("y1", () => r2.got.length === 1);
    await sleep(50);
    expect(r2.bodies()).toEqual(["y1"]);
  });

  it("rejects wildcard publish subjects and malformed filters", async () => {
    const bus = open();
    await expect(bus.publish("iam.*.x", text("1"))).rejects.toThrow("invalid publish subject");
    await expect(bus.subscribe({ durable: "a", subject: "iam.>.x" }, async () => undefined))
      .rejects.toThrow("invalid subscription subject");
  });

  it("delivers a message published in the turn a consumer's pump ends, without another publish", async () => {
    // The pump checks for a wake-up last, then returns; its end is seen one microtask later. A
    // publish in between must not be left for the next publish to deliver: probe every depth.
    for (let depth = 0; depth < 12; depth++) {
      const bus = open();
      const got: string[] = [];
      let relay: (() => void) | null = null;
      await bus.subscribe({ durable: "d", subject: "iam.t.v1.x.y" }, async (m) => {
        got.push(untext(m.payload));
        if (relay) {
          const publish = relay;
          relay = null;
          let step: Promise<void> = Promise.resolve();
          for (let i = 0; i < depth; i++) step = step.then(() => undefined);
          void step.then(publish);
        }
      });
      relay = () => { void bus.publish("iam.t.v1.x.y", text("second")); };
      await bus.publish("iam.t.v1.x.y", text("first"));
      await waitUntil("the second message", () => got.length === 2, 1000).catch(() => undefined);
      expect({ depth, got }).toEqual({ depth, got: ["first", "second"] });
    }
  });

  it("is what openBus returns for kind memory", async () => {
    const bus = await openBus({ kind: "memory", path: ":memory:", logger: quiet() });
    try {
      expect(bus).toBeInstanceOf(MemoryBus);
      await expect(bus.ping()).resolves.toBeUndefined();
    } finally {
      await bus.close();
    }
  });
});
