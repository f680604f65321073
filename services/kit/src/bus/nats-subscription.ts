import type { ConsumerMessages, JsMsg, MsgHdrs } from "nats";
import type { Logger } from "pino";
import type { BusHandler, BusMessage } from "./port.js";

/** Headers the NATS adapter adds; `Nats-Msg-Id` (the event id) is JetStream's own. */
export const TIME_HEADER = "Tessera-Time";
export const REQUEST_ID_HEADER = "Tessera-Request-Id";
const MSG_ID_HEADER = "Nats-Msg-Id";

/** Rebuilds the port's message from a JetStream message (live delivery or a stored lookup). */
export function toBusMessage(subject: string, data: Uint8Array, h: MsgHdrs | undefined, storedAtMs: number): BusMessage {
  const id = h?.get(MSG_ID_HEADER) || "";
  const time = Number(h?.get(TIME_HEADER));
  const requestId = h?.get(REQUEST_ID_HEADER) || undefined;
  return {
    // A message published by something other than this adapter may lack the id header; the
    // stream time keeps it usable, and consumers keyed on ids will see "" and should not rely on it.
    id,
    subject,
    time: Number.isFinite(time) && time > 0 ? time : storedAtMs,
    payload: data,
    ...(requestId !== undefined ? { requestId } : {}),
  };
}

export interface NatsSubscriptionConfig {
  durable: string;
  retryDelayMs: number;
  maxDeliveries: number;
  ackWaitMs: number;
}

/**
 * The running side of one durable pull consumer. Messages are handled one at a time:
 * - handler resolves: ackAck (the server confirms, so stop() really leaves the durable past it);
 * - handler throws: nak with retryDelayMs, or term on the last allowed delivery (logged), so the
 *   server does not wait for an ack timeout to move on;
 * - while the handler runs, `working()` keeps the ack wait from expiring under a slow handler.
 */
export class NatsSubscription {
  private stopping = false;
  private readonly loop: Promise<void>;
  private stopped: Promise<void> | null = null;

  constructor(
    private readonly messages: ConsumerMessages,
    private readonly handler: BusHandler,
    private readonly config: NatsSubscriptionConfig,
    private readonly logger: Logger,
  ) {
    this.loop = this.run();
  }

  get durable(): string {
    return this.config.durable;
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping = true;
      const closing = this.messages.close();
      await this.loop;
      const err = await closing;
      if (err) this.logger.warn({ err, durable: this.config.durable }, "bus consumer closed with an error");
    })();
    return this.stopped;
  }

  private async run(): Promise<void> {
    try {
      for await (const m of this.messages) {
        if (this.stopping) {
          // Pulled just as we stopped: hand it back now rather than after the ack wait.
          m.nak();
          continue;
        }
        await this.handle(m);
      }
    } catch (err) {
      this.logger.error({ err, durable: this.config.durable }, "bus consumer stopped unexpectedly");
    }
  }

  private async handle(m: JsMsg): Promise<void> {
    const message = toBusMessage(m.subject, m.data, m.headers, Math.floor(m.info.timestampNanos / 1e6));
    const keepAlive = setInterval(() => m.working(), Math.max(1000, Math.floor(this.config.ackWaitMs / 2)));
    let failure: unknown = null;
    try {
      await this.handler(message);
    } catch (err) {
      failure = err ?? new Error("handler threw a falsy value");
    } finally {
      clearInterval(keepAlive);
    }
    if (failure === null) {
      try {
        await m.ackAck();
      } catch (err) {
        // The effect happened; the message may come again, which idempotent consumers absorb.
        this.logger.warn({ err, durable: this.config.durable, eventId: message.id }, "bus ack not confirmed");
      }
      return;
    }
    const deliveries = m.info.deliveryCount;
    const context = { err: failure, durable: this.config.durable, eventId: message.id, subject: message.subject, deliveries };
    if (deliveries < this.config.maxDeliveries) {
      this.logger.warn(context, "bus handler failed; will redeliver");
      m.nak(this.config.retryDelayMs);
    } else {
      this.logger.error(context, "bus handler failed on the last allowed delivery; message dropped");
      m.term();
    }
  }
}
