import { randomBytes } from "node:crypto";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";

/**
 * How long a mailed reset link works unless the realm says otherwise: Keycloak's default for the
 * action tokens a user requests (actionTokenGeneratedByUserLifespan, 5 minutes). A link stays
 * single-use and dies with any password change whatever its age.
 */
export const RESET_LINK_TTL_MS = 5 * 60 * 1000;

/** Binds a sealed reset key to this one use (SecretBox AAD): no other sealed value opens as one. */
export const RESET_KEY_AAD = "directory:reset-credentials:v1";

/** What a reset key carries (sealed: authenticated and opaque). */
export interface ResetClaims {
  /** Realm id. */
  r: string;
  /** User id. */
  u: string;
  /** The `createdAt` of the password the user had when the link was sent (0: none): a change since voids the link. */
  c: number;
  /** Expiry, epoch ms. */
  exp: number;
  /** Random: every mail's key is its own, so using one does not use another. */
  n: string;
}

/** The reset link (Keycloak's reset-credentials action token), sealed with AES-256-GCM under the master key. */
export function resetLink(secrets: SecretBox, publicUrl: string, realm: { _id: string; name: string }, userId: string, passwordCreatedAt: number, now: number, ttlMs = RESET_LINK_TTL_MS): string {
  const claims: ResetClaims = { r: realm._id, u: userId, c: passwordCreatedAt, exp: now + ttlMs, n: randomBytes(9).toString("base64url") };
  const key = Buffer.from(secrets.seal(JSON.stringify(claims), RESET_KEY_AAD)).toString("base64url");
  return `${publicUrl.replace(/\/$/, "")}/realms/${encodeURIComponent(realm.name)}/login-actions/reset-password?key=${key}`;
}

/** The claims of a key sealed by this server, still unexpired, or null. */
export function openResetKey(secrets: SecretBox, key: string, now: number): ResetClaims | null {
  try {
    const c = JSON.parse(secrets.open(Buffer.from(key, "base64url").toString("utf8"), RESET_KEY_AAD)) as ResetClaims;
    if (typeof c.r !== "string" || typeof c.u !== "string" || typeof c.c !== "number" || typeof c.exp !== "number" || c.exp <= now) return null;
    return c;
  } catch {
    return null;
  }
}
