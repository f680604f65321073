import { IamError } from "../../../kit/src/errors.js";
import type { Clock, Collection, Doc, Filter, FindOptions } from "../../../kit/src/store/port.js";
import type { Page } from "../../../kit/src/page.js";
import type { RefreshFamilyRepository } from "../store/refresh-family-repository.js";
import type { SsoSessionRepository } from "../store/sso-session-repository.js";
import type { RealmSettings } from "./realm-settings.js";
import type { RefreshFamilyRecord } from "./refresh-family.js";
import type { SessionTerminator } from "./session-terminator.js";
import type { SsoSessionRecord } from "./sso-session.js";
import type { SsoSessions } from "./sso-sessions.js";
import type { EventStamp, OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import { adminEventMessage, type AdminEventInput } from "../../../kit/src/events/admin-events.js";
import type { OAuthRealm } from "./realm-settings.js";

/** A session as the Admin API lists it (spec 2.6): `sso` or `oauth`. */
export interface SessionView {
  id: string;
  type: "sso" | "oauth";
  userId: string;
  username: string;
  ipAddress: string;
  start: number;
  lastAccess: number;
  expires: number;
  clients: string[];
  scope: string;
  ssoSessionId: string;
  /** Keycloak's UserSessionRepresentation.rememberMe; absent when false. */
  rememberMe?: boolean;
}

/** Oldest first; `_id` breaks ties so pages neither repeat nor skip a session. */
const OLDEST_FIRST: FindOptions["sort"] = [["createdAt", 1], ["_id", 1]];

/** Resource type of the sessions admin's admin events (Keycloak's). */
export const USER_SESSION = "USER_SESSION";

/**
 * Sessions Admin API (spec 4.7) and offline sessions (spec 4.2). Each revocation is an admin
 * write and records its admin event when the realm has adminEventsEnabled (spec 2.7): a single
 * session's is staged with the session's end in the outbox (no crash keeps the revocation and
 * loses the record); so is revoking all of a user's, its event with the count.
 */
export class SessionAdmin {
  constructor(
    private readonly realms: RealmSettings,
    private readonly sso: SsoSessions,
    private readonly ssoRepo: SsoSessionRepository,
    private readonly families: RefreshFamilyRepository,
    private readonly terminator: SessionTerminator,
    private readonly clock: Clock,
  ) {}

  /**
   * A realm's sessions (spec 4.7), paged with `first`/`max` (pageOf): its SSO sessions, then its
   * OAuth sessions, each oldest first. Offline sessions are listed per user (spec 4.2). The OAuth
   * page is read from the families' (realmId, offline, createdAt) index, offline ones never read.
   */
  async listRealm(realmName: string, page: Page): Promise<SessionView[]> {
    const realm = await this.realms.adminRealm(realmName);
    return pageAcross(page,
      { from: this.ssoRepo.sessions, filter: { realmId: realm.id }, view: ssoView },
      { from: this.families.families, filter: { realmId: realm.id, offline: false }, view: familyView });
  }

  async listUser(realmName: string, userId: string, page: Page): Promise<SessionView[]> {
    const realm = await this.realms.adminRealm(realmName);
    return pageAcross(page,
      { from: this.ssoRepo.sessions, filter: { realmId: realm.id, userId }, view: ssoView },
      { from: this.families.families, filter: { realmId: realm.id, userId, offline: false }, view: familyView });
  }

  /** Spec 3: revokes one session, `type` oauth (default) or sso; 404 when there is none. */
  async revoke(realmName: string, sessionId: string, type: string): Promise<{ type: "oauth" | "sso" }> {
    const realm = await this.realms.adminRealm(realmName);
    const t = type || "oauth";
    if (t !== "oauth" && t !== "sso") throw IamError.invalid("type", "type must be oauth or sso", "invalid_type");
    const recorded = this.adminEvent(realm, { operationType: "DELETE", resourceType: USER_SESSION, resourcePath: `sessions/${sessionId}`, representation: { type: t } });
    if (t === "sso") {
      if (!(await this.sso.end(realm.id, sessionId, "admin", { also: recorded }))) throw IamError.notFound(`session "${sessionId}"`, "session_not_found");
      return { type: "sso" };
    }
    const f = await this.families.get(realm.id, sessionId);
    if (!f || f.offline || !(await this.terminator.revokeFamily(realm, sessionId, true, recorded))) {
      throw IamError.notFound(`session "${sessionId}"`, "session_not_found");
    }
    return { type: "oauth" };
  }

  /**
   * Spec 3: every active (not offline) session of the user, whatever its creation time (the request
   * is handled now, and a bound by this replica's clock could spare a session another replica just
   * stamped); returns how many ended. Its admin event, with the count, is staged with the sessions'
   * ends (SessionTerminator.endAllOfUserStaged): a crash part-way leaves the relay to finish both.
   */
  async revokeUser(realmName: string, userId: string): Promise<number> {
    const realm = await this.realms.adminRealm(realmName);
    return this.terminator.endAllOfUserStaged(realm, userId, "admin", this.clock.now(), { keepOffline: true }, (count, stamp) =>
      this.adminEvent(realm, { operationType: "DELETE", resourceType: USER_SESSION, resourcePath: `users/${userId}/sessions`, representation: { count } })(stamp));
  }

  async listOffline(realmName: string, userId: string, page: Page): Promise<SessionView[]> {
    const realm = await this.realms.adminRealm(realmName);
    const found = await this.families.families.find({ realmId: realm.id, userId, offline: true }, { sort: OLDEST_FIRST, skip: page.first, limit: page.max });
    return found.map(familyView);
  }

  async revokeOffline(realmName: string, userId: string, tokenId: string): Promise<void> {
    const realm = await this.realms.adminRealm(realmName);
    const f = await this.families.get(realm.id, tokenId);
    const recorded = this.adminEvent(realm, { operationType: "DELETE", resourceType: USER_SESSION, resourcePath: `users/${userId}/offline-sessions/${tokenId}` });
    if (!f || !f.offline || f.userId !== userId || !(await this.terminator.revokeFamily(realm, tokenId, true, recorded))) {
      throw IamError.notFound(`offline session "${tokenId}"`, "offline_session_not_found");
    }
  }

  /** The admin event staged with a revocation, under the write's stamp; none when the realm records none. */
  private adminEvent(realm: OAuthRealm, input: Omit<AdminEventInput, "realm">): (stamp: EventStamp) => OutgoingEvent[] {
    return (stamp) => (realm.adminEventsEnabled ? [adminEventMessage("token", { realm: realm.name, ...input }, stamp.time, stamp.id("admin-event"))] : []);
  }
}

interface Listing<T extends Doc> {
  from: Collection<T>;
  filter: Filter;
  view(doc: T): SessionView;
}

/**
 * One page of two listings read as one: all of `a`, then all of `b`. Skip and limit go to the
 * store, so a page costs its own size whatever `first` is; `a` is counted only when the page
 * starts past its end.
 */
async function pageAcross<A extends Doc, B extends Doc>(page: Page, a: Listing<A>, b: Listing<B>): Promise<SessionView[]> {
  const fromA = (await a.from.find(a.filter, { sort: OLDEST_FIRST, skip: page.first, limit: page.max })).map(a.view);
  if (fromA.length === page.max) return fromA;
  const sizeOfA = fromA.length > 0 ? page.first + fromA.length : await a.from.count(a.filter);
  const fromB = await b.from.find(b.filter, { sort: OLDEST_FIRST, skip: Math.max(0, page.first - sizeOfA), limit: page.max - fromA.length });
  return [...fromA, ...fromB.map(b.view)];
}

export function ssoView(s: SsoSessionRecord): SessionView {
  return {
    id: s._id, type: "sso", userId: s.userId, username: s.username, ipAddress: s.ipAddress, start: s.createdAt,
    lastAccess: s.lastSeenAt, expires: s.expiresAt, clients: [...s.clientIds], scope: "", ssoSessionId: s._id,
    ...(s.rememberMe ? { rememberMe: true } : {}),
  };
}

export function familyView(f: RefreshFamilyRecord): SessionView {
  return {
    id: f._id, type: "oauth", userId: f.userId, username: f.username, ipAddress: f.ipAddress, start: f.createdAt,
    lastAccess: f.lastRefreshAt, expires: f.expiresAt, clients: [f.clientId], scope: f.scope, ssoSessionId: f.ssoSessionId,
    ...(f.rememberMe ? { rememberMe: true } : {}),
  };
}
