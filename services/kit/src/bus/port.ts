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

export interface WatchOptions {
  /** Subject, with NATS wildcards (`*` one token, `>` the rest). */
  subject: string;
  /**
   * Runs when messages may have been missed (the NATS connection came back after an outage): the
   * watcher drops everything it derived from earlier messages, such as its caches. Watches that
   * share one onGap function hear a reconnect once. The in-process adapter never misses one.
   */
  onGap(): void;
}

export type WatchHandler = (message: BusMessage) => void;

export interface Subscription {
  /** Stops delivery; a durable's position is kept (a watch has none). */
  stop(): Promise<void>;
}

export interface Bus {
  publish(subject: string, payload: Uint8Array, options?: { id?: string; requestId?: string }): Promise<BusMessage>;
  subscribe(options: SubscribeOptions, handler: BusHandler): Promise<Subscription>;
  /**
   * Every watching process (each replica of a service) receives every message published after
   * `watch` resolved, asynchronously, never inside publish: for in-memory state each replica
   * keeps, cache invalidation above all (DESIGN 3: "client.updated (caches drop)"). A durable is
   * the wrong tool there: its replicas share one position, so only one of them would drop its
   * cache. No replay, no acknowledgement: a missed message is reported by `onGap` instead, and a
   * handler that throws is logged and reported the same way.
   */
  watch(options: WatchOptions, handler: WatchHandler): Promise<Subscription>;
  /**
   * Retires a durable the service no longer subscribes to (an upgrade moved its work elsewhere): a
   * forgotten durable would hold its position forever, and the in-process journal keeps every
   * message some durable has not handled. It goes once nothing consumes it: the in-process
   * adapter deletes it at once (one process is all there is); NATS deletes it after it has had no
   * consumer for a while, so a replica of the previous version still consuming it during a rolling
   * upgrade keeps working. Resolves false when there was none; refuses one subscribed in this process.
   */
  retireDurable(durable: string): Promise<boolean>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * False while the connection to the bus is known to be down (a publish would only wait for its
   * timeout); absent or true otherwise. The in-process adapter is always available.
   */
  available?(): boolean;
  /** Runs `listener` each time the connection comes back after an outage (the outbox relays then). */
  onReconnect?(listener: () => void): void;
}
