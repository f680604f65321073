import { toJson } from "@bufbuild/protobuf";
import type { Request } from "express";
import { currentContext } from "../../../services/kit/src/context.js";
import { Code, ConnectError } from "@connectrpc/connect";
import { AdminAccountSchema, CreateAdminRequestSchema, UpdateAdminRequestSchema, type AdminAccount } from "../../../gen/iam/directory/v1/admin_account_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";
import { intParam, strParam } from "./event-routes.js";
import type { AdminSessionCheck } from "./admin-session-check.js";

/**
 * The administrators (docs/security.md, "Administrators"): server admins list, create, change and
 * delete admin accounts and say what each may do. A change applies to the admin's tokens already
 * issued: at once through this gateway (the session cache is dropped), within
 * ADMIN_SESSION_CHECK_MS through others. Every route needs a server admin (admin-permissions.ts).
 */
export function addAdminAccountRoutes(table: RouteTable, rpc: RpcClients, sessions: AdminSessionCheck): void {
  const json = (a: AdminAccount | undefined) => (a ? toJson(AdminAccountSchema, a, { alwaysEmitImplicit: true }) : {});
  // Administrators belong to no realm, so no realm's admin events hold these changes: the log
  // does, with who made them (never a password).
  const record = (req: Request, what: string, a: { id: string; username?: string; serverAdmin?: boolean; realmAccess?: unknown }) =>
    currentContext()?.logger.info({ admin: a, actor: req.actor }, what);
  table
    .add("GET", "/admin/admins", "admin", async (req) => {
      const max = req.query.max === undefined ? 100 : intParam(req, "max");
      if (max < 1 || max > 1000) throw new GatewayError(400, "invalid_request", "max must be between 1 and 1000", "max");
      const res = await rpc.adminAccounts.listAdmins({ search: strParam(req, "search").trim(), first: intParam(req, "first"), max });
      return { status: 200, body: res.admins.map(json) };
    })
    .add("POST", "/admin/admins", "admin", async (req) => {
      const res = await rpc.adminAccounts.createAdmin(parseBody(CreateAdminRequestSchema, req.body));
      record(req, "administrator created", json(res.admin) as { id: string });
      return { status: 201, body: json(res.admin) };
    })
    .add("GET", "/admin/admins/:adminId", "admin", async (req) => {
      try {
        return { status: 200, body: json((await rpc.adminAccounts.getAdmin({ id: String(req.params.adminId) })).admin) };
      } catch (e) {
        // The directory answers a missing account as a stale token would (admin-accounts.ts `get`).
        if (ConnectError.from(e).code === Code.Unauthenticated) throw new GatewayError(404, "admin_not_found", `admin "${String(req.params.adminId)}" not found`);
        throw e;
      }
    })
    .add("PUT", "/admin/admins/:adminId", "admin", async (req) => {
      const change = parseBody(UpdateAdminRequestSchema, req.body, ["id", "callerId", "setRealmAccess"]);
      change.id = String(req.params.adminId);
      change.callerId = req.actor?.adminId ?? "";
      change.setRealmAccess = Object.prototype.hasOwnProperty.call(req.body, "realmAccess");
      const res = await rpc.adminAccounts.updateAdmin(change);
      sessions.forgetAll();
      record(req, change.password !== undefined ? "administrator changed, password too" : "administrator changed", json(res.admin) as { id: string });
      return { status: 200, body: json(res.admin) };
    })
    .add("DELETE", "/admin/admins/:adminId", "admin", async (req) => {
      await rpc.adminAccounts.deleteAdmin({ id: String(req.params.adminId), callerId: req.actor?.adminId ?? "" });
      sessions.forgetAll();
      record(req, "administrator deleted", { id: String(req.params.adminId) });
      return { status: 204 };
    });
}
