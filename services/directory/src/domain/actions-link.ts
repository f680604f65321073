import { randomBytes } from "node:crypto";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import { USER_REQUIRED_ACTIONS, type UserRequiredAction } from "../../../kit/src/validation/required-actions.js";

/** Binds a sealed key to execute-actions (SecretBox AAD): no verification, reset or invitation key opens as one. */
const AAD = "directory:execute-actions:v1";

/** The required actions an execute-actions link may carry: every one Tessera's login pages run. */
export const LINK_ACTIONS = USER_REQUIRED_ACTIONS;
export type LinkAction = UserRequiredAction;

/** What an execute-actions key carries (sealed: authenticated and opaque). */
interface ActionsClaims {
  r: string;
  u: string;
  /** The address the mail went to: VERIFY_EMAIL proves this one, not a later one. */
  e: string;
  a: LinkAction[];
  exp: number;
  /** Random: each mail's key is its own, so using one leaves another usable. */
  n: string;
  c?: string;
  ru?: string;
}

export interface ActionsGrant {
  realmId: string;
  userId: string;
  email: string;
  actions: LinkAction[];
  expiresAt: number;
  clientId?: string;
  redirectUri?: string;
}

/**
 * Keycloak's ExecuteActionsActionToken: the claims sealed with AES-256-GCM under the master key,
 * so the link cannot be forged or altered, tells a reader nothing, and expires. It opens
 * `/realms/:realm/login-actions/action-token?key=...` (Keycloak's path); single use comes from the
 * used-keys store (UsedVerifyKeyRepository, under the key's SHA-256).
 */
export function actionsLink(secrets: SecretBox, publicUrl: string, realm: { _id: string; name: string },
  grant: Omit<ActionsGrant, "realmId">): string {
  const claims: ActionsClaims = {
    r: realm._id, u: grant.userId, e: grant.email, a: grant.actions, exp: grant.expiresAt, n: randomBytes(9).toString("base64url"),
    ...(grant.clientId ? { c: grant.clientId } : {}), ...(grant.redirectUri ? { ru: grant.redirectUri } : {}),
  };
  const key = Buffer.from(secrets.seal(JSON.stringify(claims), AAD)).toString("base64url");
  return `${publicUrl.replace(/\/$/, "")}/realms/${encodeURIComponent(realm.name)}/login-actions/action-token?key=${key}`;
}

/** The grant of a key this server sealed, still unexpired at `now`, or null. */
export function openActionsKey(secrets: SecretBox, key: string, now: number): ActionsGrant | null {
  try {
    const c = JSON.parse(secrets.open(Buffer.from(key, "base64url").toString("utf8"), AAD)) as ActionsClaims;
    if (typeof c.r !== "string" || typeof c.u !== "string" || typeof c.e !== "string" || typeof c.exp !== "number" || c.exp <= now) return null;
    if (!Array.isArray(c.a) || !c.a.every((a) => (LINK_ACTIONS as readonly string[]).includes(a))) return null;
    return {
      realmId: c.r, userId: c.u, email: c.e, actions: c.a, expiresAt: c.exp,
      ...(c.c ? { clientId: c.c } : {}), ...(c.ru ? { redirectUri: c.ru } : {}),
    };
  } catch {
    return null;
  }
}
