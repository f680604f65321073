import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "nats";
import { describeBusContract } from "./bus-contract.js";
import { captureLogger, recorder, sleep, text, uniqueToken, untext, waitUntil } from "./bus-test-kit.js";
import { NatsBus } from "./nats-bus.js";
import { openBus } from "./open-bus.js";
import { describeTier } from "../../../../test/support/tier.js";

/**
 * The contract on a real NATS JetStream server, when TESSERA_TEST_NATS_URL names one (CI starts
 * nats-server; see ci-recipes.md). Each run uses its own stream and subject root, deleted at the
 * end, so runs sharing a server (and a cluster-mode "IAM" stream on it) never meet.
 */
const url = process.env.TESSERA_TEST_NATS_URL as string;

describeTier("NATS tier", ["TESSERA_TEST_NATS_URL"], () => {
  const run = uniqueToken();
  const streamName = `TESSERA_TEST_${run}`;
  const root = `tessera-test-${run}`;

  const dropStream = async (): Promise<void> => {
    const nc = await connect({ servers: url });
    try {
      const jsm = await nc.jetstreamManager();
      await jsm.streams.delete(streamName).catch(() => false);
    } finally {
      await nc.close();
    }
  };

  describeBusContract("nats", () => ({
    root,
    persistent: true,
    open: (logger) => NatsBus.connect({ url, streamName, subjects: [`${root}.>`], logger }),
    cleanup: dropStream,
  }));

  describe("NatsBus specifics", () => {
    afterAll(dropStream);

    it("is what openBus returns for kind nats, creating the stream on connect", async () => {
      const bus = await openBus({ kind: "nats", url, streamName, subjects: [`${root}.>`], logger: captureLogger().logger });
      try {
        expect(bus).toBeInstanceOf(NatsBus);
        await expect(bus.ping()).resolves.toBeUndefined();
        const nc = await connect({ servers: url });
        try {
          const info = await (await nc.jetstreamManager()).streams.info(streamName);
          expect(info.config.subjects).toEqual([`${root}.>`]);
          expect(info.config.storage).toBe("file");
          expect(info.config.duplicate_window).toBeGreaterThan(0);
        } finally {
          await nc.close();
        }
      } finally {
        await bus.close();
      }
    });

    it("keeps the durable on the server after stop, with explicit ack and one message in flight", async () => {
      const bus = await NatsBus.connect({ url, streamName, subjects: [`${root}.>`], logger: captureLogger().logger });
      const durable = `${run}-keep`;
      try {
        const r = recorder();
        const sub = await bus.subscribe({ durable, subject: `${root}.keep.>`, maxDeliveries: 4 }, r.handler);
        await bus.publish(`${root}.keep.v1.a.created`, text("1"));
        await waitUntil("delivery", () => r.got.length === 1);
        await sub.stop();
        const nc = await connect({ servers: url });
        try {
          const info = await (await nc.jetstreamManager()).consumers.info(streamName, durable);
          expect(info.config.ack_policy).toBe("explicit");
          expect(info.config.max_deliver).toBe(4);
          expect(info.config.max_ack_pending).toBe(1);
          expect(info.config.filter_subject).toBe(`${root}.keep.>`);
          expect(info.ack_floor.stream_seq).toBe(info.delivered.stream_seq);
        } finally {
          await nc.close();
        }
      } finally {
        await bus.close();
      }
    });

    it("gives a watched message to every replica, where a shared durable gives it to one", async () => {
      // Two connections are two replicas of one service (the token service's cache drops, DESIGN 3).
      const replicas = await Promise.all([0, 1].map(() => NatsBus.connect({ url, streamName, subjects: [`${root}.>`], logger: captureLogger().logger })));
      try {
        const durable = replicas.map(() => recorder());
        const watched: string[][] = [[], []];
        for (const [i, bus] of replicas.entries()) {
          await bus.subscribe({ durable: `${run}-shared`, subject: `${root}.rep.>` }, durable[i]!.handler);
          await bus.watch({ subject: `${root}.rep.>`, onGap: () => undefined }, (m) => { watched[i]!.push(untext(m.payload)); });
        }
        for (const n of ["1", "2", "3", "4"]) await replicas[0]!.publish(`${root}.rep.v1.client.updated`, text(n));
        await waitUntil("watchers", () => watched[0]!.length === 4 && watched[1]!.length === 4);
        await waitUntil("durable", () => durable[0]!.got.length + durable[1]!.got.length === 4);
        await sleep(200);
        expect(watched).toEqual([["1", "2", "3", "4"], ["1", "2", "3", "4"]]);
        expect([...durable[0]!.bodies(), ...durable[1]!.bodies()].sort()).toEqual(["1", "2", "3", "4"]);
      } finally {
        await Promise.all(replicas.map((b) => b.close()));
      }
    });

    it("lets the server delete a retired durable once it has had no consumer for the idle time, not while a replica of the previous version consumes it", async () => {
      const opts = { url, streamName, subjects: [`${root}.>`], logger: captureLogger().logger, retiredDurableIdleMs: 1500 };
      const [previous, current] = await Promise.all([NatsBus.connect(opts), NatsBus.connect(opts)]);
      const durable = `${run}-retired`;
      const info = async () => {
        const nc = await connect({ servers: url });
        try {
          return await (await nc.jetstreamManager()).consumers.info(streamName, durable).catch(() => null);
        } finally {
          await nc.close();
        }
      };
      try {
        const old = recorder();
        const sub = await previous.subscribe({ durable, subject: `${root}.ret.>` }, old.handler);
        expect(await current.retireDurable(durable)).toBe(true);
        expect((await info())?.config.inactive_threshold).toBe(1_500_000_000);
        await previous.publish(`${root}.ret.v1.a.updated`, text("still served"));
        await waitUntil("the old replica still consumes", () => old.got.length === 1);
        await sleep(3000);
        expect(await info()).not.toBeNull();
        await sub.stop();
        // Deleted by the server after 1.5 s without a consumer.
        const until = Date.now() + 10_000;
        while ((await info()) !== null && Date.now() < until) await sleep(250);
        expect(await info()).toBeNull();
        expect(await current.retireDurable(durable)).toBe(false);
      } finally {
        await Promise.all([previous.close(), current.close()]);
      }
    }, 30_000);

    it("reports a gap to every watcher when the connection comes back after the server restarted", async () => {
      // A NATS server of this test's own, restarted on the same port: what is published while a
      // replica is cut off never reaches its core subscription, so it must drop its caches.
      const port = await freePortNumber();
      const dir = mkdtempSync(join(tmpdir(), "tessera-nats-gap-"));
      const startServer = () => spawn("nats-server", ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir], { stdio: "ignore" });
      let server = startServer();
      const serverUrl = `nats://127.0.0.1:${port}`;
      const bus = await connectWhenUp(serverUrl);
      try {
        const gaps: string[] = [];
        const got: string[] = [];
        await bus.watch({ subject: "iam.gap.>", onGap: () => gaps.push("a") }, (m) => { got.push(untext(m.payload)); });
        await bus.watch({ subject: "iam.other.>", onGap: () => gaps.push("b") }, () => undefined);
        // Two watches of one cache share its onGap: it runs once per reconnect.
        const shared = () => gaps.push("c");
        await bus.watch({ subject: "iam.c1.>", onGap: shared }, () => undefined);
        await bus.watch({ subject: "iam.c2.>", onGap: shared }, () => undefined);
        await bus.publish("iam.gap.v1.a.updated", text("before"));
        await waitUntil("delivery", () => got.length === 1);
        expect(gaps).toEqual([]);
        await stopProcess(server);
        server = startServer();
        await waitUntil("gap reported", () => gaps.length === 3, 20_000);
        await sleep(200);
        expect(gaps.sort()).toEqual(["a", "b", "c"]);
        await bus.publish("iam.gap.v1.a.updated", text("after"));
        await waitUntil("delivery after reconnect", () => got.length === 2);
        expect(got).toEqual(["before", "after"]);
      } finally {
        await bus.close();
        await stopProcess(server);
        rmSync(dir, { recursive: true, force: true });
      }
    }, 40_000);

    it("fails to connect to a server that is not there", async () => {
      await expect(NatsBus.connect({ url: "nats://127.0.0.1:1", logger: captureLogger().logger })).rejects.toThrow();
    });
  });
});

async function freePortNumber(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

async function connectWhenUp(serverUrl: string): Promise<NatsBus> {
  const until = Date.now() + 15_000;
  for (;;) {
    try {
      return await NatsBus.connect({ url: serverUrl, logger: captureLogger().logger });
    } catch (err) {
      if (Date.now() > until) throw err;
      await sleep(100);
    }
  }
}

async function stopProcess(p: ReturnType<typeof spawn>): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise((r) => p.once("exit", r));
  p.kill("SIGTERM");
  await exited;
}
