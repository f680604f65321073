import { hkdfSync } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";

export interface AdminClaims {
  sub: string;
  username: string;
}

/** Lifetime of an admin JWT (seconds). */
export const ADMIN_TOKEN_TTL = 3600;

/**
 * Admin JWTs (spec 4.14): HS256 under a key derived from the master key, so every gateway replica
 * verifies what any replica issued without another shared secret.
 */
export class AdminTokens {
  private readonly key: Uint8Array;

  constructor(masterKey: string, private readonly issuer: string) {
    this.key = new Uint8Array(hkdfSync("sha256", Buffer.from(masterKey, "base64url"), "tessera", "admin-jwt-v1", 32));
  }

  sign(claims: AdminClaims): Promise<string> {
    return new SignJWT({ preferred_username: claims.username, typ: "admin" })
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
      if (payload.typ !== "admin" || typeof payload.sub !== "string") return null;
      return { sub: payload.sub, username: String(payload.preferred_username ?? "") };
    } catch {
      return null;
    }
  }
}
