import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RefreshFamilyRepository } from "../store/refresh-family-repository.js";
import type { ClientInfo } from "./client-directory.js";
import { issuedTo } from "./client-binding.js";
import type { OAuthRealm } from "./realm-settings.js";
import type { Acr } from "./acr.js";
import {
  newFamilyId, newRefreshToken, parseRefreshToken, type RefreshFamilyRecord,
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
}

/** Why a presented refresh token was refused; `reused` means the family was revoked for it. */
export type RefreshRefusal = "unknown" | "wrong_client" | "reused";

/**
 * Refresh token families (DESIGN 5): issue (one insert), rotate (one conditional update) with
 * reuse detection, look up. Lifetimes from the realm: refreshTokenLifespan, or
 * offlineTokenLifespan for offline tokens (spec 5 rule 2), both sliding on each use.
 */
export class RefreshFamilies {
  constructor(readonly repo: RefreshFamilyRepository, private readonly clock: Clock) {}

  async start(s: FamilyStart): Promise<{ family: RefreshFamilyRecord; token: string }> {
    const now = this.clock.now();
    const id = s.familyId ?? newFamilyId();
    const { token, hash } = newRefreshToken(id);
    const family: RefreshFamilyRecord = {
      _id: id, realmId: s.realm.id, realmName: s.realm.name, clientId: s.client.clientId, clientInternalId: s.client.id,
      userId: s.userId, username: s.username, ssoSessionId: s.ssoSessionId, sid: s.ssoSessionId || id, offline: s.offline,
      scope: s.scope, currentHash: hash, previousHashes: [], authTime: s.authTime, amr: s.amr, acr: s.acr,
      ipAddress: s.ipAddress, createdAt: now, lastRefreshAt: now, expiresAt: now + lifespanMs(s.realm, s.offline),
    };
    await this.repo.insert(family);
    return { family, token };
  }

  /** The live family whose current token this is, or null (also for rotated-out tokens). */
  async findCurrent(realm: OAuthRealm, token: string): Promise<RefreshFamilyRecord | null> {
    const parsed = parseRefreshToken(token);
    if (!parsed) return null;
    const family = await this.repo.get(realm.id, parsed.familyId);
    return family && family.currentHash === parsed.hash ? family : null;
  }

  /**
   * Checks a presented token for `client` without consuming it. A token of an earlier
   * generation revokes the family (RFC 9700 section 4.14.2) and is refused as `reused`.
   */
  async check(realm: OAuthRealm, token: string, client: Pick<ClientInfo, "id" | "clientId">): Promise<RefreshFamilyRecord> {
    const parsed = parseRefreshToken(token);
    if (!parsed) throw refused("unknown");
    const family = await this.repo.get(realm.id, parsed.familyId);
    if (!family) throw refused("unknown");
    if (family.currentHash !== parsed.hash) {
      if (!family.previousHashes.includes(parsed.hash)) throw refused("unknown");
      await this.repo.remove(realm.id, family._id);
      throw refused("reused");
    }
    // RFC 6749 section 6: the refresh token is bound to the client it was issued to, not to
    // whichever client holds its clientId now (a deleted client's may be taken again).
    if (!issuedTo(family, client)) throw refused("wrong_client");
    return family;
  }

  /** Rotates `family` (as returned by check) to a new token; a lost race counts as reuse. */
  async rotate(realm: OAuthRealm, family: RefreshFamilyRecord): Promise<{ family: RefreshFamilyRecord; token: string }> {
    const now = this.clock.now();
    const { token, hash } = newRefreshToken(family._id);
    const next = await this.repo.rotate(family, family.currentHash, hash, now, now + lifespanMs(realm, family.offline));
    if (!next) {
      await this.repo.remove(realm.id, family._id);
      throw refused("reused");
    }
    return { family: next, token };
  }
}

function lifespanMs(realm: OAuthRealm, offline: boolean): number {
  return (offline ? realm.offlineTokenLifespan : realm.refreshTokenLifespan) * 1000;
}

function refused(why: RefreshRefusal): IamError {
  const message = why === "reused" ? "refresh token was already used; its session is revoked"
    : why === "wrong_client" ? "refresh token was issued to another client" : "invalid refresh token";
  return new IamError({ code: "invalidArgument", reason: why === "reused" ? "refresh_token_reused" : "invalid_grant", oauthError: "invalid_grant", message });
}
