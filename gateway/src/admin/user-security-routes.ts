import type { JsonObject } from "@bufbuild/protobuf";
import type { Request } from "express";
import type { RouteTable } from "../http/route-table.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";

const REALM = "/admin/realms/:realmName";
const USER = `${REALM}/users/:userId`;
/** Users per import request; the service enforces the same bound. */
export const MAX_IMPORT_USERS = 10_000;
/** Body limit of the import route only (10,000 users with hashes); every other route keeps 1 MB. */
export const IMPORT_BODY_LIMIT = "32mb";
export const IMPORT_PATH = `${REALM}/users/import`;

/**
 * MFA administration and brute force (spec 4.13, 3), user import (spec 4.2). Methods per DESIGN 7.
 * Registered before the user routes: `/users/import` must not be taken for `/users/:userId`.
 */
export function addUserSecurityRoutes(table: RouteTable, rpc: RpcClients): void {
  table
    .add("POST", IMPORT_PATH, "admin", async (req) => {
      const users = importList(req.body);
      const res = await rpc.userSecurity.importUsers({ realm: realmOf(req), users });
      return {
        status: 200,
        body: {
          imported: res.imported, skipped: res.skipped, failed: res.failed,
          errors: res.errors.map((e) => ({ index: e.index, username: e.username, error: e.error, message: e.message })),
        },
      };
    })
    .add("GET", `${USER}/mfa/status`, "admin", async (req) => {
      const res = await rpc.userSecurity.getMfaStatus(userRef(req));
      return { status: 200, body: { enabled: res.enabled } };
    })
    .add("DELETE", `${USER}/mfa`, "admin", async (req) => {
      await rpc.userSecurity.resetMfa(userRef(req));
      return { status: 204 };
    })
    .add("GET", `${REALM}/brute-force/locked-users`, "admin", async (req) => {
      const res = await rpc.userSecurity.listLockedUsers({ realm: realmOf(req) });
      return {
        status: 200,
        body: res.users.map((u) => ({
          userId: u.userId, username: u.username, failureCount: u.failureCount,
          lastFailure: new Date(Number(u.lastFailure)).toISOString(),
          lockedUntil: u.permanent || u.lockedUntil === 0n ? null : new Date(Number(u.lockedUntil)).toISOString(),
          permanent: u.permanent, temporaryLockouts: u.temporaryLockouts,
        })),
      };
    })
    .add("POST", `${REALM}/brute-force/users/:userId/unlock`, "admin", async (req) => {
      await rpc.userSecurity.unlockUser(userRef(req));
      return { status: 204 };
    });
}

/** `{users: [...]}` or a bare array; each element is validated by the service, per user. */
function importList(body: unknown): JsonObject[] {
  let list: unknown = body;
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const keys = Object.keys(body);
    const unknown = keys.find((k) => k !== "users");
    if (unknown) throw new GatewayError(400, "unknown_field", `unknown field: ${unknown}`, unknown);
    list = (body as { users?: unknown }).users;
  }
  if (!Array.isArray(list)) throw new GatewayError(400, "invalid_request", "body must be {users: [...]} or an array of users", "users");
  if (list.length > MAX_IMPORT_USERS) {
    throw new GatewayError(413, "too_many_users", `at most ${MAX_IMPORT_USERS} users per import`, "users");
  }
  // A non-object element still travels (as an empty object marked invalid would lose its index).
  return list.map((u) => (typeof u === "object" && u !== null && !Array.isArray(u) ? u as JsonObject : { $invalid: true }));
}

function realmOf(req: Request): string {
  return String(req.params.realmName);
}

function userRef(req: Request): { realm: string; userId: string } {
  return { realm: realmOf(req), userId: String(req.params.userId) };
}
