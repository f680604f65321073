import { hkdfSync } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";

export interface AdminClaims {
  sub: string;
  username: string;
  /** The sign-in's server-side session (the directory's admin sessions): sign-out ends it. */
  sid: string;
}

/** Lifetime of an admin JWT (seconds). */
export const ADMIN_TOKEN_TTL = 3600;

/**
 * An admin refresh token lives this long unused (seconds): Keycloak's SSO Session Idle default.
 * Each renewal answers a new one, so an active console keeps going.
 */
export const ADMIN_REFRESH_IDLE = 1800;

/** However often renewed, a sign-in lasts at most this long (Keycloak's SSO Session Max, 10 hours). */
export const ADMIN_SESSION_MAX = 36_000;

export interface AdminRefreshClaims extends AdminClaims {
  /** The sign-in's time (epoch seconds), carried from token to token: the session's start. */
  authTime: number;
  /** The refresh id the session holds for this token; a renewal replaces it, so the token works once. */
  rid: string;
}

/**
 * Admin JWTs (spec 4.14): HS256 under a key derived from the master key, so every gateway replica
 * verifies what any replica issued without another shared secret.
 */
export class AdminTokens {
  private readonly key: Uint8Array;
  /** A key of its own, so neither kind of token ever verifies as the other. */
  private readonly refreshKey: Uint8Array;

  constructor(masterKey: string, private readonly issuer: string, private readonly now: () => number = () => Date.now()) {
    const master = Buffer.from(masterKey, "base64url");
    this.key = new Uint8Array(hkdfSync("sha256", master, "tessera", "admin-jwt-v1", 32));
    this.refreshKey = new Uint8Array(hkdfSync("sha256", master, "tessera", "admin-refresh-v1", 32));
  }

  /**
   * A refresh token for the admin console's renewal (POST /admin/auth/refresh), so the console
   * need not keep the password: valid ADMIN_REFRESH_IDLE seconds, never past ADMIN_SESSION_MAX
   * after `authTime`. Answers the token and its lifetime in seconds.
   */
  async signRefresh(claims: AdminClaims, authTime: number, rid: string): Promise<{ token: string; expiresIn: number }> {
    const nowS = Math.floor(this.now() / 1000);
    const exp = this.refreshExpiry(authTime) / 1000;
    const token = await new SignJWT({ preferred_username: claims.username, typ: "admin-refresh", auth_time: authTime, sid: claims.sid, rid })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(claims.sub)
      .setIssuer(this.issuer)
      .setAudience("tessera-admin-refresh")
      .setIssuedAt(nowS)
      .setExpirationTime(exp)
      .sign(this.refreshKey);
    return { token, expiresIn: exp - nowS };
  }

  /** When a refresh token issued now for a sign-in at `authTime` (epoch seconds) expires, in epoch ms. */
  refreshExpiry(authTime: number): number {
    const nowS = Math.floor(this.now() / 1000);
    return Math.min(nowS + ADMIN_REFRESH_IDLE, authTime + ADMIN_SESSION_MAX) * 1000;
  }

  /**
   * Until when the server keeps a sign-in's session after tokens are issued now: as long as the
   * longer-lived of its refresh token and its access token (a client that never renews, as the
   * CLI, keeps its hour), in epoch ms.
   */
  sessionExpiry(authTime: number): number {
    return Math.max(this.refreshExpiry(authTime), this.now() + ADMIN_TOKEN_TTL * 1000);
  }

  /** The refresh token's claims, or null for any invalid, foreign, expired or over-age token. */
  async verifyRefresh(token: string): Promise<AdminRefreshClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.refreshKey, {
        issuer: this.issuer, audience: "tessera-admin-refresh", algorithms: ["HS256"], currentDate: new Date(this.now()),
      });
      const authTime = payload.auth_time;
      if (payload.typ !== "admin-refresh" || typeof payload.sub !== "string" || typeof authTime !== "number") return null;
      if (typeof payload.sid !== "string" || typeof payload.rid !== "string") return null;
      if (Math.floor(this.now() / 1000) >= authTime + ADMIN_SESSION_MAX) return null;
      return { sub: payload.sub, username: String(payload.preferred_username ?? ""), sid: payload.sid, authTime, rid: payload.rid };
    } catch {
      return null;
    }
  }

  sign(claims: AdminClaims): Promise<string> {
    return new SignJWT({ preferred_username: claims.username, typ: "admin", sid: claims.sid })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(claims.sub)
      .setIssuer(this.issuer)
      .setAudience("tessera-admin")
      .setIssuedAt()
      .setExpirationTime(`${ADMIN_TOKEN_TTL}s`)
      .sign(this.key);
  }

  /** Returns the claims, or null for any invalid, foreign or expired token. */
  async verify(token: string): Promise<AdminClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: this.issuer, audience: "tessera-admin", algorithms: ["HS256"],
      });
      // A token without a session predates revocable sign-ins: its holder signs in again.
      if (payload.typ !== "admin" || typeof payload.sub !== "string" || typeof payload.sid !== "string") return null;
      return { sub: payload.sub, username: String(payload.preferred_username ?? ""), sid: payload.sid };
    } catch {
      return null;
    }
  }
}
