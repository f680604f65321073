import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { AdminEventRepository } from "../store/admin-event-repository.js";
import type { LoginEventRepository } from "../store/login-event-repository.js";
import type { DeliveryRepository } from "../store/delivery-repository.js";
import { newDelivery } from "../events/webhook-fanout.js";
import { adminWebhookEvent, deliveryId, loginWebhookEvent, type WebhookEvent } from "./webhook-payload.js";
import { subscribes, type WebhookRecord } from "./webhook.js";

/** The most events one range replay reads of each kind; a wider range is refused, to be split. */
export const MAX_RANGE_EVENTS = 10_000;
const PAGE = 1000;

/**
 * Sends a webhook every stored event of a time range it subscribes to (spec 6: the events as the
 * audit service keeps them; login events only within the realm's retention). An event already
 * delivered is queued again under its delivery's id; one the webhook never had (it was created
 * later, disabled, or subscribed to other types then) gets a new delivery.
 */
export class RangeReplay {
  constructor(
    private readonly adminEvents: AdminEventRepository,
    private readonly loginEvents: LoginEventRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly clock: Clock,
    private readonly queued: () => void,
  ) {}

  /** Queues the range's events; `dateTo` defaults to now. Answers how many were queued. */
  async replay(w: WebhookRecord, dateFrom: number, dateTo = this.clock.now()): Promise<number> {
    if (dateFrom > dateTo) throw IamError.invalid("dateFrom", "dateFrom must not be after dateTo");
    const events: WebhookEvent[] = [];
    for (let first = 0; ; first += PAGE) {
      const page = await this.loginEvents.query({ realm: w.realm, dateFrom, dateTo, first, max: PAGE });
      events.push(...page.map(loginWebhookEvent));
      if (page.length < PAGE) break;
      this.limit(first + PAGE);
    }
    for (let first = 0; ; first += PAGE) {
      const page = await this.adminEvents.query({ realm: w.realm, dateFrom, dateTo, first, max: PAGE });
      events.push(...page.map(adminWebhookEvent));
      if (page.length < PAGE) break;
      this.limit(first + PAGE);
    }
    const now = this.clock.now();
    let queued = 0;
    // Oldest first, so a receiver sees them in the order they happened when it is keeping up.
    for (const e of events.filter((e) => subscribes(w, e.type)).sort((a, b) => a.time - b.time)) {
      const fresh = await this.deliveries.insertOnce(newDelivery(w._id, e, now));
      if (fresh || (await this.deliveries.replay(deliveryId(w._id, e.id), w._id, now))) queued++;
    }
    if (queued) this.queued();
    return queued;
  }

  private limit(read: number): void {
    if (read >= MAX_RANGE_EVENTS) {
      throw IamError.invalid("dateFrom", `the range holds over ${MAX_RANGE_EVENTS} events; replay it in shorter ranges`);
    }
  }
}
