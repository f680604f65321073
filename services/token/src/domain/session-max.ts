import type { OAuthRealm } from "./realm-settings.js";

/**
 * The absolute lifetime of a login (Keycloak's "SSO Session Max", ssoSessionMaxLifespan, default
 * 10 hours): an SSO session, and every online refresh token issued in it, ends that long after the
 * user logged in, however active it stays; a password-grant family, which has no SSO session, that
 * long after it began. Idle expiry (refreshTokenLifespan) still applies within it. Offline sessions
 * are not bounded (Keycloak's "Offline Session Max Limited" is off by default): they live by
 * offlineTokenLifespan of idleness. 0 means no bound. The realm's `ssoSessionMaxLifespan`, an
 * extension of spec 2.1's realm under Keycloak's name (the spec has no field for it).
 */
export function cappedEnd(realm: Pick<OAuthRealm, "ssoSessionMaxLifespan">, startedAt: number, end: number): number {
  const bound = boundOf(realm, startedAt);
  return bound === undefined ? end : Math.min(end, bound);
}

/**
 * When a login that began at `startedAt` ends at the latest (epoch ms), as TokenSubject's
 * `loginEndsAt`; absent without a bound.
 * Access and ID tokens of the login expire no later (Keycloak caps them the same way), so a
 * resource server checking `exp` alone stops accepting them when the session can no longer be used.
 */
export function loginEndOf(realm: Pick<OAuthRealm, "ssoSessionMaxLifespan">, startedAt: number): { loginEndsAt?: number } {
  const bound = boundOf(realm, startedAt);
  return bound === undefined ? {} : { loginEndsAt: bound };
}

/** Whether a login that began at `startedAt` has outlived the bound at `now` (a bound lowered since counts). */
export function pastMax(realm: Pick<OAuthRealm, "ssoSessionMaxLifespan">, startedAt: number, now: number): boolean {
  const bound = boundOf(realm, startedAt);
  return bound !== undefined && now >= bound;
}

/** The end (epoch ms) of a login that began at `startedAt`; undefined when the realm sets no bound. */
function boundOf(realm: Pick<OAuthRealm, "ssoSessionMaxLifespan">, startedAt: number): number | undefined {
  return realm.ssoSessionMaxLifespan > 0 ? startedAt + realm.ssoSessionMaxLifespan * 1000 : undefined;
}
