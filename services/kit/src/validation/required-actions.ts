import { IamError } from "../errors.js";

/**
 * The per-user required actions Tessera runs, named as Keycloak names them
 * (UserModel.RequiredAction), in Keycloak's default priority order (DefaultRequiredActions:
 * CONFIGURE_TOTP 10, TERMS_AND_CONDITIONS 20, UPDATE_PASSWORD 30, UPDATE_PROFILE 40,
 * VERIFY_EMAIL 50). A login runs the pending ones in this order, and a user's list reads in it.
 */
export const USER_REQUIRED_ACTIONS = ["CONFIGURE_TOTP", "TERMS_AND_CONDITIONS", "UPDATE_PASSWORD", "UPDATE_PROFILE", "VERIFY_EMAIL"] as const;
export type UserRequiredAction = (typeof USER_REQUIRED_ACTIONS)[number];

export function isUserRequiredAction(v: unknown): v is UserRequiredAction {
  return typeof v === "string" && (USER_REQUIRED_ACTIONS as readonly string[]).includes(v);
}

/** The set, without duplicates, in Keycloak's priority order: a list is a set, whatever order it was sent in. */
export function orderedActions(actions: Iterable<string>): UserRequiredAction[] {
  const set = new Set(actions);
  return USER_REQUIRED_ACTIONS.filter((a) => set.has(a));
}

/**
 * A user's `requiredActions` as an Admin API body sends it: an array of the names above. Anything
 * else is refused naming the field (Keycloak answers an unknown one with a 400 too).
 */
export function checkRequiredActions(field: string, value: readonly unknown[]): UserRequiredAction[] {
  const unknown = value.filter((a) => !isUserRequiredAction(a));
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 3).map((a) => JSON.stringify(typeof a === "string" ? a.slice(0, 64) : a)).join(", ");
    throw IamError.invalid(field, `${field} holds unknown required actions (${shown}); known: ${USER_REQUIRED_ACTIONS.join(", ")}`);
  }
  return orderedActions(value as string[]);
}
