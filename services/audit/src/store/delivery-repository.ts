import type { Collection, Filter, Store } from "../../../kit/src/store/port.js";

export type DeliveryStatus = "pending" | "delivered" | "failed" | "dead";
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ["pending", "delivered", "failed", "dead"];

/**
 * One event for one webhook. `_id` is the Standard Webhooks `webhook-id` (derived from the
 * webhook and the event, so a redelivered bus message finds it already there), and `body` is
 * fixed when it is created: every attempt and replay sends the same bytes under the same id.
 */
export interface DeliveryRecord {
  _id: string;
  [key: string]: unknown;
  webhookId: string;
  realm: string;
  eventId: string;
  eventType: string;
  eventTime: number;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  responseCode: number;
  lastError: string;
  createdAt: number;
  /** When it is next due; the dispatcher takes due ones in this order. */
  nextAttemptAt: number;
  /** Start of the retry window (the first attempt, or the replay). */
  windowStart: number;
  lastAttemptAt?: number;
  /** A dispatcher's claim: until then no other replica takes it (cluster mode, DESIGN 2). */
  leaseUntil: number;
  leaseToken: string;
  /** Set once delivered or dead (DELIVERY_RETENTION_MS later); an open delivery never expires. */
  expiresAt?: number;
}

/** How long a delivered or dead delivery stays listed (and replayable) after its last attempt. */
export const DELIVERY_RETENTION_MS = 7 * 86_400_000;

/** Statuses that are still to be sent. */
const OPEN: DeliveryStatus[] = ["pending", "failed"];

export class DeliveryRepository {
  private constructor(private readonly deliveries: Collection<DeliveryRecord>) {}

  static async open(store: Store): Promise<DeliveryRepository> {
    return new DeliveryRepository(await store.collection<DeliveryRecord>({
      name: "webhook_deliveries",
      ttl: true,
      indexes: [
        { fields: ["webhookId", "createdAt"] },
        { fields: ["webhookId", "status", "createdAt"] },
        { fields: ["status", "nextAttemptAt"] },
        { fields: ["webhookId", "eventTime"] },
        { fields: ["expiresAt"] },
      ],
    }));
  }

  /** Inserts a new delivery; false when one with its id exists (a redelivered event). */
  async insertOnce(d: DeliveryRecord): Promise<boolean> {
    try {
      await this.deliveries.insert(d);
      return true;
    } catch (e) {
      if ((e as { code?: string }).code === "alreadyExists") return false;
      throw e;
    }
  }

  get(id: string): Promise<DeliveryRecord | null> {
    return this.deliveries.get(id);
  }

  /** Newest first, as the events are listed. */
  list(webhookId: string, status: DeliveryStatus | undefined, first: number, max: number): Promise<DeliveryRecord[]> {
    const filter: Filter = { webhookId };
    if (status) filter.status = status;
    return this.deliveries.find(filter, { sort: [["createdAt", -1], ["_id", -1]], skip: first, limit: max });
  }

  /** Open deliveries due by `now` and not under another's lease, oldest due first. */
  due(now: number, skipWebhooks: string[], limit: number): Promise<DeliveryRecord[]> {
    const filter: Filter = { status: { $in: OPEN }, nextAttemptAt: { $lte: now }, leaseUntil: { $lt: now } };
    if (skipWebhooks.length) filter.webhookId = { $nin: skipWebhooks };
    return this.deliveries.find(filter, { sort: [["nextAttemptAt", 1]], limit });
  }

  /** Claims a due delivery for one attempt: a conditional update, so only one replica wins it. */
  claim(id: string, now: number, leaseMs: number, token: string): Promise<DeliveryRecord | null> {
    return this.deliveries.findOneAndUpdate(
      { _id: id, status: { $in: OPEN }, nextAttemptAt: { $lte: now }, leaseUntil: { $lt: now } },
      { $set: { leaseUntil: now + leaseMs, leaseToken: token } },
    );
  }

  /**
   * Records an attempt's outcome under the claim that made it; a replay or a takeover since then
   * changed the token, and the stale outcome is dropped (false).
   */
  async finish(id: string, token: string, set: Partial<DeliveryRecord>): Promise<boolean> {
    return (await this.deliveries.update({ _id: id, leaseToken: token }, { $set: { ...set, leaseUntil: 0, leaseToken: "" }, $inc: { attempts: 1 } })) > 0;
  }

  /** Gives a claim back without an attempt (the webhook is disabled: it waits). */
  async release(id: string, token: string, nextAttemptAt: number): Promise<void> {
    await this.deliveries.update({ _id: id, leaseToken: token }, { $set: { leaseUntil: 0, leaseToken: "", nextAttemptAt } });
  }

  /**
   * Drops every claim: only when this process is the store's one user (embedded mode), so every
   * claim found at start is a crashed predecessor's, whose attempt may or may not have reached the
   * receiver; it is sent again at once (at-least-once), not after its lease runs out.
   */
  releaseAll(): Promise<number> {
    // Only open deliveries hold claims (an attempt's end clears its own), so the status index serves this.
    return this.deliveries.update({ status: { $in: OPEN }, leaseUntil: { $gt: 0 } }, { $set: { leaseUntil: 0, leaseToken: "" } });
  }

  /** Queues a delivery again now, under its own id, with a fresh retry window. */
  replay(id: string, webhookId: string, now: number): Promise<DeliveryRecord | null> {
    return this.deliveries.findOneAndUpdate({ _id: id, webhookId }, {
      $set: { status: "pending", nextAttemptAt: now, windowStart: now, leaseUntil: 0, leaseToken: "", lastError: "" },
      $unset: ["expiresAt"],
    });
  }

  deleteWebhook(webhookId: string): Promise<number> {
    return this.deliveries.deleteMany({ webhookId });
  }
}
