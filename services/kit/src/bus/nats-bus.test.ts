import { connect } from "nats";
import { describeBusContract } from "./bus-contract.js";
import { captureLogger, recorder, text, uniqueToken, waitUntil } from "./bus-test-kit.js";
import { NatsBus } from "./nats-bus.js";
import { openBus } from "./open-bus.js";

/**
 * The contract on a real NATS JetStream server, when TESSERA_TEST_NATS_URL names one (CI starts
 * nats-server; see ci-recipes.md). Each run uses its own stream and subject root, deleted at the
 * end, so runs sharing a server (and a cluster-mode "IAM" stream on it) never meet.
 */
const url = process.env.TESSERA_TEST_NATS_URL;

if (!url) {
  describe("bus contract: nats", () => {
    it("is not run: TESSERA_TEST_NATS_URL is not set (tier not run)", () => {
      expect(url).toBeUndefined();
    });
  });
} else {
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

    it("fails to connect to a server that is not there", async () => {
      await expect(NatsBus.connect({ url: "nats://127.0.0.1:1", logger: captureLogger().logger })).rejects.toThrow();
    });
  });
}
