import { DeliverySchema, WebhookSchema } from "../../../gen/iam/audit/v1/webhook_pb.js";
import { PAGE, arrayOf, json, noContent, type Answer, type Operation, type Param } from "./operation.js";
import type { JsonSchema, ProtoSchemas } from "./proto-schema.js";

const W = "/admin/realms/:realmName/webhooks";
const ID = { id: "The webhook's id." };
const str = { type: "string" };
const DATE = { type: "string", description: "ISO 8601 date (the whole day) or date-time." };
const q = (name: string, description: string, schema: JsonSchema = str, required = false): Param => ({ name, description, schema, ...(required ? { required } : {}) });
/** The signing secret is answered once, and never cached (webhook-routes.ts). */
const NO_STORE = { "Cache-Control": "`no-store`: the answer holds the signing secret." };

/**
 * The create and update body as webhook-routes.ts reads it (not parseBody): the four fields, each
 * optional on update; `id`, `createdAt` and `updatedAt` are accepted back unchanged and ignored,
 * so a GET body can be PUT. Anything else is a 400 `unknown_field`.
 */
const WEBHOOK_INPUT: JsonSchema = {
  type: "object", additionalProperties: false,
  description: "A webhook's fields. On update only the fields sent change; a sent `headers` replaces all of them.",
  properties: {
    url: { ...str, description: "The receiver's URL (https, or http to loopback where allowed)." },
    eventTypes: { type: "array", items: str, description: "Login event types (e.g. `LOGIN`) and admin events (`admin.<RESOURCE>.<OPERATION>`, `*` wildcards) to send." },
    enabled: { type: "boolean" },
    headers: { type: "object", additionalProperties: str, description: "Extra request headers sent with each delivery." },
    secretGracePeriodSeconds: {
      type: "integer", minimum: 0, maximum: 604800,
      description: "How long a rotated-out secret keeps signing beside the new one (default 86400, a day; 0: it stops at once).",
    },
    id: { ...str, description: "Read-only; ignored." },
    previousSecretExpiresAt: { description: "Read-only; ignored." },
    createdAt: { description: "Read-only; ignored." },
    updatedAt: { description: "Read-only; ignored." },
  },
};

/** Webhooks of a realm and their deliveries (docs/webhooks.md). */
export function webhookOperations(p: ProtoSchemas): Operation[] {
  const webhook = p.ref(WebhookSchema);
  // deliveryJson writes `lastAttemptAt: null` until the first attempt rather than leaving it out.
  const delivery = p.extended(DeliverySchema, { lastAttemptAt: { type: ["string", "null"], format: "date-time" } });
  const op = (o: Omit<Operation, "auth" | "tag">): Operation => ({ auth: "admin", tag: "Webhooks", ...o });
  const notFound = (what: string): Answer => json(`The realm or ${what} does not exist (\`realm_not_found\`, \`webhook_not_found\`${what.includes("delivery") ? ", `delivery_not_found`" : ""}).`, { $ref: "#/components/schemas/Error" });
  return [
    op({ id: "createWebhook", method: "POST", path: W, summary: "Create a webhook",
      description: "Answers the webhook and, this once, its signing secret (`whsec_` and base64 of 32 bytes, Standard Webhooks).",
      body: { schema: WEBHOOK_INPUT, required: true },
      responses: {
        201: { ...json("The webhook and its secret.", p.extended(WebhookSchema, { secret: str })),
          headers: { Location: "`/admin/realms/{realmName}/webhooks/{id}` (a relative reference).", ...NO_STORE } },
      } }),
    op({ id: "listWebhooks", method: "GET", path: W, summary: "List webhooks", query: PAGE,
      description: "In creation order; `max` defaults to 100, at most 1000.",
      responses: { 200: json("Webhooks (never their secrets).", arrayOf(webhook)) } }),
    op({ id: "getWebhook", method: "GET", path: `${W}/:id`, pathParams: ID, summary: "Get a webhook",
      responses: { 200: json("The webhook (never its secret).", webhook), 404: notFound("the webhook") } }),
    op({ id: "updateWebhook", method: "PUT", path: `${W}/:id`, pathParams: ID, summary: "Update a webhook (the fields sent)",
      body: { schema: WEBHOOK_INPUT, required: true },
      responses: { 200: json("The webhook.", webhook), 404: notFound("the webhook") } }),
    op({ id: "deleteWebhook", method: "DELETE", path: `${W}/:id`, pathParams: ID, summary: "Delete a webhook and its deliveries",
      responses: { 204: noContent(), 404: notFound("the webhook") } }),
    op({ id: "rotateWebhookSecret", method: "POST", path: `${W}/:id/secret`, pathParams: ID, summary: "Rotate a webhook's signing secret",
      description: "The new secret is answered this once. During the grace period (`gracePeriodSeconds` in the body, else the webhook's "
        + "`secretGracePeriodSeconds`) each delivery carries two Standard Webhooks signatures, `webhook-signature: v1,<new> v1,<old>`, "
        + "so a receiver verifies with either while it switches; then only the new one signs. A secret rotated out earlier stops at once.",
      body: {
        required: false,
        schema: {
          type: "object", additionalProperties: false,
          properties: { gracePeriodSeconds: { type: "integer", minimum: 0, maximum: 604800, description: "This rotation's grace period; 0 stops the old secret at once (a leaked one)." } },
        },
      },
      responses: {
        200: {
          ...json("The new secret, and when the old one stops signing (null: at once).", {
            type: "object", additionalProperties: false, required: ["secret", "previousSecretExpiresAt"],
            properties: { secret: str, previousSecretExpiresAt: { type: ["string", "null"], format: "date-time" } },
          }),
          headers: NO_STORE,
        },
        400: json("`gracePeriodSeconds` is not a whole number from 0 to 604800, or the body has another field.", { $ref: "#/components/schemas/Error" }),
        404: notFound("the webhook"),
        409: json("Another rotation of the same webhook won (`field`: secret).", { $ref: "#/components/schemas/Error" }),
      } }),
    op({ id: "listWebhookDeliveries", method: "GET", path: `${W}/:id/deliveries`, pathParams: ID, summary: "List a webhook's deliveries",
      query: [q("status", "Only deliveries in this state.", { enum: ["pending", "delivered", "failed", "dead"] }), ...PAGE],
      responses: { 200: json("Deliveries, newest first.", arrayOf(delivery)), 404: notFound("the webhook") } }),
    op({ id: "replayWebhookDelivery", method: "POST", path: `${W}/:id/deliveries/:deliveryId/replay`, pathParams: ID,
      summary: "Send a delivery again", description: "Under its own `webhook-id`, with a fresh 24 h retry window.",
      responses: { 202: json("The delivery, queued again now.", delivery), 404: notFound("the webhook or the delivery") } }),
    op({ id: "replayWebhookRange", method: "POST", path: `${W}/:id/replay`, pathParams: ID, summary: "Send again the stored events of a time range",
      description: "Every stored event of the range that the webhook subscribes to is queued as a new delivery.",
      query: [q("dateFrom", "From (inclusive).", DATE, true), q("dateTo", "To (inclusive); now when absent.", DATE)],
      responses: {
        202: json("How many deliveries were queued.", { type: "object", additionalProperties: false, required: ["queued"], properties: { queued: { type: "integer" } } }),
        404: notFound("the webhook"),
      } }),
  ];
}
