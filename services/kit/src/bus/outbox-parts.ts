import { randomUUID } from "node:crypto";
import type { Doc } from "../store/port.js";

// The records and contracts of the outbox (outbox.ts), apart from its workings.

/**
 * An event built before it is published, with its id fixed, so that it can wait in the outbox and
 * go out later under the same id: the bus drops a second copy of an id (JetStream's Nats-Msg-Id
 * dedup, the in-process journal's unique id) and consumers de-duplicate on it (DESIGN 4, "Bus port").
 */
export interface OutgoingEvent {
  subject: string;
  payload: Uint8Array;
  id: string;
  requestId?: string;
}

/** Where a request hands the events it publishes (the Outbox's `send`): never the bus itself. */
export interface EventSink {
  send(events: OutgoingEvent[]): Promise<void>;
}

/**
 * The ids and time one write's events are built with. The same stamp builds them twice, from the
 * snapshot staged in the outbox and from what the write returned, so both copies share ids.
 */
export class EventStamp {
  private readonly ids = new Map<string, string>();
  constructor(readonly time: number) {}

  /** The id of the write's event named `key` ("event", "admin-event", "login-event"): one per key. */
  id(key: string): string {
    let id = this.ids.get(key);
    if (id === undefined) this.ids.set(key, (id = randomUUID()));
    return id;
  }
}

/**
 * What kind of write an entry stages, as the relay needs to know it: whether the write happened,
 * and what of it is left to do.
 */
export interface OutboxKind<S> {
  /** Stable, stored with each entry ("directory.user"). */
  readonly name: string;
  /**
   * Whether the store shows the write (a removed record absent, a disabled user disabled): false
   * when it never happened (a crash before it) or was undone, and then nothing is announced.
   */
  applied(snapshot: S): Promise<boolean>;
  /** The rest of an interrupted write (idempotent), run by the relay before it announces. */
  finish?(snapshot: S): Promise<void>;
}

export interface OutboxWrite<S> {
  kind: OutboxKind<S>;
  /** What the relay needs of the write (ids; never a secret); JSON, stored until the announcement is out. */
  snapshot: S;
  /**
   * The events announcing the write (none: a write whose `finish` is all the relay owes), built
   * from the snapshot and from what `apply` returned, with one stamp the outbox makes per write.
   */
  announce(written: S, stamp: EventStamp): OutgoingEvent[];
  /**
   * The write, atomic: a removal takes its record. Returns what to announce, or null when there is
   * nothing to (the record was already gone).
   */
  apply(): Promise<S | null>;
  /** What goes with the write, before the announcement; the relay runs `kind.finish` instead. */
  rest?(written: S): Promise<void>;
  /**
   * Undoes the write when the rest or the announcement failed, so the caller's retry finds the
   * record and finishes: without it a removal's retry is a 404 and nothing is ever announced.
   */
  undo?(written: S): Promise<void>;
}

export interface StoredEvent {
  subject: string;
  /** base64: documents hold JSON values only. */
  payload: string;
  id: string;
  requestId?: string;
}

export interface OutboxEntry extends Doc {
  kind: string;
  snapshot: unknown;
  events: StoredEvent[];
  /** Until when the process that wrote it owns it; past it the relay may take it over. */
  leaseUntil: number;
  createdAt: number;
  /** The outbox (one per service process) that wrote or last took it; absent in entries of earlier versions. */
  owner?: string;
}

/**
 * A live outbox on this store: it beats every relay interval, and one whose `aliveUntil` has
 * passed is gone (crashed, or stopped with a write hanging), so its entries need not wait for
 * their lease.
 */
export interface OutboxOwner extends Doc {
  aliveUntil: number;
}

export interface OutboxOptions {
  /** How long a write in progress owns its entry; the relay leaves it alone until then. Default 30 s. */
  leaseMs?: number;
  /**
   * How often the process beats (OutboxOwner) and the relay looks for entries whose lease ran out
   * or whose owner is gone; 0: only when `relay()` is called. Default 2 s.
   */
  relayIntervalMs?: number;
  /**
   * How long a beat keeps the outbox's entries its own: past it without another beat, another
   * replica's relay takes them, lease or not. Several intervals, so a busy event loop or a clock
   * a little apart from the others' is not taken for a crash. Default 10 s.
   */
  ownerTtlMs?: number;
  /**
   * No other process writes to this store (ServiceDeps.soleProcess), and this is the process's one
   * outbox on it (each service builds one): an entry created before this outbox was opened was
   * left by a process that is gone, so the relay takes it at once, lease or not. After a crash the
   * revocations it stages then go out when the next process starts, not a lease later. (A clock
   * set back across the restart only leaves such entries to their lease.)
   */
  soleProcess?: boolean;
  /**
   * How long a request waits for its write's events to be accepted by the bus before it answers
   * anyway (the events then go out in the background, or by the relay). Short: normally the bus
   * answers in about a millisecond, so the announcement (a cache drop in other replicas) is out
   * before the reply; while the bus is down nothing waits at all. Default 500 ms.
   */
  publishWaitMs?: number;
}

export function storeEvent(e: OutgoingEvent): StoredEvent {
  return {
    subject: e.subject, payload: Buffer.from(e.payload).toString("base64"), id: e.id,
    ...(e.requestId !== undefined ? { requestId: e.requestId } : {}),
  };
}

export function loadEvent(e: StoredEvent): OutgoingEvent {
  return {
    subject: e.subject, payload: new Uint8Array(Buffer.from(e.payload, "base64")), id: e.id,
    ...(e.requestId !== undefined ? { requestId: e.requestId } : {}),
  };
}
