import type { JWTPayload } from "jose";
import type { ClaimsSession } from "./claims-session.js";
import type { ClientInfo } from "./client-directory.js";
import type { OAuthRealm } from "./realm-settings.js";
import { NOT_COPIED, type MappedForIntrospection, type TokenMinter } from "./token-minter.js";

/**
 * The claims introspection reports of an active access token (RFC 7662 section 2.2), by the
 * mappers' `introspection.token.claim` switches, as Keycloak (25 and later) reports them: the
 * claims the token service sets itself (NOT_COPIED: issuer, subject, audience, times, scope,
 * session, confirmation) as the token has them, and of the mappers' claims those that write to
 * introspection, computed now.
 *
 * Most clients' mappers write the same claims to both (the switches' defaults), and then the
 * token's own claims are the answer, with no directory call: the client's configuration, cached
 * in the token service, says whether any mapper differs (ClientInfo.introspectionClaimsDiffer).
 */
export class IntrospectedClaims {
  constructor(private readonly minter: TokenMinter) {}

  /**
   * The claims to report of an active token of `client` (AccessTokens.activeLogin), or null when
   * its user is gone or disabled: not active.
   */
  async of(realm: OAuthRealm, token: JWTPayload, client: ClientInfo, session: ClaimsSession): Promise<Record<string, unknown> | null> {
    if (!client.introspectionClaimsDiffer) return token;
    const scopes = typeof token.scope === "string" ? token.scope.split(" ").filter(Boolean) : [];
    const mapped = await this.minter.introspectionClaims(realm, token.sub ?? "", client.clientId, scopes, session);
    return mapped && withIntrospectionClaims(token, mapped);
  }
}

/**
 * The token's claims with the mappers' access token claims taken out and their introspection
 * claims put in. `acr` keeps the token's value (the level of its login, not the mapper's "1").
 */
export function withIntrospectionClaims(token: JWTPayload, mapped: MappedForIntrospection): Record<string, unknown> {
  const out: Record<string, unknown> = { ...token };
  for (const name of Object.keys(mapped.access)) if (!NOT_COPIED.has(name)) delete out[name];
  for (const [name, value] of Object.entries(mapped.introspection)) {
    if (NOT_COPIED.has(name)) continue;
    // A claim named "__proto__" stays a claim, never the object's prototype.
    Object.defineProperty(out, name, { value: name === "acr" && token.acr !== undefined ? token.acr : value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
