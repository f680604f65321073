import { create, toJson } from "@bufbuild/protobuf";
import { timestampDate, timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  DeliverySchema, WebhookInputSchema, WebhookSchema, type Delivery, type Webhook, type WebhookInput,
} from "../../../gen/iam/audit/v1/webhook_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { requireObject } from "../http/json-input.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";
import { dateParam, intParam, strParam } from "./event-routes.js";

const FIELDS = new Set(["url", "eventTypes", "enabled", "headers", "secretGracePeriodSeconds"]);
/** Read-only fields of the representation, accepted back unchanged so a GET body can be PUT. */
const READ_ONLY = new Set(["id", "createdAt", "updatedAt", "previousSecretExpiresAt"]);

/** Webhooks of a realm and their deliveries (docs/webhooks.md). */
export function addWebhookRoutes(table: RouteTable, rpc: RpcClients): void {
  const base = "/admin/realms/:realmName/webhooks";
  const realmOf = (req: { params: Record<string, unknown> }) => String(req.params.realmName);
  const idOf = (req: { params: Record<string, unknown> }) => String(req.params.id);
  table
    .add("POST", base, "admin", async (req) => {
      const res = await rpc.webhooks.createWebhook({ realm: realmOf(req), webhook: webhookInput(req.body) });
      const body = webhookJson(res.webhook);
      return {
        status: 201, body: { ...body, secret: res.secret },
        // A relative reference (RFC 9110 §10.2.2), so no Host header is trusted to build it.
        headers: { location: `/admin/realms/${encodeURIComponent(realmOf(req))}/webhooks/${String(body.id)}`, "cache-control": "no-store" },
      };
    })
    .add("GET", base, "admin", async (req) => {
      const res = await rpc.webhooks.listWebhooks({ realm: realmOf(req), first: intParam(req, "first"), max: intParam(req, "max") });
      return { status: 200, body: res.webhooks.map(webhookJson) };
    })
    .add("GET", `${base}/:id`, "admin", async (req) => {
      const res = await rpc.webhooks.getWebhook({ realm: realmOf(req), id: idOf(req) });
      return { status: 200, body: webhookJson(res.webhook) };
    })
    .add("PUT", `${base}/:id`, "admin", async (req) => {
      const res = await rpc.webhooks.updateWebhook({ realm: realmOf(req), id: idOf(req), webhook: webhookInput(req.body) });
      return { status: 200, body: webhookJson(res.webhook) };
    })
    .add("DELETE", `${base}/:id`, "admin", async (req) => {
      await rpc.webhooks.deleteWebhook({ realm: realmOf(req), id: idOf(req) });
      return { status: 204 };
    })
    // A new secret, shown this once (as a client's regenerate-secret); the old one signs beside it
    // for the grace period (`gracePeriodSeconds` in the body, else the webhook's).
    .add("POST", `${base}/:id/secret`, "admin", async (req) => {
      const grace = rotationGrace(req.body);
      const res = await rpc.webhooks.rotateWebhookSecret({ realm: realmOf(req), id: idOf(req), ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}) });
      return {
        status: 200, headers: { "cache-control": "no-store" },
        body: { secret: res.secret, previousSecretExpiresAt: res.previousSecretExpiresAt ? timestampDate(res.previousSecretExpiresAt).toISOString() : null },
      };
    })
    .add("GET", `${base}/:id/deliveries`, "admin", async (req) => {
      const res = await rpc.webhooks.listDeliveries({
        realm: realmOf(req), webhookId: idOf(req), status: strParam(req, "status"), first: intParam(req, "first"), max: intParam(req, "max"),
      });
      return { status: 200, body: res.deliveries.map(deliveryJson) };
    })
    .add("POST", `${base}/:id/deliveries/:deliveryId/replay`, "admin", async (req) => {
      const res = await rpc.webhooks.replayDelivery({ realm: realmOf(req), webhookId: idOf(req), deliveryId: String(req.params.deliveryId) });
      return { status: 202, body: deliveryJson(res.delivery) };
    })
    // A time range: `dateFrom` (required) and `dateTo` as the events endpoints take them.
    .add("POST", `${base}/:id/replay`, "admin", async (req) => {
      const dateFrom = dateParam(req, "dateFrom", "start");
      const dateTo = dateParam(req, "dateTo", "end");
      if (dateFrom === undefined) throw new GatewayError(400, "invalid_request", "dateFrom is required", "dateFrom");
      const res = await rpc.webhooks.replayRange({
        realm: realmOf(req), webhookId: idOf(req), dateFrom: timestampFromMs(dateFrom),
        ...(dateTo !== undefined ? { dateTo: timestampFromMs(dateTo) } : {}),
      });
      return { status: 202, body: { queued: res.queued } };
    });
}

/** The JSON body as the RPC's input: unknown fields and wrong types are a 400 naming the field. */
function webhookInput(body: unknown): WebhookInput {
  const obj = requireObject(body);
  const input = create(WebhookInputSchema);
  for (const [key, value] of Object.entries(obj)) {
    if (READ_ONLY.has(key)) continue;
    if (!FIELDS.has(key)) throw new GatewayError(400, "unknown_field", `unknown or read-only field: ${key}`, key);
    if (key === "url") {
      if (typeof value !== "string") throw invalid(key, "a string");
      input.url = value;
    } else if (key === "secretGracePeriodSeconds") {
      if (typeof value !== "number" || !Number.isInteger(value)) throw invalid(key, "an integer");
      input.secretGracePeriodSeconds = clampInt(value);
    } else if (key === "enabled") {
      if (typeof value !== "boolean") throw invalid(key, "a boolean");
      input.enabled = value;
    } else if (key === "eventTypes") {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw invalid(key, "an array of strings");
      input.eventTypes = { $typeName: "iam.audit.v1.EventTypes", values: value as string[] };
    } else {
      if (typeof value !== "object" || value === null || Array.isArray(value) || Object.values(value).some((v) => typeof v !== "string")) {
        throw invalid(key, "an object of strings");
      }
      input.headers = { $typeName: "iam.audit.v1.Headers", values: { ...(value as Record<string, string>) } };
    }
  }
  return input;
}

/** The rotation's optional body: `{}` or none, or `{ "gracePeriodSeconds": n }`. */
function rotationGrace(body: unknown): number | undefined {
  if (body === undefined || body === null || body === "") return undefined;
  const obj = requireObject(body);
  for (const key of Object.keys(obj)) {
    if (key !== "gracePeriodSeconds") throw new GatewayError(400, "unknown_field", `unknown field: ${key}`, key);
  }
  const v = obj.gracePeriodSeconds;
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v)) throw invalid("gracePeriodSeconds", "an integer");
  return clampInt(v);
}

/** Out-of-range integers stay out of range in int32 (the domain's check names them), never wrap. */
const clampInt = (v: number): number => Math.max(-1, Math.min(v, 2 ** 31 - 1));

const invalid = (field: string, type: string) => new GatewayError(400, "invalid_field", `${field} must be ${type}`, field);

function webhookJson(w: Webhook | undefined): Record<string, unknown> {
  return w ? toJson(WebhookSchema, w, { alwaysEmitImplicit: true }) as Record<string, unknown> : {};
}

function deliveryJson(d: Delivery | undefined): Record<string, unknown> {
  if (!d) return {};
  const json = toJson(DeliverySchema, d, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  // Listed as null until the first attempt, not left out, so a reader sees every field of a delivery.
  json.lastAttemptAt ??= null;
  return json;
}
