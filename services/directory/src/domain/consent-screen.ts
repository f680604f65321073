import { BUILTIN_SCOPES } from "./builtin-scopes.js";
import type { ClientScopeRecord } from "./client-scope.js";
import { seedId } from "./realm-defaults.js";

/** The built-in scopes Keycloak leaves off the consent screen. */
const HIDDEN_BUILTINS = BUILTIN_SCOPES.filter((b) => !b.onConsentScreen).map((b) => b.name);

/**
 * Whether the consent screen lists a client scope (OIDC Core 1.0 section 3.1.2.4; Keycloak's
 * "Display on consent screen"): every scope but the built-ins marked otherwise (BuiltinScope). A
 * built-in is told by its seeded id (RealmDefaults), which a rename keeps, so an admin's own
 * scope that takes a built-in's name after it was deleted is listed like any other.
 */
export function onConsentScreen(scope: ClientScopeRecord): boolean {
  return !HIDDEN_BUILTINS.some((name) => scope._id === seedId(scope.realmId, "scope", name));
}

/**
 * What the consent screen shows for a client scope. The spec's client scope has no consent text
 * field (spec 2.8: name, description, protocol), so its description, else its name; a built-in
 * whose description the admin has not changed says what Keycloak says ("Email address"), not its
 * technical description ("OpenID Connect built-in scope: email").
 */
export function consentText(scope: ClientScopeRecord): string {
  const builtin = BUILTIN_SCOPES.find((b) => scope._id === seedId(scope.realmId, "scope", b.name));
  if (builtin?.consentText && scope.description === builtin.description) return builtin.consentText;
  return scope.description || scope.name;
}
