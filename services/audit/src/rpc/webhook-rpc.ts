import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Delivery, Webhook, WebhookInput as InputMessage, WebhookService } from "../../../../gen/iam/audit/v1/webhook_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import { pageOf } from "../../../kit/src/page.js";
import type { WebhookAdmin } from "../domain/webhook-admin.js";
import type { RangeReplay } from "../domain/range-replay.js";
import { gracePeriodOf, previousSecretExpiry, type WebhookInput, type WebhookRecord } from "../domain/webhook.js";
import { DELIVERY_STATUSES, type DeliveryRecord, type DeliveryStatus } from "../store/delivery-repository.js";

/** Thin handlers: check -> domain -> convert. */
export function webhookRpc(admin: WebhookAdmin, ranges: RangeReplay): ServiceImpl<typeof WebhookService> {
  const toProto = (w: WebhookRecord) => webhookToProto(w, admin.now());
  return {
    async createWebhook(req) {
      const { webhook, secret } = await admin.create(req.realm, toInput(req.webhook));
      return { webhook: toProto(webhook), secret };
    },
    async listWebhooks(req) {
      return { webhooks: (await admin.list(req.realm, pageOf(req.first, req.max))).map(toProto) };
    },
    async getWebhook(req) {
      return { webhook: toProto(await admin.get(req.realm, req.id)) };
    },
    async updateWebhook(req) {
      return { webhook: toProto(await admin.update(req.realm, req.id, toInput(req.webhook))) };
    },
    async deleteWebhook(req) {
      await admin.delete(req.realm, req.id);
      return {};
    },
    async rotateWebhookSecret(req) {
      const { secret, previousSecretExpiresAt } = await admin.rotateSecret(req.realm, req.id, req.gracePeriodSeconds);
      return { secret, ...(previousSecretExpiresAt !== undefined ? { previousSecretExpiresAt: timestampFromMs(previousSecretExpiresAt) } : {}) };
    },
    async listDeliveries(req) {
      const list = await admin.listDeliveries(req.realm, req.webhookId, statusOf(req.status), pageOf(req.first, req.max));
      return { deliveries: list.map(deliveryToProto) };
    },
    async replayDelivery(req) {
      return { delivery: deliveryToProto(await admin.replay(req.realm, req.webhookId, req.deliveryId)) };
    },
    async replayRange(req) {
      if (!req.dateFrom) throw IamError.invalid("dateFrom", "dateFrom is required");
      const w = await admin.get(req.realm, req.webhookId);
      return { queued: await ranges.replay(w, timestampMs(req.dateFrom), req.dateTo ? timestampMs(req.dateTo) : undefined) };
    },
  };
}

function statusOf(s: string): DeliveryStatus | undefined {
  if (!s) return undefined;
  if (!(DELIVERY_STATUSES as readonly string[]).includes(s)) {
    throw IamError.invalid("status", `status must be one of ${DELIVERY_STATUSES.join(", ")}`);
  }
  return s as DeliveryStatus;
}

function toInput(m: InputMessage | undefined): WebhookInput {
  if (!m) return {};
  return {
    ...(m.url !== undefined ? { url: m.url } : {}),
    ...(m.eventTypes ? { eventTypes: [...m.eventTypes.values] } : {}),
    ...(m.enabled !== undefined ? { enabled: m.enabled } : {}),
    ...(m.headers ? { headers: { ...m.headers.values } } : {}),
    ...(m.secretGracePeriodSeconds !== undefined ? { secretGracePeriodSeconds: m.secretGracePeriodSeconds } : {}),
  };
}

function webhookToProto(w: WebhookRecord, now: number): Webhook {
  const previous = previousSecretExpiry(w, now);
  return {
    $typeName: "iam.audit.v1.Webhook", id: w._id, url: w.url, eventTypes: [...w.eventTypes], enabled: w.enabled, headers: { ...w.headers },
    createdAt: timestampFromMs(w.createdAt), updatedAt: timestampFromMs(w.updatedAt), secretGracePeriodSeconds: gracePeriodOf(w),
    ...(previous !== undefined ? { previousSecretExpiresAt: timestampFromMs(previous) } : {}),
  };
}

function deliveryToProto(d: DeliveryRecord): Delivery {
  return {
    $typeName: "iam.audit.v1.Delivery", id: d._id, eventId: d.eventId, eventType: d.eventType, status: d.status, attempts: d.attempts,
    responseCode: d.responseCode, createdAt: timestampFromMs(d.createdAt), eventTime: timestampFromMs(d.eventTime), lastError: d.lastError,
    ...(d.lastAttemptAt !== undefined ? { lastAttemptAt: timestampFromMs(d.lastAttemptAt) } : {}),
    ...(d.status === "pending" || d.status === "failed" ? { nextAttemptAt: timestampFromMs(d.nextAttemptAt) } : {}),
  };
}
