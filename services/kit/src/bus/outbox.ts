import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Bus } from "./port.js";
import type { Clock, Collection, Store } from "../store/port.js";
import {
  EventStamp, loadEvent, storeEvent,
  type EventSink, type OutboxEntry, type OutboxKind, type OutboxOptions, type OutboxOwner, type OutboxWrite, type OutgoingEvent,
} from "./outbox-parts.js";

export { EventStamp };
export type { EventSink, OutboxKind, OutboxOptions, OutboxWrite, OutgoingEvent };

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_PUBLISH_WAIT_MS = 500;
/** The built-in kind of events handed over by `send`: there is no write to look for, they are always due. */
const EVENTS_KIND: OutboxKind<null> = { name: "outbox.events", applied: async () => true };
const DEFAULT_RELAY_INTERVAL_MS = 2_000;
const DEFAULT_OWNER_TTL_MS = 10_000;
const RELAY_BATCH = 100;
const ANNOUNCED_NOT_DROPPED = "outbox entry of an announced write not dropped; the relay announces it again";

/**
 * A write-ahead outbox for the writes whose announcement revokes something (DESIGN 4, "An
 * acknowledged admin write never loses its admin event"): user, client and realm deletion, an
 * SSO session's end, a user disabled, a password changed, a client disabled, an OAuth session
 * revoked (its back-channel logout: an entry with no event, only `finish`). The bus is
 * published to with ack before the reply, but after the write (a removed record must be gone
 * before any cache refilled after the announcement looks), and a crash between the two used to
 * lose the announcement: the deleted user's sessions, the deleted client's tokens, the ended
 * session's back-channel logouts lived on, and the admin's retry was a 404.
 *
 * Now the announcement is staged in this service's own store before the write, and dropped once
 * published. A relay, in every replica, takes over entries whose lease ran out: if the store shows
 * the write it finishes what the write had left and publishes the staged events under their ids;
 * if not (the crash came before the write, or it was undone), it drops the entry. So after a crash
 * the announcement goes out, at least once: within the owner's TTL and a relay interval from
 * another replica, which sees the crashed process stop beating (about 12 s by default); within
 * the lease and an interval of the restart where no other process relays; at the restart itself
 * when the process is the store's only one (`soleProcess`, which beats nothing). Such a write
 * costs two more store writes (on SQLite inside its own commit, and the entry's drop without a
 * flush of its own: `stage` and `discard`, port.ts); a process in a cluster, one beat per interval.
 *
 * The bus being down is not a crash and fails no request: once the write has committed, its
 * caller is answered (DESIGN 8) after at most `publishWaitMs` of waiting for the bus, none while
 * the bus is known to be down. An announcement the bus refused is handed to the relay at once,
 * which retries every interval and as soon as the bus reconnects (`Bus.onReconnect`). Events of
 * no write (login events) come through `send`, staged the same way. Each goes out under its one
 * id, so a copy the bus took before it failed is dropped by its de-duplication and consumers'.
 */
export class Outbox implements EventSink {
  private readonly kinds = new Map<string, OutboxKind<unknown>>();
  private readonly leaseMs: number;
  private readonly relayIntervalMs: number;
  private readonly ownerTtlMs: number;
  private readonly soleProcess: boolean;
  private readonly openedAt: number;
  /** This process's outbox, in its entries and its beats. */
  private readonly ownerId = randomUUID();
  private predecessorsTaken = false;
  private readonly publishWaitMs: number;
  private timer: NodeJS.Timeout | undefined;
  private relaying: Promise<number> | undefined;
  /**
   * Deliveries still running after their request answered; `settled()` waits for them. `stop()`
   * does not: one the bus never answers leaves its entry, which the relay of the next process takes.
   */
  private readonly inFlight = new Set<Promise<void>>();

  private constructor(
    private readonly entries: Collection<OutboxEntry>,
    private readonly owners: Collection<OutboxOwner>,
    private readonly bus: Bus,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: OutboxOptions,
  ) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.relayIntervalMs = options.relayIntervalMs ?? DEFAULT_RELAY_INTERVAL_MS;
    this.ownerTtlMs = options.ownerTtlMs ?? DEFAULT_OWNER_TTL_MS;
    this.soleProcess = options.soleProcess ?? false;
    this.publishWaitMs = options.publishWaitMs ?? DEFAULT_PUBLISH_WAIT_MS;
    this.openedAt = clock.now();
    this.kinds.set(EVENTS_KIND.name, EVENTS_KIND as OutboxKind<unknown>);
    // Back from an outage: what waited for the bus goes out now, not at the next interval.
    bus.onReconnect?.(() => {
      this.relay().catch((err: unknown) => this.logger.warn({ err }, "outbox relay after the bus came back failed; retried at the next interval"));
    });
  }

  static async open(store: Store, bus: Bus, clock: Clock, logger: Logger, options: OutboxOptions = {}): Promise<Outbox> {
    // createdAt also serves the relay's order, and a sole process's look for its predecessor's
    // entries; owner, the look for a gone process's.
    const entries = await store.collection<OutboxEntry>({ name: "outbox", indexes: [{ fields: ["leaseUntil"] }, { fields: ["createdAt"] }, { fields: ["owner"] }] });
    const owners = await store.collection<OutboxOwner>({ name: "outbox_owners", indexes: [{ fields: ["aliveUntil"] }] });
    const outbox = new Outbox(entries, owners, bus, clock, logger, options);
    // Alive before its first entry, so no entry of a live process lacks a beat.
    await outbox.beat();
    return outbox;
  }

  /** Registers a kind the relay can finish; every kind a write uses must be registered. */
  register<S>(kind: OutboxKind<S>): void {
    const known = this.kinds.get(kind.name);
    if (known && known !== kind) throw new Error(`outbox kind "${kind.name}" registered twice`);
    this.kinds.set(kind.name, kind as OutboxKind<unknown>);
  }

  /**
   * Stages the announcement, applies the write, does the rest, publishes with ack, and drops the
   * entry. Returns what `apply` returned (null: nothing to announce). When the rest or the publish
   * fails, the write is undone (if this call still owns the entry) and the error goes out.
   */
  async write<S>(w: OutboxWrite<S>): Promise<S | null> {
    if (this.kinds.get(w.kind.name) !== w.kind) throw new Error(`outbox kind "${w.kind.name}" is not registered`);
    const stamp = new EventStamp(this.clock.now());
    const leaseUntil = stamp.time + this.leaseMs;
    const entry: OutboxEntry = {
      _id: randomUUID(),
      kind: w.kind.name,
      snapshot: w.snapshot,
      events: w.announce(w.snapshot, stamp).map(storeEvent),
      leaseUntil,
      createdAt: this.clock.now(),
      owner: this.ownerId,
    };
    // Staged, not awaited to disk: in a store that logs writes in order (SQLite) the entry shares
    // apply's commit and flush, and apply's write cannot be durable without it.
    const staged = await this.entries.stage(entry);
    let written: S | null;
    try {
      written = await w.apply();
    } catch (e) {
      // A refused write (a conflict) leaves nothing to announce. When even the store cannot say
      // (it is down), the entry stays and the relay decides by looking once the lease runs out.
      if (!(await w.kind.applied(w.snapshot).catch(() => true))) await this.entries.delete(entry._id).catch(() => undefined);
      throw e;
    }
    if (!written) {
      await this.entries.delete(entry._id);
      return null;
    }
    // Settled by now (its commit came with apply's or before). Should it have failed alone (a
    // full disk that had room again for apply's write), the entry is written again before the
    // write counts as done, so a crash from here on still leaves the relay its announcement.
    await staged.durable.catch(() => this.entries.upsert(entry));
    try {
      await w.rest?.(written);
    } catch (e) {
      // Keep the relay off while the record goes back; if this call no longer owns the entry (it
      // ran past its lease and the relay took over), the relay finishes instead.
      const owned = await this.entries.update({ _id: entry._id, leaseUntil }, { $set: { leaseUntil: this.clock.now() + this.leaseMs } });
      if (owned === 1 && w.undo) {
        await w.undo(written);
        await this.entries.delete(entry._id);
      }
      throw e;
    }
    // The write has committed: its caller hears of the success whatever the bus does (DESIGN 8,
    // "a request never waits on the bus once its write has committed"); the entry holds the
    // announcement until it is out.
    await this.dispatch(entry._id, leaseUntil, w.announce(written, stamp));
    return written;
  }

  /**
   * Hands over the events of a write that has already committed, or of no write at all (a login
   * event): staged in the store, then published like a write's announcement, so an outage of the
   * bus neither fails nor delays the request, and the events go out once it is back. Resolves
   * once they are staged (one store write); fails only when the store does.
   */
  async send(events: OutgoingEvent[]): Promise<void> {
    if (events.length === 0) return;
    const now = this.clock.now();
    const entry: OutboxEntry = {
      _id: randomUUID(), kind: EVENTS_KIND.name, snapshot: null, events: events.map(storeEvent),
      leaseUntil: now + this.leaseMs, createdAt: now, owner: this.ownerId,
    };
    await this.entries.insert(entry);
    await this.dispatch(entry._id, entry.leaseUntil, events);
  }

  /** Resolves once every delivery started by a write or `send` has finished (delivered, or left to the relay). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /**
   * Publishes a committed write's events and drops its entry; waits at most publishWaitMs for it,
   * and not at all while the bus is known to be down. A failed publish hands the entry to the
   * relay at once (its lease released), so the events go out at the next round once the bus is
   * back rather than a lease later.
   */
  private async dispatch(entryId: string, leaseUntil: number, events: OutgoingEvent[]): Promise<void> {
    if (events.length === 0) {
      // Discarded, not deleted durably: should a power loss bring it back, the relay finds its
      // write applied and finishes it again, which the kinds allow (a client told twice).
      await this.drop(entryId, "outbox entry of a finished write not dropped; the relay drops it");
      return;
    }
    if (this.bus.available?.() === false) {
      await this.release(entryId, leaseUntil);
      return;
    }
    const delivery = (async () => {
      try {
        for (const event of events) await this.publish(event);
      } catch (err) {
        this.logger.warn({ err, entry: entryId }, "events of a committed write not published; the outbox relay publishes them once the bus is back");
        await this.release(entryId, leaseUntil);
        return;
      }
      // Announced: an entry left behind by a failing store (or brought back by a power loss: it
      // is discarded without a flush of its own) only costs the relay a second, de-duplicated
      // announcement.
      await this.drop(entryId, ANNOUNCED_NOT_DROPPED);
    })();
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([delivery, new Promise<void>((resolve) => { timer = setTimeout(resolve, this.publishWaitMs); })]);
    clearTimeout(timer);
  }

  /** Drops a finished entry without a flush of its own (`discard`); a failure only leaves it to the relay. */
  private async drop(entryId: string, failure: string): Promise<void> {
    await this.entries.discard(entryId).catch((err: unknown) => this.logger.warn({ err, entry: entryId }, failure));
  }

  /** Gives an entry this process owns to the next relay round (its lease ends now). */
  private async release(entryId: string, leaseUntil: number): Promise<void> {
    await this.entries.update({ _id: entryId, leaseUntil }, { $set: { leaseUntil: this.clock.now() } })
      .catch((err: unknown) => this.logger.warn({ err, entry: entryId }, "outbox entry not released; the relay takes it when its lease runs out"));
  }

  /**
   * Finishes every write whose lease ran out (a crash, or a process stopped mid-way); returns how
   * many it announced. Concurrent relays (replicas) take an entry by moving its lease, so each
   * entry is handled by one at a time; one that fails stays for the next round.
   */
  relay(): Promise<number> {
    // One round at a time in this process. A call during a round runs its own after it, so what
    // it answers was read after the call (the timer skips a tick while a round runs instead).
    const round: Promise<number> = (this.relaying ?? Promise.resolve(0)).catch(() => 0).then(() => this.relayRound())
      .finally(() => { if (this.relaying === round) this.relaying = undefined; });
    this.relaying = round;
    return round;
  }

  /** Relays once now (entries a crashed predecessor left), then beats and relays every interval; unref'd timer. */
  async start(): Promise<void> {
    await this.relay().catch((err) => this.logger.warn({ err }, "outbox relay failed; retried at the next interval"));
    if (this.relayIntervalMs > 0 && !this.timer) {
      this.timer = setInterval(() => {
        // A round beats first; during a long one, the tick only beats.
        if (this.relaying) this.beat().catch((err: unknown) => this.logger.warn({ err }, "outbox beat failed"));
        else this.relay().catch((err) => this.logger.warn({ err }, "outbox relay failed; retried at the next interval"));
      }, this.relayIntervalMs);
      this.timer.unref();
    }
  }

  /**
   * Stops the relay and ends the beats: an entry a write still hanging in this process would leave
   * (it never finishes once the process exits) is then taken by the next relay of another replica.
   */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.relaying?.catch(() => undefined);
    if (!this.soleProcess) await this.owners.upsert({ _id: this.ownerId, aliveUntil: 0 }).catch((err: unknown) => this.logger.warn({ err }, "outbox owner not marked gone; its entries wait for their owner TTL"));
  }

  /** Keeps this process's entries its own for ownerTtlMs more (none to keep for a sole process). */
  private async beat(): Promise<void> {
    if (!this.soleProcess) await this.owners.upsert({ _id: this.ownerId, aliveUntil: this.clock.now() + this.ownerTtlMs });
  }

  private async relayRound(): Promise<number> {
    // A relaying process is alive (the beat also keeps a process that only relays on demand so).
    await this.beat();
    // While the bus is known to be down a round would only wait for publishes to time out; the
    // bus's reconnect starts the next one.
    if (this.bus.available?.() === false) return 0;
    const now = this.clock.now();
    const due = await this.entries.find({ leaseUntil: { $lte: now } }, { sort: [["createdAt", 1]], limit: RELAY_BATCH });
    if (!this.soleProcess) {
      // Entries of processes gone silent, lease or not; a gone owner with none left is forgotten
      // (unless it beat again meanwhile: a stalled process that came back).
      for (const gone of await this.owners.find({ aliveUntil: { $lte: now } }, { limit: RELAY_BATCH })) {
        const left = await this.entries.find({ owner: gone._id }, { sort: [["createdAt", 1]], limit: RELAY_BATCH });
        if (left.length === 0) await this.owners.deleteMany({ _id: gone._id, aliveUntil: { $lte: now } });
        for (const e of left) if (!due.some((d) => d._id === e._id)) due.push(e);
      }
    }
    if (this.soleProcess && !this.predecessorsTaken) {
      // Until every entry a dead predecessor left has been taken once; one that fails then waits
      // for its lease like any other. (Two reads, each on its index, rather than one OR.)
      const left = await this.entries.find({ createdAt: { $lt: this.openedAt } }, { sort: [["createdAt", 1]], limit: RELAY_BATCH });
      if (left.length < RELAY_BATCH) this.predecessorsTaken = true;
      for (const e of left) if (!due.some((d) => d._id === e._id)) due.push(e);
    }
    let announced = 0;
    for (const entry of due) {
      // Taken under this process's name: should it die in turn, the next relay takes it from it.
      const takenUntil = this.clock.now() + this.leaseMs;
      const taken = await this.entries.update({ _id: entry._id, leaseUntil: entry.leaseUntil }, { $set: { leaseUntil: takenUntil, owner: this.ownerId } });
      if (taken !== 1) continue; // another replica's relay has it
      const kind = this.kinds.get(entry.kind);
      if (!kind) {
        this.logger.error({ kind: entry.kind, entry: entry._id }, "outbox entry of an unknown kind left in place");
        continue;
      }
      try {
        if (!(await kind.applied(entry.snapshot))) {
          await this.entries.delete(entry._id);
          this.logger.info({ kind: entry.kind, entry: entry._id }, "outbox entry dropped: its write never happened or was undone");
          continue;
        }
        await kind.finish?.(entry.snapshot);
      } catch (err) {
        this.logger.warn({ err, kind: entry.kind, entry: entry._id }, "outbox entry not relayed; retried when its lease runs out");
        continue;
      }
      try {
        for (const event of entry.events) await this.publish(loadEvent(event));
      } catch (err) {
        // The bus is failing: the entry goes back to the next round (a relay interval, or the
        // bus's reconnect), and this round stops rather than wait on it for every entry.
        this.logger.warn({ err, kind: entry.kind, entry: entry._id }, "outbox entry not published; retried when the bus is back");
        await this.release(entry._id, takenUntil);
        break;
      }
      await this.drop(entry._id, ANNOUNCED_NOT_DROPPED);
      announced++;
      if (entry.kind !== EVENTS_KIND.name) this.logger.info({ kind: entry.kind, entry: entry._id, events: entry.events.map((e) => e.subject) }, "interrupted write finished and announced");
    }
    return announced;
  }

  private async publish(event: OutgoingEvent): Promise<void> {
    await this.bus.publish(event.subject, event.payload, { id: event.id, ...(event.requestId !== undefined ? { requestId: event.requestId } : {}) });
  }
}

