import type { SsoSessions } from "./sso-sessions.js";
import type { SessionEndReason } from "../events/session-events.js";
import type { RefreshFamilyRepository } from "../store/refresh-family-repository.js";
import type { BackchannelLogout, LogoutTarget } from "./backchannel-logout.js";
import type { RealmScope } from "./realm-scope.js";
import type { RefreshFamilyRecord } from "./refresh-family.js";

/**
 * Ending OAuth sessions (refresh families) and SSO sessions together: an SSO session goes through
 * SsoSessions (which announces it; the `sso-session.ended` consumer calls onSsoSessionEnded), a
 * family without one is revoked here and its client told over the back channel at once.
 */
export class SessionTerminator {
  constructor(
    private readonly families: RefreshFamilyRepository,
    private readonly sso: SsoSessions,
    private readonly backchannel: BackchannelLogout,
  ) {}

  /** Revokes one family; notifies its client when no SSO session will do it. */
  async revokeFamily(realm: RealmScope, familyId: string, notify = true): Promise<RefreshFamilyRecord | null> {
    const removed = await this.families.remove(realm.id, familyId);
    if (removed && notify) await this.backchannel.notify(realm, [targetOf(removed)]);
    return removed;
  }

  /** Logout with a refresh token (spec 3): the family ends, and its SSO session with it. */
  async logout(realm: RealmScope, family: RefreshFamilyRecord): Promise<void> {
    await this.families.remove(realm.id, family._id);
    const ended = family.ssoSessionId && !family.offline ? await this.sso.end(realm.id, family.ssoSessionId, "logout") : null;
    // The sso-session.ended consumer notifies the session's clients; this one must hear of it too.
    if (!ended) await this.backchannel.notify(realm, [targetOf(family)]);
  }

  /** The consumer of `sso-session.ended`: the session's online families end, its clients are told. */
  async onSsoSessionEnded(realm: RealmScope, sessionId: string, userId: string, clientIds: string[]): Promise<number> {
    const families = await this.families.list({ realmId: realm.id, ssoSessionId: sessionId, offline: false });
    for (const f of families) await this.families.remove(realm.id, f._id);
    const targets: LogoutTarget[] = [
      ...clientIds.map((clientId) => ({ clientId, userId, sid: sessionId })),
      ...families.map(targetOf),
    ];
    await this.backchannel.notify(realm, targets);
    return families.length;
  }

  /**
   * Ends every session of a user (user deleted or disabled, password changed, admin revoke-all):
   * SSO sessions, and refresh families including offline ones unless `keepOffline`. Returns how
   * many sessions ended (spec 4.7: the count the listing showed). The families are listed before
   * the SSO sessions end: an online family is then counted whether this call removes it or the
   * `sso-session.ended` consumer got there first (at once in process, later over NATS).
   */
  async endAllOfUser(realm: RealmScope, userId: string, reason: SessionEndReason, keepOffline = false): Promise<number> {
    const families = await this.families.list({ realmId: realm.id, userId, ...(keepOffline ? { offline: false } : {}) });
    let n = await this.sso.endAllOfUser(realm.id, userId, reason);
    const notify: LogoutTarget[] = [];
    for (const f of families) {
      const online = Boolean(f.ssoSessionId) && !f.offline;
      if (!(await this.families.remove(realm.id, f._id))) {
        if (online) n++; // ended with its SSO session just now
        continue;
      }
      n++;
      if (!online) notify.push(targetOf(f));
    }
    await this.backchannel.notify(realm, notify);
    return n;
  }
}

function targetOf(f: RefreshFamilyRecord): LogoutTarget {
  return { clientId: f.clientId, userId: f.userId, sid: f.sid };
}
