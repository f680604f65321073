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
}

/** Looks realms up by name; null when the realm does not exist. */
export interface RealmResolver {
  resolve(name: string): Promise<RealmScope | null>;
}
