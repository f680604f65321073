import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";
import type { CredentialRecord } from "../store/credential-repository.js";
import { orderedActions, type UserRequiredAction } from "../../../kit/src/validation/required-actions.js";

export type RequiredActionName = UserRequiredAction;

const DAY_MS = 86_400_000;

/**
 * What a user must do before a session is issued, in Keycloak's default priority order
 * (CONFIGURE_TOTP 10, TERMS_AND_CONDITIONS 20, UPDATE_PASSWORD 30, UPDATE_PROFILE 40,
 * VERIFY_EMAIL 50; kit/validation/required-actions.ts). Each comes from the user's own list
 * (Keycloak's requiredActions, set by an administrator) or from the realm:
 *  - CONFIGURE_TOTP: listed, or the realm's `mfaRequired` (spec 2.1), while the user has no
 *    confirmed TOTP (Keycloak's UpdateTotp lets a user with one add another; Tessera keeps one);
 *  - TERMS_AND_CONDITIONS, UPDATE_PROFILE: listed;
 *  - UPDATE_PASSWORD: `requirePasswordReset` (spec 2.2; the listed UPDATE_PASSWORD), or a password
 *    older than the realm's `passwordMaxAgeDays` when that is above 0 (spec 2.1);
 *  - VERIFY_EMAIL: listed, or the realm's `requireEmailVerification`, while the email is not
 *    verified (Keycloak's VerifyEmail skips a verified address too).
 */
export function requiredActions(
  realm: RealmRecord, user: UserRecord, password: CredentialRecord | null, otpConfigured: boolean, now: number,
): RequiredActionName[] {
  const listed = new Set(user.requiredActions ?? []);
  const out: RequiredActionName[] = [];
  if ((realm.mfaRequired || listed.has("CONFIGURE_TOTP")) && !otpConfigured) out.push("CONFIGURE_TOTP");
  if (listed.has("TERMS_AND_CONDITIONS")) out.push("TERMS_AND_CONDITIONS");
  const expired = realm.passwordMaxAgeDays > 0 && password !== null && now - password.createdAt >= realm.passwordMaxAgeDays * DAY_MS;
  if (user.requirePasswordReset || expired) out.push("UPDATE_PASSWORD");
  if (listed.has("UPDATE_PROFILE")) out.push("UPDATE_PROFILE");
  if ((realm.requireEmailVerification || listed.has("VERIFY_EMAIL")) && !user.emailVerified) out.push("VERIFY_EMAIL");
  return orderedActions(out);
}

/**
 * What a write that carried out `done` also sets: the user's list without it (Keycloak removes a
 * required action once its processAction succeeds), or nothing when it was not listed.
 */
export function actionDone(user: Pick<UserRecord, "requiredActions">, done: RequiredActionName): Pick<UserRecord, "requiredActions"> {
  const listed = user.requiredActions ?? [];
  return listed.includes(done) ? { requiredActions: listed.filter((a) => a !== done) } : {};
}
