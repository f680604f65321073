import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Bus } from "./port.js";
import type { Clock, Collection, Doc, Store } from "../store/port.js";

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

/**
 * The ids and time one removal's events are built with. The same stamp builds them twice, from the
 * snapshot staged in the outbox and from the record the removal took, so both copies share ids.
 */
export class EventStamp {
  private readonly ids: string[] = [];
  constructor(readonly time: number) {}

  /** The id of the removal's `n`th event. */
  id(n: number): string {
    return (this.ids[n] ??= randomUUID());
  }
}

/**
 * What kind of record a removal takes, as the relay needs to know it: whether a staged removal
 * happened, and what of it is left to do.
 */
export interface RemovalKind<S> {
  /** Stable, stored with each entry ("directory.user"). */
  readonly name: string;
  /** Whether the record is there: the removal never happened (a crash before it) or was undone. */
  present(snapshot: S): Promise<boolean>;
  /** The rest of an interrupted removal (idempotent), run by the relay before it announces. */
  finish?(snapshot: S): Promise<void>;
}

export interface Removal<S> {
  kind: RemovalKind<S>;
  /** The record as read before the removal; JSON, stored in the entry until the announcement is out. */
  snapshot: S;
  stamp: EventStamp;
  /** The events announcing the removal of `record`: built from the snapshot and from the record taken. */
  announce(record: S, stamp: EventStamp): OutgoingEvent[];
  /** Takes the record atomically, returning it; null when it was already gone (nothing to announce). */
  take(): Promise<S | null>;
  /** What goes with the record, before the announcement; the relay runs `kind.finish` instead. */
  rest?(removed: S): Promise<void>;
  /**
   * Puts the record back when the rest or the announcement failed, so the caller's retry finds it
   * and finishes: without it the retry is a 404 and nothing is ever announced.
   */
  undo?(removed: S): Promise<void>;
}

interface StoredEvent {
  subject: string;
  /** base64: documents hold JSON values only. */
  payload: string;
  id: string;
  requestId?: string;
}

interface OutboxEntry extends Doc {
  kind: string;
  snapshot: unknown;
  events: StoredEvent[];
  /** Until when the process that wrote it owns it; past it the relay may take it over. */
  leaseUntil: number;
  createdAt: number;
}

export interface RemovalOutboxOptions {
  /** How long a removal in progress owns its entry; the relay leaves it alone until then. Default 30 s. */
  leaseMs?: number;
  /** How often the relay looks for entries whose lease ran out; 0: only when `relay()` is called. Default 10 s. */
  relayIntervalMs?: number;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_RELAY_INTERVAL_MS = 10_000;
const RELAY_BATCH = 100;

/**
 * A write-ahead outbox for removals whose announcement revokes something (DESIGN 4, "An
 * acknowledged admin write never loses its admin event"): user, client and realm deletion, an
 * SSO session's end. The bus is published to with ack before the reply, but the record is taken
 * first (so no cache refilled after the announcement finds it), and a crash between the two used
 * to lose the announcement: the deleted user's sessions, the deleted client's tokens and the
 * ended session's back-channel logouts lived on, and the admin's retry was a 404.
 *
 * Now the announcement is staged in this service's own store before the record is taken, and
 * removed once published. A relay, in every replica, takes over entries whose lease ran out: if
 * the record is gone it finishes the removal and publishes the staged events under their ids; if
 * the record is there (the crash came before the removal, or it was undone), it drops the entry.
 * So after a crash the announcement goes out within the lease and a relay interval of the restart
 * (or sooner, from another replica), at least once. A removal costs two more store writes.
 */
export class RemovalOutbox {
  private readonly kinds = new Map<string, RemovalKind<unknown>>();
  private readonly leaseMs: number;
  private readonly relayIntervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private relaying: Promise<number> | undefined;

  private constructor(
    private readonly entries: Collection<OutboxEntry>,
    private readonly bus: Bus,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: RemovalOutboxOptions,
  ) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.relayIntervalMs = options.relayIntervalMs ?? DEFAULT_RELAY_INTERVAL_MS;
  }

  static async open(store: Store, bus: Bus, clock: Clock, logger: Logger, options: RemovalOutboxOptions = {}): Promise<RemovalOutbox> {
    const entries = await store.collection<OutboxEntry>({ name: "outbox", indexes: [{ fields: ["leaseUntil"] }] });
    return new RemovalOutbox(entries, bus, clock, logger, options);
  }

  /** Registers a kind the relay can finish; every kind a removal uses must be registered. */
  register<S>(kind: RemovalKind<S>): void {
    const known = this.kinds.get(kind.name);
    if (known && known !== kind) throw new Error(`removal kind "${kind.name}" registered twice`);
    this.kinds.set(kind.name, kind as RemovalKind<unknown>);
  }

  /**
   * Stages the announcement, takes the record, does the rest, publishes with ack, and drops the
   * entry. Returns the record taken, or null when it was already gone. When the rest or the
   * publish fails, the record is put back (if this call still owns the entry) and the error goes out.
   */
  async remove<S>(removal: Removal<S>): Promise<S | null> {
    if (this.kinds.get(removal.kind.name) !== removal.kind) throw new Error(`removal kind "${removal.kind.name}" is not registered`);
    const leaseUntil = this.clock.now() + this.leaseMs;
    const entry: OutboxEntry = {
      _id: randomUUID(),
      kind: removal.kind.name,
      snapshot: removal.snapshot,
      events: removal.announce(removal.snapshot, removal.stamp).map(storeEvent),
      leaseUntil,
      createdAt: this.clock.now(),
    };
    await this.entries.insert(entry);
    // If taking fails, whether the record went is unknown: the entry stays, and the relay decides by looking.
    const removed = await removal.take();
    if (!removed) {
      await this.entries.delete(entry._id);
      return null;
    }
    try {
      await removal.rest?.(removed);
      for (const event of removal.announce(removed, removal.stamp)) await this.publish(event);
    } catch (e) {
      // Keep the relay off while the record goes back; if this call no longer owns the entry (it
      // ran past its lease and the relay took over), the relay finishes instead.
      const owned = await this.entries.update({ _id: entry._id, leaseUntil }, { $set: { leaseUntil: this.clock.now() + this.leaseMs } });
      if (owned === 1 && removal.undo) {
        await removal.undo(removed);
        await this.entries.delete(entry._id);
      }
      throw e;
    }
    // Done and announced: an entry left behind by a failing store only costs the relay a second,
    // de-duplicated announcement, so the caller hears of the success.
    await this.entries.delete(entry._id).catch((err: unknown) => this.logger.warn({ err, entry: entry._id }, "outbox entry of an announced removal not dropped; the relay announces it again"));
    return removed;
  }

  /**
   * Finishes every removal whose lease ran out (a crash, or a process stopped mid-way); returns how
   * many it announced. Concurrent relays (replicas) take an entry by moving its lease, so each
   * entry is handled by one at a time; one that fails stays for the next round.
   */
  relay(): Promise<number> {
    // One round at a time in this process: a timer tick during a long round joins it.
    this.relaying ??= this.relayRound().finally(() => { this.relaying = undefined; });
    return this.relaying;
  }

  /** Relays once now (entries a crashed predecessor left), then every interval; unref'd timer. */
  async start(): Promise<void> {
    await this.relay().catch((err) => this.logger.warn({ err }, "outbox relay failed; retried at the next interval"));
    if (this.relayIntervalMs > 0 && !this.timer) {
      this.timer = setInterval(() => {
        this.relay().catch((err) => this.logger.warn({ err }, "outbox relay failed; retried at the next interval"));
      }, this.relayIntervalMs);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.relaying?.catch(() => undefined);
  }

  private async relayRound(): Promise<number> {
    const now = this.clock.now();
    const due = await this.entries.find({ leaseUntil: { $lte: now } }, { sort: [["createdAt", 1]], limit: RELAY_BATCH });
    let announced = 0;
    for (const entry of due) {
      const taken = await this.entries.update({ _id: entry._id, leaseUntil: entry.leaseUntil }, { $set: { leaseUntil: this.clock.now() + this.leaseMs } });
      if (taken !== 1) continue; // another replica's relay has it
      const kind = this.kinds.get(entry.kind);
      if (!kind) {
        this.logger.error({ kind: entry.kind, entry: entry._id }, "outbox entry of an unknown removal kind left in place");
        continue;
      }
      try {
        if (await kind.present(entry.snapshot)) {
          await this.entries.delete(entry._id);
          this.logger.info({ kind: entry.kind, entry: entry._id }, "outbox entry dropped: its removal never happened or was undone");
          continue;
        }
        await kind.finish?.(entry.snapshot);
        for (const event of entry.events) await this.publish(loadEvent(event));
        await this.entries.delete(entry._id);
        announced++;
        this.logger.info({ kind: entry.kind, entry: entry._id, events: entry.events.map((e) => e.subject) }, "interrupted removal finished and announced");
      } catch (err) {
        this.logger.warn({ err, kind: entry.kind, entry: entry._id }, "outbox entry not relayed; retried when its lease runs out");
      }
    }
    return announced;
  }

  private async publish(event: OutgoingEvent): Promise<void> {
    await this.bus.publish(event.subject, event.payload, { id: event.id, ...(event.requestId !== undefined ? { requestId: event.requestId } : {}) });
  }
}

function storeEvent(e: OutgoingEvent): StoredEvent {
  return {
    subject: e.subject, payload: Buffer.from(e.payload).toString("base64"), id: e.id,
    ...(e.requestId !== undefined ? { requestId: e.requestId } : {}),
  };
}

function loadEvent(e: StoredEvent): OutgoingEvent {
  return {
    subject: e.subject, payload: new Uint8Array(Buffer.from(e.payload, "base64")), id: e.id,
    ...(e.requestId !== undefined ? { requestId: e.requestId } : {}),
  };
}
