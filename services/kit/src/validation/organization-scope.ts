/**
 * Keycloak 26's dynamic organization scope: `organization:<alias>` asks for that one organization,
 * `organization:*` for all of the user's, both under the client scope `organization`. Shared by
 * the token service (which checks a request's names against the client's scopes) and the
 * directory (which resolves the claim).
 */
export const ORGANIZATION_SCOPE = "organization";
const PREFIX = `${ORGANIZATION_SCOPE}:`;

/** The client scope a requested scope name stands for. */
export function baseScopeName(name: string): string {
  return name.startsWith(PREFIX) && name.length > PREFIX.length ? ORGANIZATION_SCOPE : name;
}

/** The organization alias a dynamic name selects ("*": all), or undefined for another name. */
export function requestedOrganization(name: string): string | undefined {
  return name.startsWith(PREFIX) && name.length > PREFIX.length ? name.slice(PREFIX.length) : undefined;
}
