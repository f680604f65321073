import type { JWTPayload } from "jose";
import { issuedAtMs } from "./access-token-id.js";
import type { ClientDirectory, ClientInfo } from "./client-directory.js";
import type { KeyRing } from "./key-ring.js";
import type { RecentUserRevocations } from "./recent-user-revocations.js";
import type { OAuthRealm } from "./realm-settings.js";
import type { RefreshFamilyRepository } from "../store/refresh-family-repository.js";
import type { RevokedTokenRepository } from "../store/revoked-token-repository.js";
import type { SsoSessionRepository } from "../store/sso-session-repository.js";

/** A JWS compact serialization: three base64url parts (RFC 7515 section 7.1). */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

/** An active access token's claims, its client, and when the user of its session authenticated (epoch ms). */
export interface ActiveAccessToken {
  payload: JWTPayload;
  /** The client it was issued to (`azp`), enabled. */
  client: ClientInfo;
  /** The refresh family's `authTime`, or without one the SSO session's; undefined without either. */
  authTime?: number;
}

/**
 * Whether an access token is active (DESIGN 5, RFC 7662 section 2.2): a valid signature by one of
 * the realm's published keys, this realm's issuer, unexpired, not revoked, and a live session:
 * its refresh family (`fid`) and, for online tokens, its SSO session (`sid`). Not revoked means
 * neither the token itself (RFC 7009) nor every token of its user or client issued up to a time
 * (user disabled or deleted, password changed, sessions revoked; client disabled or deleted, RFC
 * 6749 section 10.4), which is all a token without `fid` or `sid` has to die by: one read for all.
 * And its client (`azp`) still exists and is enabled, as Keycloak's userinfo and introspection
 * check: the client's disabling ends its sessions and marks its tokens too, but through the event
 * consumer, a moment later (or, with the bus down, once it is back); the client's configuration,
 * cached and dropped on its change, answers at once.
 */
export class AccessTokens {
  constructor(
    private readonly keys: KeyRing,
    private readonly families: RefreshFamilyRepository,
    private readonly sessions: SsoSessionRepository,
    private readonly revoked: RevokedTokenRepository,
    private readonly clients: ClientDirectory,
    private readonly recent?: RecentUserRevocations,
  ) {}

  /** The verified claims, whatever the session (revocation needs no more). */
  async verify(realm: OAuthRealm, issuer: string, token: string): Promise<JWTPayload | null> {
    if (!looksLikeJwt(token)) return null;
    let payload: JWTPayload;
    try {
      payload = await this.keys.verify(realm, token);
    } catch {
      return null;
    }
    if (payload.iss !== issuer || payload.typ !== "Bearer" || typeof payload.sub !== "string" || typeof payload.jti !== "string") return null;
    return payload;
  }

  async active(realm: OAuthRealm, issuer: string, token: string): Promise<JWTPayload | null> {
    return (await this.activeLogin(realm, issuer, token))?.payload ?? null;
  }

  /**
   * As active(), with the auth time of the token's session (the claims of userinfo and of a token
   * exchange are resolved for it: plugin mappers see it), read from the family or SSO session
   * active() checks anyway: no read more.
   */
  async activeLogin(realm: OAuthRealm, issuer: string, token: string): Promise<ActiveAccessToken | null> {
    const payload = await this.verify(realm, issuer, token);
    if (!payload) return null;
    const fid = typeof payload.fid === "string" ? payload.fid : "";
    const sid = typeof payload.sid === "string" ? payload.sid : "";
    // A token of a refresh family lives only as long as the family, and every revocation by user or
    // client ends the families it covers before it sets its mark (SessionTerminator); such a token
    // needs only its own jti looked up, one get as before the marks existed (the introspection of
    // the common token costs no more). A token without a family can die by a mark: one read for
    // its jti and both marks.
    const clientId = typeof payload.azp === "string" ? payload.azp : "";
    const client = clientId ? await this.clients.get(realm.name, clientId) : null;
    if (!client?.enabled) return null;
    // Revoked by a user event this process has heard of, before its consumer is done (memory only).
    if (this.recent?.revokes(realm.id, payload.sub!, issuedAtMs(payload))) return null;
    const revoked = fid
      ? await this.revoked.isJtiRevoked(realm.id, payload.jti!)
      : await this.revoked.isRevoked(realm.id, { jti: payload.jti!, issuedAt: issuedAtMs(payload), userId: payload.sub!, clientId });
    if (revoked) return null;
    if (fid) {
      const family = await this.families.get(realm.id, fid);
      if (!family) return null;
      if (family.ssoSessionId && !family.offline && !(await this.sessions.findById(realm.id, family.ssoSessionId))) return null;
      return { payload, client, authTime: family.authTime };
    }
    if (sid) {
      const session = await this.sessions.findById(realm.id, sid);
      return session ? { payload, client, authTime: session.authTime } : null;
    }
    return { payload, client };
  }
}
