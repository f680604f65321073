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

/** The realm's fields a login's bounds come from. */
export type LoginBoundFields = Pick<OAuthRealm, "refreshTokenLifespan" | "ssoSessionMaxLifespan" | "ssoSessionIdleTimeoutRememberMe" | "ssoSessionMaxLifespanRememberMe">;

/**
 * The realm as the bounds of one login see it. A login that ticked "Remember me" is idle-bounded
 * by ssoSessionIdleTimeoutRememberMe and capped by ssoSessionMaxLifespanRememberMe where they are
 * set (> 0), else by the usual refreshTokenLifespan and ssoSessionMaxLifespan, as Keycloak's
 * SessionExpirationUtils chooses them. The choice is the session's, made when it began: like
 * Keycloak, which reads the user session's rememberMe and not the realm's switch, sessions
 * already remembered keep their bounds when the realm stops offering the box.
 */
export function forLogin<R extends LoginBoundFields>(realm: R, rememberMe: boolean | undefined): R {
  if (!rememberMe) return realm;
  return {
    ...realm,
    refreshTokenLifespan: realm.ssoSessionIdleTimeoutRememberMe > 0 ? realm.ssoSessionIdleTimeoutRememberMe : realm.refreshTokenLifespan,
    ssoSessionMaxLifespan: realm.ssoSessionMaxLifespanRememberMe > 0 ? realm.ssoSessionMaxLifespanRememberMe : realm.ssoSessionMaxLifespan,
  };
}

/**
 * The longest Max-Age a browser keeps (RFC 6265bis section 5.6.2 caps it at 400 days): a
 * remember-me cookie's when the realm sets no SSO Session Max.
 */
export const BROWSER_MAX_AGE_SECONDS = 400 * 86_400;

/**
 * The Max-Age (seconds) of a new remember-me session's cookie: its SSO Session Max, the
 * remember-me one when set, as Keycloak's login cookie; the browser's longest without a bound.
 * The session ends on the server by its idle bound long before, unless it is used.
 */
export function rememberMeCookieMaxAge(realm: LoginBoundFields): number {
  const max = forLogin(realm, true).ssoSessionMaxLifespan;
  return max > 0 ? Math.min(max, BROWSER_MAX_AGE_SECONDS) : BROWSER_MAX_AGE_SECONDS;
}
