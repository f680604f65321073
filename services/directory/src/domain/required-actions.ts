import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";
import type { CredentialRecord } from "../store/credential-repository.js";

export type RequiredActionName = "CONFIGURE_TOTP" | "UPDATE_PASSWORD" | "VERIFY_EMAIL";

const DAY_MS = 86_400_000;

/**
 * What a user must do before a session is issued, in Keycloak's default priority order
 * (CONFIGURE_TOTP 10, UPDATE_PASSWORD 30, VERIFY_EMAIL 50):
 *  - CONFIGURE_TOTP: the realm's `mfaRequired` and the user has no confirmed TOTP (spec 2.1);
 *  - UPDATE_PASSWORD: `requirePasswordReset` (spec 2.2), or a password older than the realm's
 *    `passwordMaxAgeDays` when that is above 0 (spec 2.1);
 *  - VERIFY_EMAIL: the realm's `requireEmailVerification` and the email is not verified.
 */
export function requiredActions(
  realm: RealmRecord, user: UserRecord, password: CredentialRecord | null, otpConfigured: boolean, now: number,
): RequiredActionName[] {
  const out: RequiredActionName[] = [];
  if (realm.mfaRequired && !otpConfigured) out.push("CONFIGURE_TOTP");
  const expired = realm.passwordMaxAgeDays > 0 && password !== null && now - password.createdAt >= realm.passwordMaxAgeDays * DAY_MS;
  if (user.requirePasswordReset || expired) out.push("UPDATE_PASSWORD");
  if (realm.requireEmailVerification && !user.emailVerified) out.push("VERIFY_EMAIL");
  return out;
}
