import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RefreshFamilyRepository } from "../store/refresh-family-repository.js";
import type { ClientInfo } from "./client-directory.js";
import { issuedTo } from "./client-binding.js";
import type { OAuthRealm } from "./realm-settings.js";
import type { Acr } from "./acr.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { RecentUserRevocations } from "./recent-user-revocations.js";
import { cappedEnd, forLogin, pastMax } from "./session-max.js";
import {
  isEarlierToken, newFamilyId, newRefreshToken, parseRefreshToken, type RefreshFamilyRecord,
} from "./refresh-family.js";

export interface FamilyStart {
  realm: OAuthRealm;
  client: Pick<ClientInfo, "id" | "clientId">;
  userId: string;
  username: string;
  ssoSessionId: string;
  offline: boolean;
  scope: string;
  authTime: number;
  amr: string[];
  acr: Acr;
  ipAddress: string;
  /** A fixed id (authorization code grant); a random uuid otherwise. */
  familyId?: string;
  /** The SSO session's start (its createdAt); absent without one (the family begins the login). */
  sessionStartedAt?: number;
  /** The SSO session's "Remember me": the family's bounds are the realm's remember-me ones (session-max.ts forLogin). */
  rememberMe?: boolean;
  /** RFC 9449 section 5: the DPoP key a public client's refresh tokens are bound to. */
  dpopJkt?: string;
  /** The audience a token exchange chose (RefreshFamilyRecord.audience). */
  audience?: string;
}

/** Why a presented refresh token was refused; `reused` means the family was revoked for it. */
export type RefreshRefusal = "unknown" | "wrong_client" | "reused" | "ended";

/**
 * Refresh token families (DESIGN 5): issue (one insert), rotate (one conditional update) with
 * reuse detection, look up. Lifetimes from the realm: refreshTokenLifespan, or
 * offlineTokenLifespan for offline tokens (spec 5 rule 2), both sliding on each use; an online
 * family never outlives SSO Session Max from the start of its login (session-max.ts). An online
 * family of a remember-me login has the realm's remember-me bounds instead (forLogin).
 */
export class RefreshFamilies {
  /**
   * `recent`: the users this process has just heard revoked (disabled, deleted, password changed):
   * their families started before that are refused at once, not only once the durable consumer has
   * removed them one by one (the audit saw refreshes succeed for ~250 ms after a password reset of a
   * user with 300 sessions, and introspection answer active for longer), as access tokens are.
   */
  constructor(readonly repo: RefreshFamilyRepository, private readonly clock: Clock, private readonly secrets: SecretBox, private readonly recent?: RecentUserRevocations) {}

  async start(s: FamilyStart): Promise<{ family: RefreshFamilyRecord; token: string }> {
    const now = this.clock.now();
    const id = s.familyId ?? newFamilyId();
    const { token, hash } = newRefreshToken(this.secrets, id, 0);
    const family: RefreshFamilyRecord = {
      _id: id, realmId: s.realm.id, realmName: s.realm.name, clientId: s.client.clientId, clientInternalId: s.client.id,
      userId: s.userId, username: s.username, ssoSessionId: s.ssoSessionId, sid: s.ssoSessionId || id, offline: s.offline,
      scope: s.scope, currentHash: hash, generation: 0, previousHashes: [], authTime: s.authTime, amr: s.amr, acr: s.acr,
      ipAddress: s.ipAddress, ...(s.dpopJkt ? { dpopJkt: s.dpopJkt } : {}), createdAt: now, sessionStartedAt: s.sessionStartedAt ?? now, lastRefreshAt: now,
      ...(s.rememberMe ? { rememberMe: true } : {}),
      expiresAt: endOf(forLogin(s.realm, s.rememberMe), s.offline, s.sessionStartedAt ?? now, now),
      ...(s.audience ? { audience: s.audience } : {}),
    };
    await this.repo.insert(family);
    return { family, token };
  }

  /** The live family whose current token this is, or null (also for rotated-out tokens). */
  async findCurrent(realm: OAuthRealm, token: string): Promise<RefreshFamilyRecord | null> {
    const parsed = parseRefreshToken(this.secrets, token);
    if (!parsed) return null;
    const family = await this.repo.get(realm.id, parsed.familyId);
    return family && family.currentHash === parsed.hash && !this.revokedUser(realm, family) && !this.idleTooLong(realm, family) && !this.pastSessionMax(realm, family) ? family : null;
  }

  /** The live family that issued this token, current or of an earlier generation (revocation, RFC 7009), or null. */
  async findIssuer(realm: OAuthRealm, token: string): Promise<RefreshFamilyRecord | null> {
    const parsed = parseRefreshToken(this.secrets, token);
    if (!parsed) return null;
    const family = await this.repo.get(realm.id, parsed.familyId);
    return family && (family.currentHash === parsed.hash || isEarlierToken(family, parsed)) ? family : null;
  }

  /**
   * Checks a presented token for `client` without consuming it. A token of an earlier
   * generation revokes the family (RFC 9700 section 4.14.2) and is refused as `reused`.
   */
  async check(realm: OAuthRealm, token: string, client: Pick<ClientInfo, "id" | "clientId">): Promise<RefreshFamilyRecord> {
    const parsed = parseRefreshToken(this.secrets, token);
    if (!parsed) throw refused("unknown");
    const family = await this.repo.get(realm.id, parsed.familyId);
    if (!family) throw refused("unknown");
    if (family.currentHash !== parsed.hash) {
      if (!isEarlierToken(family, parsed)) throw refused("unknown");
      await this.repo.remove(realm.id, family._id);
      throw refused("reused");
    }
    // RFC 6749 section 6: the refresh token is bound to the client it was issued to, not to
    // whichever client holds its clientId now (a deleted client's may be taken again).
    if (!issuedTo(family, client)) throw refused("wrong_client");
    if (this.revokedUser(realm, family) || this.pastSessionMax(realm, family)) throw refused("ended");
    if (this.idleTooLong(realm, family)) throw refused("unknown");
    return family;
  }

  /**
   * Whether the family has been idle longer than the realm's lifespan *now*: its `expiresAt` was
   * set by the lifespan of its last use, and an admin who shortens refreshTokenLifespan (or
   * offlineTokenLifespan) means it for the sessions already open too, as in Keycloak, which
   * measures a session's idle time against the current setting.
   */
  private idleTooLong(realm: OAuthRealm, family: RefreshFamilyRecord): boolean {
    return this.clock.now() >= family.lastRefreshAt + lifespanMs(forLogin(realm, family.rememberMe), family.offline);
  }

  /** Whether an online family's login has outlived SSO Session Max (session-max.ts); offline ones never do. */
  private pastSessionMax(realm: OAuthRealm, family: RefreshFamilyRecord): boolean {
    return !family.offline && pastMax(forLogin(realm, family.rememberMe), family.sessionStartedAt ?? family.createdAt, this.clock.now());
  }

  /** Whether the family's user was revoked (recent) after the family began. */
  private revokedUser(realm: OAuthRealm, family: RefreshFamilyRecord): boolean {
    return this.recent?.revokes(realm.id, family.userId, family.createdAt) ?? false;
  }

  /** Rotates `family` (as returned by check) to a new token; a lost race counts as reuse. */
  async rotate(realm: OAuthRealm, family: RefreshFamilyRecord): Promise<{ family: RefreshFamilyRecord; token: string }> {
    const now = this.clock.now();
    const generation = (family.generation ?? 0) + 1;
    const { token, hash } = newRefreshToken(this.secrets, family._id, generation);
    const next = await this.repo.rotate(family, hash, generation, now, endOf(forLogin(realm, family.rememberMe), family.offline, family.sessionStartedAt ?? family.createdAt, now));
    if (!next) {
      await this.repo.remove(realm.id, family._id);
      throw refused("reused");
    }
    return { family: next, token };
  }
}

/** Where a family used at `now` ends: a lifespan of idleness, and for an online one no later than SSO Session Max. */
function endOf(realm: OAuthRealm, offline: boolean, sessionStartedAt: number, now: number): number {
  const idleEnd = now + lifespanMs(realm, offline);
  return offline ? idleEnd : cappedEnd(realm, sessionStartedAt, idleEnd);
}

function lifespanMs(realm: OAuthRealm, offline: boolean): number {
  return (offline ? realm.offlineTokenLifespan : realm.refreshTokenLifespan) * 1000;
}

/**
 * Keycloak's wording where the case is the same ("Session not active", "Invalid refresh token"),
 * so what an application logs or matches reads as it did. An expired family is invisible to reads
 * (opaque tokens keep no exp to tell it by), so it reads as an invalid one, not "Token is not active".
 */
function refused(why: RefreshRefusal): IamError {
  const message = why === "reused" ? "refresh token was already used; its session is revoked"
    : why === "wrong_client" ? "refresh token was issued to another client"
    : why === "ended" ? "Session not active" : "Invalid refresh token";
  return new IamError({ code: "invalidArgument", reason: why === "reused" ? "refresh_token_reused" : "invalid_grant", oauthError: "invalid_grant", message });
}
