import { toJson } from "@bufbuild/protobuf";
import type { Request } from "express";
import {
  ResetPasswordRequestSchema, UserInputSchema, UserSchema, UserUpdateSchema, type User,
} from "../../../gen/iam/directory/v1/user_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody, requireObject } from "../http/json-input.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";
import { strParam } from "./event-routes.js";
import { listOfflineSessions } from "./session-routes.js";

const USERS = "/admin/realms/:realmName/users";
const USER = `${USERS}/:userId`;

/** Users Admin API (spec 2.2, 4.2) and the realm's test email (spec 4.1). Methods per DESIGN 7. */
export function addUserRoutes(table: RouteTable, rpc: RpcClients): void {
  table
    .add("POST", USERS, "admin", async (req) => {
      const user = parseBody(UserInputSchema, req.body);
      const res = await rpc.users.createUser({ realm: realmOf(req), user });
      return { status: 201, body: userJson(res.user) };
    })
    .add("GET", USERS, "admin", async (req) => {
      const skip = optIntParam(req, "skip");
      const limit = optIntParam(req, "limit");
      const enabled = optBoolParam(req, "enabled");
      const res = await rpc.users.listUsers({
        realm: realmOf(req),
        ...(skip !== undefined ? { skip } : {}),
        ...(limit !== undefined ? { limit } : {}),
        search: strParam(req, "search"),
        username: strParam(req, "username"),
        email: strParam(req, "email"),
        ...(enabled !== undefined ? { enabled } : {}),
      });
      return { status: 200, body: { total: res.total, users: res.users.map(userJson) } };
    })
    .add("GET", USER, "admin", async (req) => {
      const res = await rpc.users.getUser(userRef(req));
      return { status: 200, body: userJson(res.user) };
    })
    .add("PUT", USER, "admin", async (req) => {
      const update = parseBody(UserUpdateSchema, req.body, ["requiredActionsPresent"]);
      // [] clears the list, an absent one keeps it: a repeated field cannot tell them apart.
      update.requiredActionsPresent = Object.prototype.hasOwnProperty.call(req.body, "requiredActions");
      const res = await rpc.users.updateUser({ ...userRef(req), update });
      return { status: 200, body: userJson(res.user) };
    })
    .add("DELETE", USER, "admin", async (req) => {
      await rpc.users.deleteUser(userRef(req));
      return { status: 204 };
    })
    .add("PUT", `${USER}/reset-password`, "admin", async (req) => {
      const body = parseBody(ResetPasswordRequestSchema, req.body, ["realm", "userId"]);
      await rpc.users.resetPassword({
        ...userRef(req),
        ...(body.password !== undefined ? { password: body.password } : {}),
        ...(body.temporary !== undefined ? { temporary: body.temporary } : {}),
      });
      return { status: 204 };
    })
    .add("PUT", `${USER}/send-verification-email`, "admin", async (req) => {
      const res = await rpc.users.sendVerificationEmail(userRef(req));
      return { status: 200, body: { message: res.message } };
    })
    // Offline sessions belong to the token service (spec 4.2); unknown users are still 404.
    .add("GET", `${USER}/offline-sessions`, "admin", async (req) => {
      await rpc.users.getUser(userRef(req));
      return { status: 200, body: await listOfflineSessions(rpc, req) };
    })
    .add("DELETE", `${USER}/offline-sessions/:tokenId`, "admin", async (req) => {
      await rpc.users.getUser(userRef(req));
      await rpc.sessions.revokeOfflineSession({ ...userRef(req), tokenId: String(req.params.tokenId) });
      return { status: 204 };
    })
    .add("POST", "/admin/realms/:realmName/email/test", "admin", async (req) => {
      const body = requireObject(req.body);
      for (const key of Object.keys(body)) {
        if (key !== "to") throw new GatewayError(400, "unknown_field", `unknown or read-only field: ${key}`, key);
      }
      if (body.to !== undefined && typeof body.to !== "string") throw new GatewayError(400, "invalid_field", "to must be a string", "to");
      const res = await rpc.users.sendTestEmail({ realm: realmOf(req), ...(body.to !== undefined ? { to: body.to } : {}) });
      return { status: 200, body: { message: res.message } };
    });
}

export function userJson(user: User | undefined): Record<string, unknown> {
  if (!user) return {};
  const json = toJson(UserSchema, user, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  // Only an LDAP user has a federation link (Keycloak shows none for a local user).
  if (json.federationLink === "") delete json.federationLink;
  return json;
}

function realmOf(req: Request): string {
  return String(req.params.realmName);
}

function userRef(req: Request): { realm: string; userId: string } {
  return { realm: realmOf(req), userId: String(req.params.userId) };
}

/** A non-negative integer query parameter, or undefined when absent (the service applies defaults). */
export function optIntParam(req: Request, name: string): number | undefined {
  const v = strParam(req, name);
  if (v === "") return undefined;
  if (!/^\d{1,9}$/.test(v)) throw new GatewayError(400, "invalid_request", `${name} must be a non-negative integer`, name);
  return Number(v);
}

export function optBoolParam(req: Request, name: string): boolean | undefined {
  const v = strParam(req, name);
  if (v === "") return undefined;
  if (v !== "true" && v !== "false") throw new GatewayError(400, "invalid_request", `${name} must be true or false`, name);
  return v === "true";
}
