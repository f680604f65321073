import { IamError } from "../../../kit/src/errors.js";
import { checkEmail, checkLength } from "../../../kit/src/validation/checks.js";
import type { UserCreateInput } from "./user.js";

/** Spec 2.2 / 8: username required on create, trimmed, at least 2 characters. */
export function checkUsername(value: string | undefined): string {
  if (value === undefined) throw IamError.invalid("username", "username is required");
  const v = value.trim();
  if (/[\u0000-\u001f\u007f]/.test(v)) throw IamError.invalid("username", "username must not contain control characters");
  return checkLength("username", v, 2, 255);
}

/** Email is optional; "" clears it. Stored as given (trimmed), compared lower-cased. */
export function checkOptionalEmail(value: string): string {
  const v = value.trim();
  return v === "" ? "" : checkEmail("email", v);
}

/** Checks every field present in a create or update input except the password. */
export function checkUserFields(i: Omit<UserCreateInput, "password">): void {
  if (i.firstName !== undefined) checkLength("firstName", i.firstName, 0, 255);
  if (i.lastName !== undefined) checkLength("lastName", i.lastName, 0, 255);
}
