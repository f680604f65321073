import { randomUUID } from "node:crypto";
import {
  AckPolicy, DeliverPolicy, DiscardPolicy, Events, RetentionPolicy, StorageType, connect, headers, nanos,
  type ConsumerConfig, type JetStreamClient, type JetStreamManager, type NatsConnection, type Subscription as NatsCoreSubscription,
} from "nats";
import type { Logger } from "pino";
import { IamError } from "../errors.js";
import { createLogger } from "../logger.js";
import { DEFAULT_MAX_DELIVERIES, DEFAULT_RETENTION_MS, DEFAULT_RETRY_DELAY_MS } from "./defaults.js";
import { NatsSubscription, REQUEST_ID_HEADER, TIME_HEADER, toBusMessage } from "./nats-subscription.js";
import type { Bus, BusHandler, BusMessage, SubscribeOptions, Subscription, WatchHandler, WatchOptions } from "./port.js";
import { assertFilterSubject, assertPublishSubject } from "./subject-match.js";
import { deliverWatched, reportGap } from "./watch-delivery.js";

export interface NatsBusOptions {
  url: string;
  logger?: Logger;
  /** JetStream stream holding every event; default "IAM". */
  streamName?: string;
  /** Subjects the stream captures; default ["iam.>"]. Tests use their own prefix. */
  subjects?: string[];
  /** Publishes of the same event id within this window are stored once; default 2 minutes. */
  duplicateWindowMs?: number;
  /** Stream max_age; default 7 days (the same window the in-process journal keeps). */
  retentionMs?: number;
  /**
   * How long a delivered message may stay unacked (handler time, kept alive while it runs);
   * default 5 s. Also how long a durable stalls after NATS is killed: the server restores a
   * consumer's state from its last flush, so a message acked just before the kill may count as
   * delivered and unacked, and with one message in flight per durable nothing moves until its ack
   * wait runs out (30 s with JetStream's usual value: events of an outage reached audit 30-45 s
   * after NATS returned).
   */
  ackWaitMs?: number;
  /** Name shown in the server's connection list (`/connz`). */
  connectionName?: string;
  /** How long a retired durable may go without a consumer before the server deletes it; default 1 hour. */
  retiredDurableIdleMs?: number;
}

const STREAM_NOT_FOUND = 10059;
/** How long one pull request waits for a message; also the retry delay of a consumer after a reconnect. */
const PULL_EXPIRES_MS = 3_000;
const DEFAULT_ACK_WAIT_MS = 5_000;
const CONSUMER_NOT_FOUND = 10014;

function apiErrorCode(err: unknown): number | undefined {
  return (err as { api_error?: { err_code?: number } } | null)?.api_error?.err_code;
}

/**
 * The NATS JetStream adapter of the bus port (cluster mode).
 *
 * - One limits-retention file stream (default "IAM" on `iam.>`), created on connect when missing
 *   and otherwise left as found (operators may tune it). Publishing sets `Nats-Msg-Id` to the
 *   event id, so the stream's duplicate window drops a re-publish, and awaits the PubAck.
 * - Each subscription is a durable pull consumer: explicit ack, DeliverPolicy.All for a new
 *   durable, filter subject, ack wait, max deliver, and max_ack_pending 1, which gives strictly
 *   ordered, head-of-line retried delivery per durable, the same as the in-process adapter.
 *   See nats-subscription.ts for ack / nak / term.
 * - A watch is a core NATS subscription on the subject: every JetStream publish is also an
 *   ordinary message on its subject, so each watching replica gets it, with the same headers.
 *   Core delivery is at most once: whatever is published while this connection is down is lost
 *   to it, so every watcher hears `onGap` when the connection is re-established.
 */
export class NatsBus implements Bus {
  private readonly subscriptions = new Set<NatsSubscription>();
  private readonly watchers = new Set<{ options: WatchOptions; sub: NatsCoreSubscription }>();
  private closing: Promise<void> | null = null;
  private connected = true;
  private readonly reconnectListeners: Array<() => void> = [];

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly ackWaitMs: number,
    private readonly logger: Logger,
    private readonly retiredIdleMs: number,
  ) {
    void this.reportGapsOnReconnect();
  }

  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    const logger = options.logger ?? createLogger("bus");
    const nc = await connect({
      servers: options.url,
      name: options.connectionName ?? "tessera",
      // A service outlives NATS restarts: keep reconnecting; publishes fail (and requests with
      // them) while it is away, which readiness reports through ping().
      maxReconnectAttempts: -1,
      // Back within a second of NATS: what waited in the outboxes goes out on the reconnect.
      reconnectTimeWait: 1_000,
    });
    try {
      const jsm = await nc.jetstreamManager();
      const stream = options.streamName ?? "IAM";
      await ensureStream(jsm, {
        name: stream,
        subjects: options.subjects ?? ["iam.>"],
        duplicateWindowMs: options.duplicateWindowMs ?? 2 * 60 * 1000,
        retentionMs: options.retentionMs ?? DEFAULT_RETENTION_MS,
      });
      return new NatsBus(nc, nc.jetstream(), jsm, stream, options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS, logger, options.retiredDurableIdleMs ?? 60 * 60 * 1000);
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  async publish(subject: string, payload: Uint8Array, options?: { id?: string; requestId?: string }): Promise<BusMessage> {
    this.assertOpen();
    assertPublishSubject(subject);
    const id = options?.id ?? randomUUID();
    const time = Date.now();
    const h = headers();
    h.set(TIME_HEADER, String(time));
    if (options?.requestId !== undefined) h.set(REQUEST_ID_HEADER, options.requestId);
    const ack = await this.js.publish(subject, payload, { msgID: id, headers: h, expect: { streamName: this.stream } });
    if (ack.duplicate) {
      // Report the retained copy (its time and request id), as the in-process adapter does.
      const stored = await this.jsm.streams.getMessage(this.stream, { seq: ack.seq }).catch(() => null);
      if (stored) return toBusMessage(stored.subject, stored.data, stored.header, stored.time.getTime());
    }
    return {
      id, subject, time, payload,
      ...(options?.requestId !== undefined ? { requestId: options.requestId } : {}),
    };
  }

  async subscribe(options: SubscribeOptions, handler: BusHandler): Promise<Subscription> {
    this.assertOpen();
    assertFilterSubject(options.subject);
    if (!options.durable) throw IamError.invalid("durable", "a durable consumer name is required");
    const maxDeliveries = Math.max(1, options.maxDeliveries ?? DEFAULT_MAX_DELIVERIES);
    await this.ensureConsumer({
      durable_name: options.durable,
      filter_subject: options.subject,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(this.ackWaitMs),
      max_deliver: maxDeliveries,
      max_ack_pending: 1,
    });
    const consumer = await this.js.consumers.get(this.stream, options.durable);
    // A short pull expiry: after NATS comes back, the client re-checks the consumer and pulls
    // again, and when JetStream is not ready yet it retries after one expiry. The default (30 s)
    // held every event published during an outage for 30-45 s after NATS returned.
    const messages = await consumer.consume({ max_messages: 1, expires: PULL_EXPIRES_MS });
    const subscription = new NatsSubscription(messages, handler, {
      durable: options.durable,
      retryDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
      maxDeliveries,
      ackWaitMs: this.ackWaitMs,
    }, this.logger);
    this.subscriptions.add(subscription);
    return {
      stop: async () => {
        await subscription.stop();
        this.subscriptions.delete(subscription);
      },
    };
  }

  async watch(options: WatchOptions, handler: WatchHandler): Promise<Subscription> {
    this.assertOpen();
    assertFilterSubject(options.subject);
    const sub = this.nc.subscribe(options.subject, {
      callback: (err, msg) => {
        if (err) {
          this.logger.warn({ err, subject: options.subject }, "bus watch delivery failed; reporting a gap");
          reportGap(options, this.logger);
          return;
        }
        deliverWatched(options, handler, toBusMessage(msg.subject, msg.data, msg.headers, Date.now()), this.logger);
      },
    });
    const watcher = { options, sub };
    this.watchers.add(watcher);
    // The server has the interest once the flush returns: what is published after watch resolves reaches it.
    await this.nc.flush();
    return {
      stop: async () => {
        this.watchers.delete(watcher);
        if (!sub.isClosed()) sub.unsubscribe();
      },
    };
  }

  async retireDurable(durable: string): Promise<boolean> {
    this.assertOpen();
    if ([...this.subscriptions].some((s) => s.durable === durable)) {
      throw new IamError({ code: "failedPrecondition", reason: "durable_in_use", message: `durable consumer "${durable}" is subscribed in this process` });
    }
    try {
      // The server deletes a consumer that has had no interest for inactive_threshold.
      await this.jsm.consumers.update(this.stream, durable, { inactive_threshold: nanos(this.retiredIdleMs) });
      return true;
    } catch (err) {
      if (apiErrorCode(err) === CONSUMER_NOT_FOUND) return false;
      throw err;
    }
  }

  available(): boolean {
    return this.connected && !this.closing && !this.nc.isClosed();
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  async ping(): Promise<void> {
    if (this.nc.isClosed() || this.closing) throw IamError.unavailable("bus is closed");
    try {
      await this.nc.flush();
      await this.jsm.getAccountInfo();
    } catch (err) {
      throw IamError.unavailable(`NATS JetStream unreachable: ${(err as Error).message}`);
    }
  }

  /** Stops every subscription (durables are kept), then drains: pending publishes and acks go out. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const w of this.watchers) if (!w.sub.isClosed()) w.sub.unsubscribe();
      this.watchers.clear();
      await Promise.all([...this.subscriptions].map((s) => s.stop()));
      this.subscriptions.clear();
      if (!this.nc.isClosed()) await this.nc.drain();
    })();
    return this.closing;
  }

  /**
   * Creates the durable, or brings an existing one in line with this subscription (filter, ack
   * wait, max deliver), keeping its position. Adding with an identical config is a no-op, so
   * replicas of a service starting together do not race.
   */
  private async ensureConsumer(config: Partial<ConsumerConfig> & { durable_name: string }): Promise<void> {
    const existing = await this.jsm.consumers.info(this.stream, config.durable_name).catch((err: unknown) => {
      if (apiErrorCode(err) === CONSUMER_NOT_FOUND) return null;
      throw err;
    });
    if (!existing) {
      await this.jsm.consumers.add(this.stream, config);
      return;
    }
    const c = existing.config;
    if (c.filter_subject !== config.filter_subject || c.ack_wait !== config.ack_wait
      || c.max_deliver !== config.max_deliver || c.max_ack_pending !== config.max_ack_pending) {
      await this.jsm.consumers.update(this.stream, config.durable_name, {
        filter_subject: config.filter_subject,
        ack_wait: config.ack_wait,
        max_deliver: config.max_deliver,
        max_ack_pending: config.max_ack_pending,
      });
    }
  }

  /** Messages published while the connection was down never reached the watchers: tell them. */
  private async reportGapsOnReconnect(): Promise<void> {
    try {
      for await (const status of this.nc.status()) {
        if (status.type === Events.Disconnect) this.connected = false;
        if (status.type !== Events.Reconnect) continue;
        this.connected = true;
        for (const listener of this.reconnectListeners) {
          try {
            listener();
          } catch (err) {
            this.logger.warn({ err }, "bus reconnect listener failed");
          }
        }
        this.logger.warn({ watchers: this.watchers.size }, "NATS connection re-established; bus watchers may have missed messages");
        // Watches sharing one onGap (a service's caches) hear it once.
        const told = new Set<() => void>();
        for (const w of this.watchers) {
          if (told.has(w.options.onGap)) continue;
          told.add(w.options.onGap);
          reportGap(w.options, this.logger);
        }
      }
    } catch (err) {
      this.logger.error({ err }, "NATS status stream ended with an error");
    }
  }

  private assertOpen(): void {
    if (this.closing || this.nc.isClosed()) throw IamError.unavailable("bus is closed");
  }
}

async function ensureStream(
  jsm: JetStreamManager,
  s: { name: string; subjects: string[]; duplicateWindowMs: number; retentionMs: number },
): Promise<void> {
  try {
    await jsm.streams.info(s.name);
    return;
  } catch (err) {
    if (apiErrorCode(err) !== STREAM_NOT_FOUND) throw err;
  }
  await jsm.streams.add({
    name: s.name,
    subjects: s.subjects,
    storage: StorageType.File,
    // Limits, not interest: a durable created after a publish must still find the event.
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: nanos(s.retentionMs),
    duplicate_window: nanos(s.duplicateWindowMs),
  });
}
