import { isIamError } from "../errors.js";
import { systemClock, type Clock, type Collection, type Store } from "../store/port.js";
import { DEFAULT_RETENTION_MS } from "./defaults.js";
import type { SeenEvents } from "./idempotent.js";

/** The `processed_events` document: one per (consumer scope, event id). */
export type ProcessedEventDoc = {
  _id: string;
  scope: string;
  eventId: string;
  expiresAt: number;
};

export interface StoreSeenEventsOptions {
  /**
   * The consumer purpose, usually its durable name. Part of the key, because one service may run
   * two consumers of the same event (and both must act on it) against one store.
   */
  scope: string;
  /** How long an id is remembered: at least as long as the bus retains (and may redeliver) it. */
  ttlMs?: number;
  clock?: Clock;
}

/**
 * SeenEvents on the store port, so it works on the sqlite and mongo adapters alike. The unique
 * `_id` does the work: insert succeeds once, and alreadyExists means "processed already".
 * Expired ids are hidden and swept by the store's TTL handling.
 */
export class StoreSeenEvents implements SeenEvents {
  private constructor(
    private readonly collection: Collection<ProcessedEventDoc>,
    private readonly scope: string,
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}

  static async open(store: Store, options: StoreSeenEventsOptions): Promise<StoreSeenEvents> {
    const collection = await store.collection<ProcessedEventDoc>({ name: "processed_events", ttl: true });
    return new StoreSeenEvents(collection, options.scope, options.ttlMs ?? DEFAULT_RETENTION_MS,
      options.clock ?? systemClock);
  }

  async has(eventId: string): Promise<boolean> {
    return (await this.collection.get(this.key(eventId))) !== null;
  }

  async mark(eventId: string): Promise<boolean> {
    try {
      await this.collection.insert({
        _id: this.key(eventId),
        scope: this.scope,
        eventId,
        expiresAt: this.clock.now() + this.ttlMs,
      });
      return true;
    } catch (err) {
      if (isIamError(err) && err.code === "alreadyExists") return false;
      throw err;
    }
  }

  private key(eventId: string): string {
    return `${this.scope}:${eventId}`;
  }
}
