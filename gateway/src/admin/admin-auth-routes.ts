import { toJson } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { AdminAccountSchema, type AdminAccount } from "../../../gen/iam/directory/v1/admin_account_pb.js";
import type { Reply, RouteTable } from "../http/route-table.js";
import { GatewayError } from "../http/rpc-errors.js";
import { requireObject } from "../http/json-input.js";
import type { RpcClients } from "../rpc-clients.js";
import { ADMIN_TOKEN_TTL, type AdminTokens } from "./admin-tokens.js";

/**
 * Admin authentication (spec 4.14): login for a JWT (and a refresh token to renew it without the
 * password), renewal, and the current admin. The directory counts
 * login attempts per account and per address and refuses with 429 when over its limits.
 */
export function addAdminAuthRoutes(table: RouteTable, rpc: RpcClients, tokens: AdminTokens): void {
  const issue = async (admin: AdminAccount, authTime: number): Promise<Reply> => {
    const claims = { sub: admin.id, username: admin.username };
    const accessToken = await tokens.sign(claims);
    const refresh = await tokens.signRefresh(claims, authTime);
    return {
      status: 200,
      body: {
        accessToken, tokenType: "Bearer", expiresIn: ADMIN_TOKEN_TTL, refreshToken: refresh.token, refreshExpiresIn: refresh.expiresIn,
        user: toJson(AdminAccountSchema, admin),
      },
      headers: { "Cache-Control": "no-store" },
    };
  };
  /** The account, or undefined once it is gone (its refresh tokens die with it). */
  const adminOf = async (id: string): Promise<AdminAccount | undefined> => {
    try {
      return (await rpc.adminAccounts.getAdmin({ id })).admin;
    } catch (e) {
      if (ConnectError.from(e).code === Code.NotFound) return undefined;
      throw e;
    }
  };
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
      return issue(admin, Math.floor(Date.now() / 1000));
    })
    // Renewal without the password (the console forgets it after sign-in): a valid refresh token
    // of an admin account that still exists answers new tokens, the refresh token rotated.
    .add("POST", "/admin/auth/refresh", "public", async (req): Promise<Reply> => {
      const body = requireObject(req.body);
      for (const key of Object.keys(body)) if (key !== "refreshToken") throw new GatewayError(400, "unknown_field", `unknown field: ${key}`, key);
      if (typeof body.refreshToken !== "string" || body.refreshToken === "") throw new GatewayError(400, "invalid_request", "refreshToken is required", "refreshToken");
      const claims = await tokens.verifyRefresh(body.refreshToken);
      const admin = claims ? await adminOf(claims.sub) : undefined;
      if (!claims || !admin) throw new GatewayError(401, "invalid_refresh_token", "the refresh token is not valid or has expired; log in again");
      return issue(admin, claims.authTime);
    })
    .add("GET", "/admin/auth/me", "bearer", async (req) => {
      const bearer = req.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
      const claims = bearer ? await tokens.verify(bearer) : null;
      if (!claims) {
        throw new GatewayError(401, "unauthorized", "an admin token is required: Authorization: Bearer <accessToken>");
      }
      const res = await rpc.adminAccounts.getAdmin({ id: claims.sub });
      return { status: 200, body: toJson(AdminAccountSchema, res.admin!) };
    });
}
