import { toJson } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Request } from "express";
import { AdminEventSchema, LoginEventSchema } from "../../../gen/iam/audit/v1/audit_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";

/** Events endpoints (spec 4.8). */
export function addEventRoutes(table: RouteTable, rpc: RpcClients): void {
  table.add("GET", "/admin/realms/:realmName/events", "admin", async (req) => {
    const realm = String(req.params.realmName);
    await rpc.realms.getRealm({ name: realm });
    const dateFrom = dateParam(req, "dateFrom", "start");
    const dateTo = dateParam(req, "dateTo", "end");
    const res = await rpc.audit.queryLoginEvents({
      realm,
      type: strParam(req, "type"),
      userId: strParam(req, "userId"),
      clientId: strParam(req, "clientId"),
      ...(dateFrom !== undefined ? { dateFrom: timestampFromMs(dateFrom) } : {}),
      ...(dateTo !== undefined ? { dateTo: timestampFromMs(dateTo) } : {}),
      first: intParam(req, "first"),
      max: intParam(req, "max"),
    });
    return { status: 200, body: res.events.map((e) => toJson(LoginEventSchema, e, { alwaysEmitImplicit: true })) };
  });
  // Spec 3 and 7.1: clearing login events answers 204; admin events cannot be deleted (spec 6.3).
  table.add("DELETE", "/admin/realms/:realmName/events", "admin", async (req) => {
    const realm = String(req.params.realmName);
    await rpc.realms.getRealm({ name: realm });
    await rpc.audit.clearLoginEvents({ realm });
    return { status: 204 };
  });
  table.add("GET", "/admin/realms/:realmName/admin-events", "admin", async (req) => {
    const realm = String(req.params.realmName);
    await rpc.realms.getRealm({ name: realm }); // 404 for an unknown realm, not an empty list
    const dateFrom = dateParam(req, "dateFrom", "start");
    const dateTo = dateParam(req, "dateTo", "end");
    const res = await rpc.audit.queryAdminEvents({
      realm,
      operationType: strParam(req, "operationType"),
      resourceType: strParam(req, "resourceType"),
      ...(dateFrom !== undefined ? { dateFrom: timestampFromMs(dateFrom) } : {}),
      ...(dateTo !== undefined ? { dateTo: timestampFromMs(dateTo) } : {}),
      first: intParam(req, "first"),
      max: intParam(req, "max"),
    });
    return { status: 200, body: res.events.map((e) => toJson(AdminEventSchema, e, { alwaysEmitImplicit: true })) };
  });
}

export function strParam(req: Request, name: string): string {
  const v = req.query[name];
  if (v === undefined) return "";
  if (typeof v !== "string") throw new GatewayError(400, "invalid_request", `${name} must be given once`, name);
  return v;
}

export function intParam(req: Request, name: string): number {
  const v = strParam(req, name);
  if (v === "") return 0;
  if (!/^\d{1,9}$/.test(v)) throw new GatewayError(400, "invalid_request", `${name} must be a non-negative integer`, name);
  return Number(v);
}

/**
 * ISO 8601 date or date-time. A bare date (as Keycloak's yyyy-MM-dd) means the start of that day
 * for dateFrom and its end for dateTo, so a one-day range includes the whole day.
 */
export function dateParam(req: Request, name: string, edge: "start" | "end"): number | undefined {
  const v = strParam(req, name);
  if (v === "") return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
    const ms = Date.parse(`${v}T00:00:00.000Z`);
    if (Number.isNaN(ms)) throw new GatewayError(400, "invalid_request", `${name} must be an ISO 8601 date`, name);
    return edge === "start" ? ms : ms + 86_400_000 - 1;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(v) || Number.isNaN(Date.parse(v))) {
    throw new GatewayError(400, "invalid_request", `${name} must be an ISO 8601 date or date-time`, name);
  }
  return Date.parse(v);
}
