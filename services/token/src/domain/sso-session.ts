import type { Doc } from "../../../kit/src/store/port.js";

/**
 * An SSO session (spec 2.6 type `sso`): the browser's login at a realm, found again by the hash of
 * the session cookie's random value. Its id is the `sid` of the tokens issued in it. It expires
 * after the realm's refreshTokenLifespan of idleness (`expiresAt`, moved on each browser use, and
 * by the refreshes of its online tokens when it would otherwise end before them:
 * sso-session-keep-alive.ts), or its remember-me lifespan (session-max.ts forLogin).
 */
export interface Impersonator {
  id: string;
  username: string;
}

export interface SsoSessionRecord extends Doc {
  realmId: string;
  realmName: string;
  userId: string;
  username: string;
  /** SHA-256 hex of the cookie value; the cookie value itself is never stored. */
  cookieHash: string;
  /** Epoch ms of the last interactive authentication (ID token `auth_time`, `max_age`). */
  authTime: number;
  /** Authentication methods used (RFC 8176): "pwd", "otp". */
  amr: string[];
  /** The clientIds that obtained tokens or codes in this session. */
  clientIds: string[];
  ipAddress: string;
  /**
   * Keycloak's IMPERSONATOR_ID / IMPERSONATOR_USERNAME session notes: the administrator who
   * started this session as the user (impersonation.ts); its tokens carry the `impersonator` claim.
   */
  impersonator?: Impersonator;
  /**
   * The user ticked Keycloak's "Remember me" at the login that opened it, in a realm offering it:
   * its cookie outlives the browser and its bounds are the realm's remember-me ones
   * (session-max.ts forLogin). Absent: not remembered.
   */
  rememberMe?: boolean;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}
