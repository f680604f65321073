import { toJson } from "@bufbuild/protobuf";
import type { Request } from "express";
import { SessionSchema, type Session } from "../../../gen/iam/token/v1/sessions_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";
import { intParam, strParam } from "./event-routes.js";

const REALM = "/admin/realms/:realmName";

/**
 * Sessions Admin API (spec 4.7; methods per DESIGN 7). Unknown users are 404 (asked of the
 * directory). Listings are paged with `first` and `max` (default 100, at most 1000).
 */
export function addSessionRoutes(table: RouteTable, rpc: RpcClients): void {
  table
    .add("GET", `${REALM}/sessions`, "admin", async (req) => {
      const res = await rpc.sessions.listRealmSessions({ realm: realmOf(req), ...pageParams(req) });
      return { status: 200, body: res.sessions.map(sessionJson) };
    })
    .add("DELETE", `${REALM}/sessions/:sessionId`, "admin", async (req) => {
      const type = strParam(req, "type") || "oauth";
      if (type !== "oauth" && type !== "sso") throw new GatewayError(400, "invalid_type", "type must be oauth or sso", "type");
      const res = await rpc.sessions.revokeSession({ realm: realmOf(req), sessionId: String(req.params.sessionId), type });
      return { status: 200, body: { revoked: res.revoked, sessionId: res.sessionId, type: res.type } };
    })
    .add("GET", `${REALM}/users/:userId/sessions`, "admin", async (req) => {
      await rpc.users.getUser(userRef(req));
      const res = await rpc.sessions.listUserSessions({ ...userRef(req), ...pageParams(req) });
      return { status: 200, body: res.sessions.map(sessionJson) };
    })
    .add("DELETE", `${REALM}/users/:userId/sessions`, "admin", async (req) => {
      await rpc.users.getUser(userRef(req));
      const res = await rpc.sessions.revokeUserSessions(userRef(req));
      return { status: 200, body: { count: res.count } };
    });
}

/** Offline sessions of a user (spec 4.2), for the user routes. */
export async function listOfflineSessions(rpc: RpcClients, req: Request): Promise<unknown[]> {
  const res = await rpc.sessions.listOfflineSessions({ ...userRef(req), ...pageParams(req) });
  return res.sessions.map(sessionJson);
}

export function sessionJson(s: Session): Record<string, unknown> {
  const j = toJson(SessionSchema, s) as Record<string, unknown>;
  return { clients: [], scope: "", ...j };
}

/** `first` and `max` as Keycloak's listings take them; the token service applies the default and the cap. */
function pageParams(req: Request): { first: number; max: number } {
  return { first: intParam(req, "first"), max: intParam(req, "max") };
}

function realmOf(req: Request): string {
  return String(req.params.realmName);
}

function userRef(req: Request): { realm: string; userId: string } {
  return { realm: realmOf(req), userId: String(req.params.userId) };
}
