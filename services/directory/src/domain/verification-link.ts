import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";

/** Keycloak's lifespan for action tokens an admin sends (12 hours). */
export const VERIFY_EMAIL_TTL_MS = 12 * 3600 * 1000;

const AAD = "directory:verify-email:v1";

interface VerifyClaims {
  r: string;
  u: string;
  e: string;
  exp: number;
}

/**
 * The email-verification link (spec 4.2). The key is the claims sealed with AES-256-GCM under the
 * master key (SecretBox): authenticated, so it cannot be forged or altered, opaque, and expiring.
 * It binds realm, user and the address the mail went to. The page that consumes it
 * (`/realms/:realm/login-actions/verify-email`) belongs to the login flows and is not built yet;
 * `openVerifyKey` is what it will call.
 */
export function verifyEmailLink(secrets: SecretBox, publicUrl: string, realm: { _id: string; name: string },
  user: { _id: string; email: string }, now: number): string {
  const claims: VerifyClaims = { r: realm._id, u: user._id, e: user.email, exp: now + VERIFY_EMAIL_TTL_MS };
  const key = Buffer.from(secrets.seal(JSON.stringify(claims), AAD)).toString("base64url");
  return `${publicUrl.replace(/\/$/, "")}/realms/${encodeURIComponent(realm.name)}/login-actions/verify-email?key=${key}`;
}

/** The claims of a valid, unexpired key, or null. */
export function openVerifyKey(secrets: SecretBox, key: string, now: number): { realmId: string; userId: string; email: string } | null {
  try {
    const c = JSON.parse(secrets.open(Buffer.from(key, "base64url").toString("utf8"), AAD)) as VerifyClaims;
    if (typeof c.exp !== "number" || c.exp <= now) return null;
    return { realmId: c.r, userId: c.u, email: c.e };
  } catch {
    return null;
  }
}
