import type { NextFunction, Request, Response } from "express";
import { safeEqual, sha256Hex } from "../../../services/kit/src/crypto/random.js";
import type { Actor } from "../../../services/kit/src/context.js";
import type { AdminTokens } from "./admin-tokens.js";
import type { AdminSessionCheck } from "./admin-session-check.js";
import { FULL_ACCESS, type AdminAccess } from "./admin-permissions.js";

declare module "express-serve-static-core" {
  interface Request {
    actor?: Actor;
    /** What the caller may do (admin-permissions.ts); set with `actor`. */
    adminAccess?: AdminAccess;
  }
}

/**
 * The Admin API guard (spec 5): `X-Admin-API-Key`, or `Authorization: Bearer <admin JWT>`.
 * The key is held only as its SHA-256, so a memory dump or the data dir does not reveal it. A JWT
 * counts only while its sign-in's session is going (sign-out and password resets end it), and
 * allows what its admin may do now, not when it was issued.
 */
export function adminGuard(apiKeySha256: string, tokens: AdminTokens, sessions: AdminSessionCheck) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const ip = req.ip ?? "";
    const key = req.get("x-admin-api-key");
    if (key !== undefined) {
      if (safeEqual(sha256Hex(key), apiKeySha256)) {
        req.actor = { type: "api-key", ipAddress: ip };
        req.adminAccess = FULL_ACCESS;
        return next();
      }
      return deny(res, "invalid API key");
    }
    const auth = req.get("authorization");
    const bearer = auth?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (bearer) {
      const claims = await tokens.verify(bearer);
      const admin = claims ? await sessions.admin(claims.sid) : null;
      if (claims && admin) {
        req.actor = { type: "admin", adminId: claims.sub, username: claims.username, ipAddress: ip };
        req.adminAccess = { serverAdmin: admin.serverAdmin, realms: new Map(admin.realmAccess.map((g) => [g.realm, g.roles])) };
        return next();
      }
      return deny(res, "invalid or expired admin token");
    }
    deny(res, "missing credentials: send X-Admin-API-Key or Authorization: Bearer <admin token>");
  };
}

function deny(res: Response, message: string): void {
  res.setHeader("WWW-Authenticate", 'Bearer realm="tessera-admin"');
  res.status(401).json({ error: "unauthorized", message });
}
