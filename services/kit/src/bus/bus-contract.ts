import type { Logger } from "pino";
import { idempotent } from "./idempotent.js";
import { MemorySeenEvents } from "./memory-seen-events.js";
import type { Bus, BusMessage } from "./port.js";
import { captureLogger, recorder, sleep, text, uniqueToken, untext, waitUntil } from "./bus-test-kit.js";

export interface BusContractTarget {
  /** First subject token the target's storage captures ("iam" in production). */
  root: string;
  /** Opens a bus; with `persistent`, a second open sees what the first one stored (a restart). */
  open(logger: Logger): Promise<Bus>;
  persistent: boolean;
  /** Runs once after the suite (drop a test stream, delete a temp file). */
  cleanup?(): Promise<void>;
}

/**
 * The behaviour every bus adapter must have (DESIGN 4, "Bus port"). Each test works on subjects
 * and durables of its own, so a shared server (one stream per run) keeps the tests independent.
 */
export function describeBusContract(name: string, makeTarget: () => BusContractTarget): void {
  describe(`bus contract: ${name}`, () => {
    const target = makeTarget();
    const opened: Bus[] = [];
    let t = "";
    let quiet: Logger;

    const subject = (rest: string): string => `${target.root}.${t}.${rest}`;
    const open = async (logger: Logger = quiet): Promise<Bus> => {
      const bus = await target.open(logger);
      opened.push(bus);
      return bus;
    };

    beforeEach(() => {
      t = uniqueToken();
      quiet = captureLogger().logger;
    });
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((b) => b.close()));
    });
    afterAll(async () => {
      await target.cleanup?.();
    });

    it("delivers to a new durable what was published before it subscribed, with id, time and request id", async () => {
      const bus = await open();
      const before = Date.now();
      const sent = await bus.publish(subject("directory.v1.user.created"), text("u1"), { requestId: "req-1" });
      expect(sent.id).toMatch(/\S+/);
      const r = recorder();
      await bus.subscribe({ durable: `${t}-a`, subject: subject(">") }, r.handler);
      await waitUntil("delivery", () => r.got.length === 1);
      const got = r.got[0] as BusMessage;
      expect(got.id).toBe(sent.id);
      expect(got.subject).toBe(subject("directory.v1.user.created"));
      expect(untext(got.payload)).toBe("u1");
      expect(got.requestId).toBe("req-1");
      expect(got.time).toBe(sent.time);
      expect(got.time).toBeGreaterThanOrEqual(before);
      expect(got.time).toBeLessThanOrEqual(Date.now());
    });

    it("delivers live messages asynchronously, never inside publish, in publish order", async () => {
      const bus = await open();
      const r = recorder();
      await bus.subscribe({ durable: `${t}-a`, subject: subject(">") }, r.handler);
      const pending = bus.publish(subject("x.v1.a.created"), text("1"), { id: `${t}-1` });
      expect(r.got).toHaveLength(0);
      await pending;
      for (const n of ["2", "3", "4", "5"]) await bus.publish(subject("x.v1.a.created"), text(n));
      await waitUntil("five deliveries", () => r.got.length === 5);
      expect(r.bodies()).toEqual(["1", "2", "3", "4", "5"]);
      expect(r.got[0]?.id).toBe(`${t}-1`);
    });

    it("matches NATS wildcards: * is one token, > is the rest", async () => {
      const bus = await open();
      const star = recorder();
      const rest = recorder();
      await bus.subscribe({ durable: `${t}-star`, subject: subject("*.v1.user.deleted") }, star.handler);
      await bus.subscribe({ durable: `${t}-rest`, subject: subject("directory.>") }, rest.handler);
      await bus.publish(subject("directory.v1.user.deleted"), text("a"));
      await bus.publish(subject("token.v1.user.deleted"), text("b"));
      await bus.publish(subject("directory.v1.user.created"), text("c"));
      await bus.publish(subject("directory.v1.user.deleted.extra"), text("d"));
      await bus.publish(subject("saml.v1.sp.deleted"), text("e"));
      await bus.publish(subject("directory"), text("f"));
      await bus.publish(subject("token.v1.user.deleted"), text("end"));
      await bus.publish(subject("directory.end"), text("end"));
      await waitUntil("both sentinels", () => star.bodies().includes("end") && rest.bodies().includes("end"));
      expect(star.bodies()).toEqual(["a", "b", "end"]);
      expect(rest.bodies()).toEqual(["a", "c", "d", "end"]);
    });

    it("gives a stopped consumer, on resubscribe, exactly what was published meanwhile, in order", async () => {
      const bus = await open();
      const first = recorder();
      const sub = await bus.subscribe({ durable: `${t}-a`, subject: subject(">") }, first.handler);
      await bus.publish(subject("x.v1.a.created"), text("m1"));
      await waitUntil("m1", () => first.got.length === 1);
      await sub.stop();
      for (const n of ["m2", "m3", "m4"]) await bus.publish(subject("x.v1.a.created"), text(n));
      await sleep(100);
      expect(first.bodies()).toEqual(["m1"]);
      const second = recorder();
      await bus.subscribe({ durable: `${t}-a`, subject: subject(">") }, second.handler);
      await waitUntil("m2..m4", () => second.got.length === 3);
      await sleep(100);
      expect(second.bodies()).toEqual(["m2", "m3", "m4"]);
    });

    it("lets an in-flight handler finish on stop, and does not deliver its message again", async () => {
      const bus = await open();
      let finished = 0;
      let started = 0;
      const sub = await bus.subscribe({ durable: `${t}-a`, subject: subject(">") }, async () => {
        started++;
        await sleep(150);
        finished++;
      });
      await bus.publish(subject("x.v1.a.created"), text("slow"));
      await waitUntil("handler start", () => started === 1);
      await sub.stop();
      expect(finished).toBe(1);
      const again = recorder();
      await bus.subscribe({ durable: `${t}-a`, subject: subject(">") }, again.handler);
      await bus.publish(subject("x.v1.a.created"), text("next"));
      await waitUntil("next", () => again.got.length === 1);
      expect(again.bodies()).toEqual(["next"]);
    });

    it("gives every durable every message", async () => {
      const bus = await open();
      const a = recorder();
      const b = recorder();
      await bus.subscribe({ durable: `${t}-a`, subject: subject(">") }, a.handler);
      for (const n of ["1", "2", "3"]) await bus.publish(subject("x.v1.a.created"), text(n));
      await bus.subscribe({ durable: `${t}-b`, subject: subject("x.>") }, b.handler);
      await waitUntil("both durables", () => a.got.length === 3 && b.got.length === 3);
      expect(a.bodies()).toEqual(["1", "2", "3"]);
      expect(b.bodies()).toEqual(["1", "2", "3"]);
    });

    it("redelivers after a handler throws, after retryDelayMs, before later messages", async () => {
      const bus = await open();
      const attempts: Array<{ body: string; at: number }> = [];
      const done: string[] = [];
      await bus.subscribe({ durable: `${t}-a`, subject: subject(">"), retryDelayMs: 80 }, async (m) => {
        const body = untext(m.payload);
        attempts.push({ body, at: Date.now() });
        if (body === "flaky" && attempts.filter((x) => x.body === "flaky").length < 3) throw new Error("not yet");
        done.push(body);
      });
      await bus.publish(subject("x.v1.a.created"), text("flaky"));
      await bus.publish(subject("x.v1.a.created"), text("after"));
      await waitUntil("both handled", () => done.length === 2);
      expect(done).toEqual(["flaky", "after"]);
      const flaky = attempts.filter((x) => x.body === "flaky").map((x) => x.at);
      expect(flaky).toHaveLength(3);
      expect((flaky[1] as number) - (flaky[0] as number)).toBeGreaterThanOrEqual(60);
      expect((flaky[2] as number) - (flaky[1] as number)).toBeGreaterThanOrEqual(60);
    });

    it("with idempotent(), a redelivered message has its effect once", async () => {
      const bus = await open();
      const effects: string[] = [];
      const inner = idempotent(new MemorySeenEvents(), async (m) => {
        effects.push(m.id);
      });
      let deliveries = 0;
      await bus.subscribe({ durable: `${t}-a`, subject: subject(">"), retryDelayMs: 20 }, async (m) => {
        deliveries++;
        await inner(m);
        // The effect happened but the ack is "lost": the bus must deliver again.
        if (deliveries === 1) throw new Error("ack lost");
      });
      const sent = await bus.publish(subject("x.v1.a.created"), text("once"));
      await bus.publish(subject("x.v1.a.created"), text("sentinel"));
      await waitUntil("sentinel", () => effects.length === 2);
      expect(deliveries).toBe(3);
      expect(effects[0]).toBe(sent.id);
      expect(effects.filter((id) => id === sent.id)).toHaveLength(1);
    });

    it("stores a re-published event id once", async () => {
      const bus = await open();
      const first = await bus.publish(subject("x.v1.a.created"), text("original"), { id: `${t}-dup`, requestId: "r1" });
      const second = await bus.publish(subject("x.v1.a.created"), text("again"), { id: `${t}-dup`, requestId: "r2" });
      expect(second.id).toBe(first.id);
      expect(untext(second.payload)).toBe("original");
      expect(second.requestId).toBe("r1");
      await bus.publish(subject("x.v1.a.created"), text("sentinel"));
      const r = recorder();
      await bus.subscribe({ durable: `${t}-a`, subject: subject(">") }, r.handler);
      await waitUntil("sentinel", () => r.bodies().includes("sentinel"));
      expect(r.bodies()).toEqual(["original", "sentinel"]);
    });

    it("gives up after maxDeliveries, logs it, and moves on", async () => {
      const capture = captureLogger();
      const bus = await open(capture.logger);
      let poisonAttempts = 0;
      const r = recorder();
      await bus.subscribe({ durable: `${t}-a`, subject: subject(">"), retryDelayMs: 20, maxDeliveries: 3 }, async (m) => {
        if (untext(m.payload) === "poison") {
          poisonAttempts++;
          throw new Error("always fails");
        }
        await r.handler(m);
      });
      const poison = await bus.publish(subject("x.v1.a.created"), text("poison"));
      await bus.publish(subject("x.v1.a.created"), text("fine"));
      await waitUntil("the next message", () => r.got.length === 1);
      await sleep(150);
      expect(poisonAttempts).toBe(3);
      expect(r.bodies()).toEqual(["fine"]);
      const dropped = capture.records.filter((x) => x.level === 50 && x.eventId === poison.id);
      expect(dropped).toHaveLength(1);
      expect(dropped[0]?.deliveries).toBe(3);
    });

    it("gives every watcher each message published after watch resolved, asynchronously and in order, and none from before", async () => {
      const bus = await open();
      await bus.publish(subject("dir.v1.client.updated"), text("before"));
      const a: BusMessage[] = [];
      const b: BusMessage[] = [];
      const gaps: string[] = [];
      await bus.watch({ subject: subject("dir.v1.client.updated"), onGap: () => gaps.push("a") }, (m) => { a.push(m); });
      await bus.watch({ subject: subject("dir.v1.*.updated"), onGap: () => gaps.push("b") }, (m) => { b.push(m); });
      const pending = bus.publish(subject("dir.v1.client.updated"), text("1"), { id: `${t}-w1`, requestId: "req-w" });
      expect(a).toHaveLength(0);
      await pending;
      await bus.publish(subject("dir.v1.realm.updated"), text("2"));
      await bus.publish(subject("dir.v1.client.updated"), text("3"));
      await waitUntil("both watchers", () => a.length === 2 && b.length === 3);
      await sleep(100);
      expect(a.map((m) => untext(m.payload))).toEqual(["1", "3"]);
      expect(b.map((m) => untext(m.payload))).toEqual(["1", "2", "3"]);
      expect(a[0]?.id).toBe(`${t}-w1`);
      expect(a[0]?.requestId).toBe("req-w");
      expect(a[0]?.subject).toBe(subject("dir.v1.client.updated"));
      expect(gaps).toEqual([]);
    });

    it("stops a watch, and reports a watcher that throws as a gap without losing later messages", async () => {
      const { logger, records } = captureLogger();
      const bus = await open(logger);
      const got: string[] = [];
      let gaps = 0;
      await bus.watch({ subject: subject("w.v1.a.updated"), onGap: () => { gaps++; } }, (m) => {
        const body = untext(m.payload);
        if (body === "boom") throw new Error("watcher failed");
        got.push(body);
      });
      const stopped: string[] = [];
      const sub = await bus.watch({ subject: subject("w.v1.a.updated"), onGap: () => undefined }, (m) => { stopped.push(untext(m.payload)); });
      await bus.publish(subject("w.v1.a.updated"), text("1"));
      await waitUntil("first", () => got.length === 1 && stopped.length === 1);
      await sub.stop();
      await bus.publish(subject("w.v1.a.updated"), text("boom"));
      await bus.publish(subject("w.v1.a.updated"), text("2"));
      await waitUntil("after the failure", () => got.length === 2);
      await sleep(100);
      expect(got).toEqual(["1", "2"]);
      expect(gaps).toBe(1);
      expect(stopped).toEqual(["1"]);
      expect(records.some((r) => r.msg === "bus watcher failed; reporting a gap")).toBe(true);
    });

    it("retires a known durable no longer subscribed here, refuses one that is, and answers false for an unknown one", async () => {
      const bus = await open();
      const first = recorder();
      const sub = await bus.subscribe({ durable: `${t}-old`, subject: subject(">") }, first.handler);
      await bus.publish(subject("x.v1.a.created"), text("1"));
      await waitUntil("first", () => first.got.length === 1);
      await expect(bus.retireDurable(`${t}-old`)).rejects.toThrow("is subscribed in this process");
      await sub.stop();
      await expect(bus.retireDurable(`${t}-old`)).resolves.toBe(true);
      await expect(bus.retireDurable(`${t}-never`)).resolves.toBe(false);
    });

    it("answers ping while open, and refuses work once closed", async () => {
      const bus = await open();
      await expect(bus.ping()).resolves.toBeUndefined();
      await bus.subscribe({ durable: `${t}-a`, subject: subject(">") }, async () => undefined);
      await bus.publish(subject("x.v1.a.created"), text("1"));
      await bus.close();
      await expect(bus.ping()).rejects.toThrow("closed");
      await expect(bus.publish(subject("x.v1.a.created"), text("2"))).rejects.toThrow("closed");
      await expect(bus.close()).resolves.toBeUndefined();
    });

    if (target.persistent) {
      it("after a restart, a durable created before receives what was published while it was down", async () => {
        const before = await open();
        const first = recorder();
        const sub = await before.subscribe({ durable: `${t}-a`, subject: subject(">") }, first.handler);
        await before.publish(subject("x.v1.a.created"), text("seen"));
        await waitUntil("seen", () => first.got.length === 1);
        await sub.stop();
        await before.publish(subject("x.v1.a.created"), text("while-down-1"));
        await before.publish(subject("x.v1.a.created"), text("while-down-2"));
        await before.close();

        const after = await open();
        const second = recorder();
        await after.subscribe({ durable: `${t}-a`, subject: subject(">") }, second.handler);
        await waitUntil("backlog", () => second.got.length === 2);
        await sleep(100);
        expect(second.bodies()).toEqual(["while-down-1", "while-down-2"]);
      });
    }
  });
}
