import type { JsonValue } from "@bufbuild/protobuf";
import { IamError } from "../../../kit/src/errors.js";
import { checkEmail, checkLength } from "../../../kit/src/validation/checks.js";
import { checkRequiredActions, type UserRequiredAction } from "../../../kit/src/validation/required-actions.js";
import type { UserCreateInput } from "./user.js";

export { checkUsername } from "./username.js";

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

/** Bounds of a user's attributes: names, values per name, characters per value. */
export const MAX_ATTRIBUTES = 100;
export const MAX_ATTRIBUTE_VALUES = 100;
export const MAX_ATTRIBUTE_VALUE_LENGTH = 2048;

/**
 * User attributes as Keycloak represents them: an object of string lists, names starting with a
 * letter or `_` (absent or null: none). Bounded, since every token built for the user reads them.
 */
export function checkAttributes(v: JsonValue | undefined): Record<string, string[]> {
  if (v === undefined || v === null) return {};
  const bad = (why = "attributes must be an object of string arrays") => IamError.invalid("attributes", why);
  if (typeof v !== "object" || Array.isArray(v)) throw bad();
  const entries = Object.entries(v);
  if (entries.length > MAX_ATTRIBUTES) throw bad(`at most ${MAX_ATTRIBUTES} attributes`);
  const out: Record<string, string[]> = {};
  for (const [k, list] of entries) {
    // No "." or "$": names become field names of the stored document (MongoDB reserves both).
    if (!/^[A-Za-z_][A-Za-z0-9_-]{0,254}$/.test(k)) throw bad(`attribute name "${k.slice(0, 64)}" must start with a letter or _ and use letters, digits, _ and -`);
    if (!Array.isArray(list) || !list.every((x) => typeof x === "string")) throw bad();
    if (list.length > MAX_ATTRIBUTE_VALUES) throw bad(`at most ${MAX_ATTRIBUTE_VALUES} values per attribute`);
    if (list.some((x) => (x as string).length > MAX_ATTRIBUTE_VALUE_LENGTH)) throw bad(`attribute values have at most ${MAX_ATTRIBUTE_VALUE_LENGTH} characters`);
    out[k] = list as string[];
  }
  return out;
}

/**
 * The stored form of a create's or update's `requiredActions`: the list (Keycloak's names, any
 * order, checked) split into `requirePasswordReset` (UPDATE_PASSWORD) and the rest, since the two
 * fields are one fact. A body that sends both must have them agree; only `requirePasswordReset`
 * sent changes UPDATE_PASSWORD alone (the Admin API's field before requiredActions existed).
 */
export function requiredActionFields(
  input: Pick<UserCreateInput, "requiredActions" | "requirePasswordReset">,
): { requiredActions?: UserRequiredAction[]; requirePasswordReset?: boolean } {
  if (input.requiredActions === undefined) {
    return input.requirePasswordReset === undefined ? {} : { requirePasswordReset: input.requirePasswordReset };
  }
  const actions = checkRequiredActions("requiredActions", input.requiredActions);
  const reset = actions.includes("UPDATE_PASSWORD");
  if (input.requirePasswordReset !== undefined && input.requirePasswordReset !== reset) {
    throw IamError.invalid("requirePasswordReset", "requirePasswordReset and requiredActions disagree about UPDATE_PASSWORD (they are the same setting)");
  }
  return { requiredActions: actions.filter((a) => a !== "UPDATE_PASSWORD"), requirePasswordReset: reset };
}
