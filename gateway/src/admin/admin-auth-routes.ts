import { toJson } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { AdminAccountSchema, type AdminAccount } from "../../../gen/iam/directory/v1/admin_account_pb.js";
import type { Reply, RouteTable } from "../http/route-table.js";
import { GatewayError } from "../http/rpc-errors.js";
import { requireObject } from "../http/json-input.js";
import type { RpcClients } from "../rpc-clients.js";
import { ADMIN_TOKEN_TTL, type AdminTokens } from "./admin-tokens.js";
import type { AdminSessionCheck } from "./admin-session-check.js";

/**
 * Admin authentication (spec 4.14): login for a JWT (and a refresh token to renew it without the
 * password), renewal, sign-out and the current admin. Every sign-in is a session the directory
 * keeps (admin-sessions.ts): each refresh token works once, and sign-out ends the session, so
 * neither its refresh token nor its JWTs are accepted after it. The directory counts login
 * attempts per account and per address and refuses with 429 when over its limits.
 */
export function addAdminAuthRoutes(table: RouteTable, rpc: RpcClients, tokens: AdminTokens, sessions: AdminSessionCheck): void {
  const issue = async (admin: AdminAccount, sid: string, authTime: number, rid: string): Promise<Reply> => {
    const claims = { sub: admin.id, username: admin.username, sid };
    const accessToken = await tokens.sign(claims);
    const refresh = await tokens.signRefresh(claims, authTime, rid);
    return {
      status: 200,
      body: {
        accessToken, tokenType: "Bearer", expiresIn: ADMIN_TOKEN_TTL, refreshToken: refresh.token, refreshExpiresIn: refresh.expiresIn,
        user: toJson(AdminAccountSchema, admin, { alwaysEmitImplicit: true }),
      },
      headers: { "Cache-Control": "no-store" },
    };
  };
  const refreshTokenOf = (body: unknown): string => {
    const obj = requireObject(body);
    for (const key of Object.keys(obj)) if (key !== "refreshToken") throw new GatewayError(400, "unknown_field", `unknown field: ${key}`, key);
    if (typeof obj.refreshToken !== "string" || obj.refreshToken === "") throw new GatewayError(400, "invalid_request", "refreshToken is required", "refreshToken");
    return obj.refreshToken;
  };
  const refused = () => new GatewayError(401, "invalid_refresh_token", "the refresh token is not valid or has expired; log in again");
  table
    .add("POST", "/admin/auth/login", "public", async (req): Promise<Reply> => {
      const body = requireObject(req.body);
      for (const f of ["username", "password"] as const) {
        if (typeof body[f] !== "string" || body[f] === "") throw new GatewayError(400, "invalid_request", `${f} is required`, f);
      }
      const res = await rpc.adminAccounts.authenticateAdmin({
        username: body.username as string, password: body.password as string, ipAddress: req.ip ?? "",
      });
      if (res.retryAfterSeconds > 0) {
        // The lockout's answer, the same whether or not the account exists (RFC 6585 section 4).
        return {
          status: 429,
          headers: { "Retry-After": String(res.retryAfterSeconds), "Cache-Control": "no-store" },
          body: { error: "too_many_requests", message: `too many failed logins; try again in ${res.retryAfterSeconds} seconds` },
        };
      }
      const admin = res.admin;
      if (!admin) throw new GatewayError(401, "invalid_credentials", "invalid username or password");
      const authTime = Math.floor(Date.now() / 1000);
      const session = await rpc.adminAccounts.startAdminSession({ adminId: admin.id, expiresAt: timestampFromMs(tokens.sessionExpiry(authTime)) });
      return issue(admin, session.sessionId, authTime, session.refreshId);
    })
    // Renewal without the password (the console forgets it after sign-in): a refresh token of a
    // going session, presented for the first time, answers new tokens, the refresh token rotated.
    .add("POST", "/admin/auth/refresh", "public", async (req): Promise<Reply> => {
      const claims = await tokens.verifyRefresh(refreshTokenOf(req.body));
      if (!claims) throw refused();
      try {
        const renewed = await rpc.adminAccounts.renewAdminSession({
          sessionId: claims.sid, refreshId: claims.rid, expiresAt: timestampFromMs(tokens.sessionExpiry(claims.authTime)),
        });
        return issue(renewed.admin!, claims.sid, claims.authTime, renewed.refreshId);
      } catch (e) {
        if (ConnectError.from(e).code === Code.Unauthenticated) {
          sessions.forget(claims.sid); // a reused token ended the session: its JWTs stop here at once
          throw refused();
        }
        throw e;
      }
    })
    // Sign-out (as RFC 7009 revocation: 204 whatever the token, so the answer tells nothing of it):
    // a valid refresh token's session ends, and with it every token of that sign-in.
    .add("POST", "/admin/auth/logout", "public", async (req): Promise<Reply> => {
      const claims = await tokens.verifyRefresh(refreshTokenOf(req.body));
      if (claims) {
        await rpc.adminAccounts.endAdminSession({ sessionId: claims.sid });
        sessions.forget(claims.sid);
      }
      return { status: 204, headers: { "Cache-Control": "no-store" } };
    })
    .add("GET", "/admin/auth/me", "bearer", async (req) => {
      const bearer = req.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
      const claims = bearer ? await tokens.verify(bearer) : null;
      if (!claims || !(await sessions.active(claims.sid))) {
        throw new GatewayError(401, "unauthorized", "an admin token is required: Authorization: Bearer <accessToken>");
      }
      const res = await rpc.adminAccounts.getAdmin({ id: claims.sub });
      return { status: 200, body: toJson(AdminAccountSchema, res.admin!, { alwaysEmitImplicit: true }) };
    });
}
