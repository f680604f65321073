import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";

/** Keycloak's lifespan for action tokens an admin sends (12 hours), as verification links. */
export const INVITATION_TTL_MS = 12 * 3600 * 1000;

const AAD = "directory:organization-invite:v1";

interface InvitationClaims {
  r: string;
  o: string;
  e: string;
  /** The invited account, for invite-existing-user; absent: whoever holds the email, or a new account. */
  u?: string;
  f?: string;
  l?: string;
  exp: number;
}

export interface Invitation {
  realmId: string;
  organizationId: string;
  email: string;
  userId?: string;
  firstName?: string;
  lastName?: string;
  expiresAt: number;
}

/**
 * The invitation link: its claims sealed with AES-256-GCM under the master key (SecretBox), so it
 * cannot be forged or altered, says nothing to a reader, and expires. It binds the realm, the
 * organization and the address the mail went to; it is single-use through the used-keys store
 * (UsedVerifyKeyRepository, under its SHA-256; its associated data keeps it from ever being taken
 * for a verification or reset key).
 */
export function invitationLink(secrets: SecretBox, publicUrl: string, realm: { _id: string; name: string }, inv: Omit<Invitation, "realmId" | "expiresAt">, now: number): string {
  const claims: InvitationClaims = {
    r: realm._id, o: inv.organizationId, e: inv.email, exp: now + INVITATION_TTL_MS,
    ...(inv.userId ? { u: inv.userId } : {}), ...(inv.firstName ? { f: inv.firstName } : {}), ...(inv.lastName ? { l: inv.lastName } : {}),
  };
  const key = Buffer.from(secrets.seal(JSON.stringify(claims), AAD)).toString("base64url");
  return `${publicUrl.replace(/\/$/, "")}/realms/${encodeURIComponent(realm.name)}/login-actions/organization-invitation?key=${key}`;
}

/** The invitation of a valid, unexpired key, or null. */
export function openInvitation(secrets: SecretBox, key: string, now: number): Invitation | null {
  try {
    const c = JSON.parse(secrets.open(Buffer.from(key, "base64url").toString("utf8"), AAD)) as InvitationClaims;
    if (typeof c.exp !== "number" || c.exp <= now || typeof c.r !== "string" || typeof c.o !== "string" || typeof c.e !== "string") return null;
    return {
      realmId: c.r, organizationId: c.o, email: c.e, expiresAt: c.exp,
      ...(c.u ? { userId: c.u } : {}), ...(c.f ? { firstName: c.f } : {}), ...(c.l ? { lastName: c.l } : {}),
    };
  } catch {
    return null;
  }
}
