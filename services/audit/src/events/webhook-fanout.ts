import { fromBinary } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { subscribes } from "../domain/webhook.js";
import { adminWebhookEvent, deliveryId, loginWebhookEvent, type WebhookEvent } from "../domain/webhook-payload.js";
import type { WebhookRepository } from "../store/webhook-repository.js";
import type { DeliveryRepository, DeliveryRecord } from "../store/delivery-repository.js";
import { adminEventRecord, loginEventRecord } from "./event-records.js";

/**
 * Turns stored events into deliveries: its own durable consumers on the subjects the audit
 * service stores events from, so a message is acknowledged only once its deliveries are in the
 * store, and an event published while this process was down is delivered when it is back
 * (JetStream in cluster mode, the journal in embedded mode). Delivery ids are derived from the
 * webhook and the event, so a redelivered message adds nothing. Nothing here waits on a
 * receiver: the dispatcher sends from the store.
 */
export async function startWebhookFanout(
  bus: Bus, hooks: WebhookRepository, deliveries: DeliveryRepository, clock: Clock, logger: Logger, queued: () => void,
): Promise<Subscription[]> {
  const fan = async (e: WebhookEvent) => {
    const now = clock.now();
    let added = 0;
    for (const w of await hooks.enabledIn(e.realm)) {
      if (w.createdAt > e.time || !subscribes(w, e.type)) continue;
      if (await deliveries.insertOnce(newDelivery(w._id, e, now))) added++;
    }
    if (added) queued();
  };
  return [
    await bus.subscribe({ durable: "audit-webhook-admin-events", subject: "iam.*.v1.admin-event.recorded" },
      async (m) => fan(adminWebhookEvent(adminEventRecord(m)))),
    await bus.subscribe({ durable: "audit-webhook-login-events", subject: "iam.*.v1.login-event.recorded" },
      async (m) => fan(loginWebhookEvent(loginEventRecord(m)))),
    await bus.subscribe({ durable: "audit-webhook-realm-deleted", subject: "iam.directory.v1.realm.deleted" }, async (m) => {
      const e = fromBinary(RealmDeletedSchema, m.payload);
      // By the realm's id: a realm made again under the same name keeps its new webhooks.
      const ids = await hooks.idsOfRealm(e.realmId);
      let d = 0;
      for (const id of ids) d += await deliveries.deleteWebhook(id);
      await hooks.deleteRealm(e.realmId);
      logger.info({ realm: e.realmName, webhooks: ids.length, deliveries: d }, "dropped webhooks of deleted realm");
    }),
  ];
}

/** A delivery due now, for a webhook and an event (also what a range replay queues). */
export function newDelivery(webhookId: string, e: WebhookEvent, now: number): DeliveryRecord {
  return {
    _id: deliveryId(webhookId, e.id), webhookId, realm: e.realm, eventId: e.id, eventType: e.type, eventTime: e.time,
    body: e.body, status: "pending", attempts: 0, responseCode: 0, lastError: "", createdAt: now,
    nextAttemptAt: now, windowStart: now, leaseUntil: 0, leaseToken: "",
  };
}
