import { IamError } from "../../../kit/src/errors.js";
import type { RealmRecord } from "./realm.js";

/** Spec 8: an initial password has at least 8 characters, whatever the realm's policy says. */
export const SPEC_MIN_PASSWORD = 8;
/** Bounds the work argon2 does for one request. */
export const MAX_PASSWORD = 1024;

type Policy = Pick<RealmRecord,
  "passwordMinLength" | "passwordRequireUppercase" | "passwordRequireLowercase" | "passwordRequireDigits"
  | "passwordRequireSpecialChars">;

/**
 * The realm's password policy (spec 2.1 password* fields) plus spec 8's minimum. Every failed rule
 * is named in one 400 (field "password"), so an admin fixes the password in one go. The password
 * itself never appears in the message.
 */
export function checkPasswordPolicy(
  password: string | undefined, realm: Policy, user: { username: string; email: string },
): string {
  if (password === undefined) throw IamError.invalid("password", "password is required");
  const failed: string[] = [];
  const min = Math.max(SPEC_MIN_PASSWORD, realm.passwordMinLength);
  const length = [...password].length;
  if (length < min) failed.push(`at least ${min} characters`);
  if (length > MAX_PASSWORD) failed.push(`at most ${MAX_PASSWORD} characters`);
  if (realm.passwordRequireUppercase && !/\p{Lu}/u.test(password)) failed.push("an uppercase letter");
  if (realm.passwordRequireLowercase && !/\p{Ll}/u.test(password)) failed.push("a lowercase letter");
  if (realm.passwordRequireDigits && !/\p{Nd}/u.test(password)) failed.push("a digit");
  if (realm.passwordRequireSpecialChars && !/[^\p{L}\p{N}\s]/u.test(password)) failed.push("a special character");
  if (password.toLowerCase() === user.username.toLowerCase()) failed.push("not equal to the username");
  if (user.email && password.toLowerCase() === user.email.toLowerCase()) failed.push("not equal to the email");
  if (failed.length) {
    throw IamError.invalid("password", `password does not meet the password policy: ${failed.join(", ")}`, "invalid_password");
  }
  return password;
}
