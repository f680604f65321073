/**
 * Where an account link may send the browser back to: a redirect URI the client registered,
 * matched exactly (DESIGN 5, as the authorization endpoint matches it; RFC 6749 section 3.1.2),
 * absolute and without a fragment (section 3.1.2 of the same RFC).
 */
export function isRegisteredRedirect(registered: readonly string[], uri: string): boolean {
  if (!uri || !registered.includes(uri)) return false;
  try {
    const u = new URL(uri);
    return u.hash === "" && u.protocol !== "javascript:" && u.protocol !== "data:";
  } catch {
    return false;
  }
}

/**
 * The redirect URI with Keycloak's `link_error` and the client's `nonce` (IdentityBrokerService:
 * `not_logged_in`, `not_allowed`, `unknown_identity_provider` at the start; here also the
 * callback's failures), so the client can tell its own request's outcome.
 */
export function withLinkError(redirectUri: string, error: string, nonce: string): string {
  const u = new URL(redirectUri);
  u.searchParams.append("link_error", error);
  u.searchParams.append("nonce", nonce);
  return u.href;
}
