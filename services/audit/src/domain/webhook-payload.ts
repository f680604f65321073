import { createHash } from "node:crypto";
import type { AdminEventRecord } from "../store/admin-event-repository.js";
import type { LoginEventRecord } from "../store/login-event-repository.js";
import { adminEventType } from "./webhook.js";

/** An event as a webhook receives it: its subscription type, its time and its body. */
export interface WebhookEvent {
  id: string;
  realm: string;
  type: string;
  time: number;
  body: string;
}

/**
 * The Standard Webhooks payload shape (`type`, `timestamp`, `data`), whose `data` is the event as
 * the Admin API lists it (GET .../events and .../admin-events), so a receiver parses one shape.
 */
export function loginWebhookEvent(e: LoginEventRecord): WebhookEvent {
  const data = {
    id: e._id, time: iso(e.time), realm: e.realm, type: e.type, clientId: e.clientId, userId: e.userId,
    sessionId: e.sessionId, ipAddress: e.ipAddress, error: e.error, details: e.details,
  };
  return { id: e._id, realm: e.realm, type: e.type, time: e.time, body: JSON.stringify({ type: e.type, timestamp: iso(e.time), data }) };
}

export function adminWebhookEvent(e: AdminEventRecord): WebhookEvent {
  const type = adminEventType(e.resourceType, e.operationType);
  const data = {
    id: e._id, time: iso(e.time), realm: e.realm, operationType: e.operationType, resourceType: e.resourceType,
    resourcePath: e.resourcePath,
    authDetails: { type: e.authType, adminId: e.authAdminId, username: e.authUsername, ipAddress: e.authIpAddress },
    representation: e.representation, requestId: e.requestId,
  };
  return { id: e._id, realm: e.realm, type, time: e.time, body: JSON.stringify({ type, timestamp: iso(e.time), data }) };
}

/**
 * A delivery's id, the `webhook-id` header: the same for a webhook and an event however often
 * the event arrives, so the receiver's idempotency key and the store's both hold.
 */
export function deliveryId(webhookId: string, eventId: string): string {
  return `msg_${createHash("sha256").update(`${webhookId}\n${eventId}`).digest("base64url").slice(0, 27)}`;
}

const iso = (ms: number) => new Date(ms).toISOString();
