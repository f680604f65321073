/**
 * The bus port (DESIGN 3 and 4, "Bus port"): publish / durable subscribe, at-least-once delivery.
 *
 * Subjects follow `iam.<service>.v1.<resource>.<past-verb>` and payloads are encoded proto messages.
 * `publish` resolves only once the message is durably accepted (JetStream ack, or the in-process
 * adapter's journal write), which is what lets a service acknowledge a write only after its event
 * is safe ("publish-with-ack before the reply").
 */
export interface BusMessage {
  /** Globally unique event id; consumers de-duplicate on it. */
  id: string;
  subject: string;
  /** Epoch ms when published. */
  time: number;
  payload: Uint8Array;
  /** Request id of the request that caused the event, for log correlation. */
  requestId?: string;
}

export type BusHandler = (message: BusMessage) => Promise<void>;

export interface SubscribeOptions {
  /**
   * Durable consumer name, unique per consuming service and purpose (e.g. "audit-admin-events").
   * Messages published while the consumer was not running are delivered when it subscribes again.
   */
  durable: string;
  /** Subject, with NATS wildcards (`*` one token, `>` the rest). */
  subject: string;
  /** Redelivery delay after a handler throws (ms); default 1000. */
  retryDelayMs?: number;
  /** Give up on a message after this many deliveries (it is logged and dropped); default 20. */
  maxDeliveries?: number;
}

export interface Subscription {
  /** Stops delivery; the durable position is kept. */
  stop(): Promise<void>;
}

export interface Bus {
  publish(subject: string, payload: Uint8Array, options?: { id?: string; requestId?: string }): Promise<BusMessage>;
  subscribe(options: SubscribeOptions, handler: BusHandler): Promise<Subscription>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
