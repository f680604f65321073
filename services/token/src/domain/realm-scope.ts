/** What the token service needs to know of a realm (owned by the directory, DESIGN 3). */
export interface RealmScope {
  id: string;
  name: string;
  enabled: boolean;
  /**
   * The longest lifetime of a JWT the realm signs, in seconds: max(accessTokenLifespan,
   * refreshTokenLifespan). Access and ID tokens are JWTs (DESIGN 5); refresh tokens are opaque, so
   * this over-approximates on purpose: a rotated key stays published at least this long.
   */
  tokenLifespanSeconds: number;
  /** RFC 9126 section 6, for discovery; known only where the realm's settings were read. */
  requirePushedAuthorizationRequests?: boolean;
  /** OIDC Discovery 1.0 section 3 ui_locales_supported, likewise known only from the settings. */
  uiLocalesSupported?: string[];
}

/**
 * A realm known only by the id and name an event or a stored record carries: for the work that
 * needs no more (store keys, issuer, signing key), never to decide whether the realm is enabled.
 */
export function realmScopeOf(id: string, name: string): RealmScope {
  return { id, name, enabled: true, tokenLifespanSeconds: 0 };
}

/** Looks realms up by name; null when the realm does not exist. */
export interface RealmResolver {
  resolve(name: string): Promise<RealmScope | null>;
}
