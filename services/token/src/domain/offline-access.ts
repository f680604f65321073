import type { ClientInfo } from "./client-directory.js";

/** The scope that asks for an offline token and session (OIDC Core 1.0 section 11, spec 2.6). */
export const OFFLINE_ACCESS = "offline_access";

/** Whether the client gets refresh tokens: it lists the refresh_token grant (Keycloak's "Use refresh tokens"). */
export function usesRefreshTokens(client: Pick<ClientInfo, "grantTypes">): boolean {
  return client.grantTypes.includes("refresh_token");
}

/**
 * The requested scope names the client can be granted: `offline_access` only for a client that
 * gets refresh tokens, since an offline token is one and the token endpoint refuses the client
 * the refresh_token grant (Keycloak issues no offline token to a client without refresh tokens).
 * Leaving it out is not an error: RFC 6749 section 3.3 lets the server grant less than asked,
 * and the token response's `scope` then says what was granted.
 */
export function grantableScopes(names: string[], client: Pick<ClientInfo, "grantTypes">): string[] {
  return usesRefreshTokens(client) ? names : names.filter((n) => n !== OFFLINE_ACCESS);
}
