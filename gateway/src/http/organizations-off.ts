import { describeError } from "./rpc-errors.js";

/**
 * Whether an RPC failed because the realm's organizations are switched off (Keycloak 26's
 * `organizationsEnabled`; the directory answers 404 `organizations_not_enabled`). Callers outside
 * the organizations Admin API read that as "no organizations", as Keycloak's login and account
 * code does, rather than as a failure.
 */
export function organizationsOff(e: unknown): boolean {
  const err = describeError(e);
  return err.status === 404 && err.reason === "organizations_not_enabled";
}
