import type { Clock } from "../../../kit/src/store/port.js";
import type { SsoSessionRepository } from "../store/sso-session-repository.js";
import type { OAuthRealm } from "./realm-settings.js";
import type { SsoSessionRecord } from "./sso-session.js";
import { cappedEnd, forLogin, pastMax } from "./session-max.js";

/**
 * Below this share of refreshTokenLifespan left, issuing an online refresh token extends its SSO
 * session. Half a lifespan: a client refreshing at a steady rate costs one extra write per half
 * lifespan, not one per refresh, and refresh_expires_in stays at least half the lifespan.
 */
export const KEEP_ALIVE_SHARE = 0.5;

/**
 * Keeps an SSO session alive for the online refresh tokens issued in it. A refresh token is refused
 * once its session ends, so the session, which the browser's last use set to end after
 * refreshTokenLifespan, must move with the refreshes (Keycloak refreshes the user session's last
 * access on each refresh), and refresh_expires_in must not promise more than the session will live
 * (RFC 6749 section 5.1). The token service writes once per issued pair (DESIGN, docs/performance.md), so the
 * session is extended to a full lifespan only when it would otherwise end in less than
 * KEEP_ALIVE_SHARE of one; the caller answers min(family end, session end), which stays exact.
 */
export class SsoSessionKeepAlive {
  constructor(private readonly sessions: SsoSessionRepository, private readonly clock: Clock) {}

  /**
   * The session's end (epoch ms) once kept alive for a token issued now; null when it has ended.
   * Never past SSO Session Max (session-max.ts): a session at its bound is not moved, and ends there.
   * A remember-me session moves and ends by the realm's remember-me bounds (forLogin).
   */
  async extend(realmSettings: OAuthRealm, session: Pick<SsoSessionRecord, "_id" | "expiresAt" | "createdAt" | "rememberMe">): Promise<number | null> {
    const realm = forLogin(realmSettings, session.rememberMe);
    const now = this.clock.now();
    if (pastMax(realm, session.createdAt, now)) return null;
    const lifespan = realm.refreshTokenLifespan * 1000;
    const target = cappedEnd(realm, session.createdAt, now + lifespan);
    if (session.expiresAt > now && (session.expiresAt - now >= lifespan * KEEP_ALIVE_SHARE || session.expiresAt >= target)) return session.expiresAt;
    const kept = await this.sessions.extend(realm.id, session._id, now, target);
    return kept && kept.expiresAt > now ? kept.expiresAt : null;
  }
}
