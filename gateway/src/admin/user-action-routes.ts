import type { Request } from "express";
import type { RouteTable } from "../http/route-table.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";
import { strParam } from "./event-routes.js";
import { setSsoCookie } from "../oidc/browser-cookies.js";

const USER = "/admin/realms/:realmName/users/:userId";

/**
 * Keycloak's user actions beyond the CRUD of user-routes.ts: execute-actions-email (PUT, 204, as
 * Keycloak answers; the body is the JSON array of required actions, the query `lifespan`,
 * `client_id`, `redirect_uri`); impersonation (POST, 200 `{redirect, sameRealm}` with the realm's
 * SSO cookie set, as Keycloak's answer).
 */
export function addUserActionRoutes(table: RouteTable, rpc: RpcClients, publicUrl: string): void {
  table.add("POST", `${USER}/impersonation`, "admin", async (req, res) => {
    const realm = String(req.params.realmName);
    const started = await rpc.authorizationFlow.impersonate({ realm, userId: String(req.params.userId), ipAddress: req.ip ?? "" });
    // The realm's identity cookie, as a login sets it: the browser that asked is now the user there.
    setSsoCookie(res, realm, publicUrl, started.ssoCookie);
    res.setHeader("Cache-Control", "no-store");
    // Keycloak's answer; an administrator of Tessera is no user of the realm, so never the same realm.
    return { status: 200, body: { redirect: `${publicUrl.replace(/\/$/, "")}/realms/${encodeURIComponent(realm)}/account/`, sameRealm: false } };
  });
  table.add("PUT", `${USER}/execute-actions-email`, "admin", async (req) => {
    const lifespan = lifespanParam(req);
    await rpc.users.executeActionsEmail({
      realm: String(req.params.realmName), userId: String(req.params.userId), actions: actionsOf(req.body),
      clientId: strParam(req, "client_id"), redirectUri: strParam(req, "redirect_uri"), ...(lifespan !== undefined ? { lifespan } : {}),
    });
    return { status: 204 };
  });
}

/** The body: a JSON array of action names; none (Keycloak takes a missing list as empty). */
function actionsOf(body: unknown): string[] {
  if (body === undefined || body === null) return [];
  if (typeof body === "object" && !Array.isArray(body) && Object.keys(body).length === 0) return [];
  if (!Array.isArray(body) || !body.every((a): a is string => typeof a === "string")) {
    throw new GatewayError(400, "invalid_field", "the body must be a JSON array of required action names", "actions");
  }
  return body;
}

/** Seconds; the directory checks the range (absent: the realm's actionTokenGeneratedByAdminLifespan). */
function lifespanParam(req: Request): number | undefined {
  const v = strParam(req, "lifespan");
  if (v === "") return undefined;
  if (!/^-?\d{1,10}$/.test(v)) throw new GatewayError(400, "invalid_request", "lifespan must be an integer number of seconds", "lifespan");
  const n = Number(v);
  if (n < 1 || n > 315_360_000) throw new GatewayError(400, "invalid_request", "lifespan must be an integer between 1 and 315360000", "lifespan");
  return n;
}
