import type { EventStamp, Outbox, OutboxKind, OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import type { AlsoAnnounce, SsoSessions } from "./sso-sessions.js";
import type { SessionEndReason } from "../events/session-events.js";
import type { RefreshFamilyRepository } from "../store/refresh-family-repository.js";
import type { RevokedTokenRepository } from "../store/revoked-token-repository.js";
import type { BackchannelLogout, LogoutTarget } from "./backchannel-logout.js";
import { realmScopeOf, type RealmScope } from "./realm-scope.js";
import type { RefreshFamilyRecord } from "./refresh-family.js";
import type { SsoSessionRecord } from "./sso-session.js";

/** Which of a user's sessions SessionTerminator.endAllOfUser ends (all, by default). */
export interface UserSessionSelection {
  /** Keep the offline sessions (admin revoke-all, spec 4.7). */
  keepOffline?: boolean;
  /**
   * End only the SSO sessions and refresh families created at or before this time (epoch ms): the
   * time of the event that ends them (password changed, user disabled). One handled late must not
   * end a session the user started after the change (the login that ran UPDATE_PASSWORD, or one
   * after the user was enabled again), as its not-before mark spares the tokens issued after it.
   */
  createdUpTo?: number;
}

/** What the outbox keeps of a family's revocation until its client is told (no token). */
interface FamilyRevocationSnapshot {
  realmId: string;
  realmName: string;
  familyId: string;
  target: LogoutTarget;
}

/** A user's sessions, listed before any of them ends. */
interface UserSessions {
  sso: SsoSessionRecord[];
  families: RefreshFamilyRecord[];
}

/**
 * What the outbox keeps of an admin's revoke-all (spec 4.7) until its admin event is out: the
 * sessions it lists, by id, and the time of the user's not-before mark. `ended`: the count, once
 * the call has ended them.
 */
interface UserSessionsEndSnapshot {
  realmId: string;
  realmName: string;
  userId: string;
  reason: SessionEndReason;
  at: number;
  ssoSessionIds: string[];
  familyIds: string[];
  ended?: number;
}

/**
 * Ending OAuth sessions (refresh families) and SSO sessions together: an SSO session goes through
 * SsoSessions (which announces it; the `sso-session.ended` consumer calls onSsoSessionEnded), a
 * family without one is revoked here and its client told over the back channel at once.
 */
export class SessionTerminator {
  /** The relay tells the client of a revocation a crash interrupted: the back-channel logout is all it owes. */
  private readonly revocationKind: OutboxKind<FamilyRevocationSnapshot> = {
    name: "token.family-revoked",
    applied: async (s) => (await this.families.get(s.realmId, s.familyId)) === null,
    finish: (s) => this.backchannel.notify(realmScopeOf(s.realmId, s.realmName), [s.target]),
  };

  /**
   * An admin's revoke-all is many writes with one admin event; a crash part-way used to keep the
   * sessions it had ended and lose the event. Staged, the relay finishes what the call had left
   * and then announces. Begun means something of it shows: a listed session gone, or the user's
   * not-before mark at its time. Nothing shows when the crash came before any write, and then the
   * admin, who got no answer, retries.
   */
  private readonly userSessionsKind: OutboxKind<UserSessionsEndSnapshot> = {
    name: "token.user-sessions-ended",
    applied: async (s) => {
      const left = await this.listed(s);
      if (left.sso.length < s.ssoSessionIds.length || left.families.length < s.familyIds.length) return true;
      return ((await this.revoked.notBeforeOf(s.realmId, { kind: "user", id: s.userId })) ?? -Infinity) >= s.at;
    },
    finish: async (s) => {
      await this.endListed(realmScopeOf(s.realmId, s.realmName), s.userId, s.reason, s.at, await this.listed(s));
    },
  };

  constructor(
    private readonly families: RefreshFamilyRepository,
    private readonly sso: SsoSessions,
    private readonly backchannel: BackchannelLogout,
    private readonly revoked: RevokedTokenRepository,
    private readonly outbox: Outbox,
  ) {
    outbox.register(this.revocationKind);
    outbox.register(this.userSessionsKind);
  }

  /**
   * Revokes one family; with `notify`, tells its client over the back channel (when no SSO session
   * will). The telling is staged in the outbox before the family goes, so a crash in between still
   * tells it (outbox.ts); null when the family was already gone (whoever removed it told). `also`
   * (with `notify`): events staged with it, published only if this call revokes it.
   */
  async revokeFamily(realm: RealmScope, familyId: string, notify = true, also?: AlsoAnnounce): Promise<RefreshFamilyRecord | null> {
    if (!notify) return this.families.remove(realm.id, familyId);
    const family = await this.families.get(realm.id, familyId);
    if (!family) return null;
    let removed = null as RefreshFamilyRecord | null;
    await this.outbox.write<FamilyRevocationSnapshot>({
      kind: this.revocationKind,
      snapshot: { realmId: realm.id, realmName: realm.name, familyId, target: targetOf(family) },
      announce: (_s, stamp) => also?.(stamp) ?? [],
      apply: async (): Promise<FamilyRevocationSnapshot | null> => {
        removed = await this.families.remove(realm.id, familyId);
        return removed && { realmId: realm.id, realmName: realm.name, familyId, target: targetOf(removed) };
      },
      rest: (s) => this.backchannel.notify(realm, [s.target]),
    });
    return removed;
  }

  /**
   * Logout with a refresh token (spec 3): the family ends, and its SSO session with it. The session
   * first: its end is staged in the outbox and its consumer removes the session's families, so a
   * crash after it still logs out; one before it leaves the token usable for the client's retry.
   * This family goes with the session's end, before the announcement, so the token is inactive
   * when the call answers even where the consumer runs later (a cluster). Its client is told with
   * the session's clients; one the session does not name (a device's) is told here first, as the
   * consumer would have (a crash in between tells it twice, as there). Without a session to end
   * (offline, sessionless, or ended already) the family's revocation is staged instead, with its
   * back-channel logout. `also` (the LOGOUT event) goes with whichever this call does; nothing
   * when another request ended both first.
   */
  async logout(realm: RealmScope, family: RefreshFamilyRecord, also?: AlsoAnnounce): Promise<void> {
    const withFamily = async (ended: SsoSessionRecord) => {
      if (!ended.clientIds.includes(family.clientId)) await this.backchannel.notify(realm, [targetOf(family)]);
      await this.families.remove(realm.id, family._id);
    };
    if (family.ssoSessionId && !family.offline && await this.sso.end(realm.id, family.ssoSessionId, "logout", { also, alongside: withFamily })) return;
    await this.revokeFamily(realm, family._id, true, also);
  }

  /** The consumer of `sso-session.ended`: the session's online families end, its clients are told. */
  async onSsoSessionEnded(realm: RealmScope, sessionId: string, userId: string, clientIds: string[]): Promise<number> {
    const families = await this.families.list({ realmId: realm.id, ssoSessionId: sessionId, offline: false });
    // Told before the families go: after a crash in between, the event's redelivery lists them
    // again and tells again (a client may hear a logout twice), where the other order told nobody.
    await this.backchannel.notify(realm, [
      ...clientIds.map((clientId) => ({ clientId, userId, sid: sessionId })),
      ...families.map(targetOf),
    ]);
    for (const f of families) await this.families.remove(realm.id, f._id);
    return families.length;
  }

  /**
   * Ends the sessions of a user (user deleted or disabled, password changed, admin revoke-all):
   * SSO sessions, and refresh families including offline ones unless `keepOffline`, all of them or
   * those created up to `createdUpTo` (UserSessionSelection); and revokes every access token issued
   * to the user up to `at` (the event's time), which is all that ends the tokens no session holds
   * (password grant without refresh tokens, client_credentials of a service account), as Keycloak's
   * "not before" of a user does. Returns how many sessions ended (spec 4.7: the count the listing
   * showed). The families are listed before the SSO sessions end: an online family is then counted
   * whether this call removes it or the `sso-session.ended` consumer got there first (at once in
   * process, later over NATS). A family started after `createdUpTo` in an SSO session that ends
   * here is not listed; it ends with its session (onSsoSessionEnded), uncounted.
   */
  async endAllOfUser(realm: RealmScope, userId: string, reason: SessionEndReason, at: number, select: UserSessionSelection = {}): Promise<number> {
    return this.endListed(realm, userId, reason, at, await this.sessionsOf(realm, userId, select));
  }

  /**
   * endAllOfUser for an admin's revoke-all (spec 4.7), staged in the outbox with `also`, the
   * events built from the count (its admin event): a crash part-way leaves the relay to end the
   * rest of the listed sessions and announce them (userSessionsKind). The staged copy counts the
   * listed sessions; the published one, those that ended.
   */
  async endAllOfUserStaged(
    realm: RealmScope, userId: string, reason: SessionEndReason, at: number, select: UserSessionSelection,
    also: (ended: number, stamp: EventStamp) => OutgoingEvent[],
  ): Promise<number> {
    const listed = await this.sessionsOf(realm, userId, select);
    const snapshot: UserSessionsEndSnapshot = {
      realmId: realm.id, realmName: realm.name, userId, reason, at,
      ssoSessionIds: listed.sso.map((s) => s._id), familyIds: listed.families.map((f) => f._id),
    };
    const written = await this.outbox.write({
      kind: this.userSessionsKind,
      snapshot,
      announce: (s, stamp) => also(s.ended ?? s.ssoSessionIds.length + s.familyIds.length, stamp),
      apply: async () => ({ ...snapshot, ended: await this.endListed(realm, userId, reason, at, listed) }),
    });
    return written?.ended ?? 0;
  }

  /** The families are listed before the SSO sessions end (endAllOfUser). */
  private async sessionsOf(realm: RealmScope, userId: string, select: UserSessionSelection): Promise<UserSessions> {
    const families = await this.families.list({
      realmId: realm.id, userId, ...(select.keepOffline ? { offline: false } : {}),
      ...(select.createdUpTo !== undefined ? { createdUpTo: select.createdUpTo } : {}),
    });
    return { families, sso: await this.sso.repo.listByUser(realm.id, userId, select.createdUpTo) };
  }

  /** What is left of a staged revoke-all's list. */
  private async listed(s: UserSessionsEndSnapshot): Promise<UserSessions> {
    return {
      sso: await this.sso.repo.listByIds(s.realmId, s.ssoSessionIds),
      families: await this.families.listByIds(s.realmId, s.familyIds),
    };
  }

  private async endListed(realm: RealmScope, userId: string, reason: SessionEndReason, at: number, listed: UserSessions): Promise<number> {
    let n = 0;
    for (const s of listed.sso) if (await this.sso.end(realm.id, s._id, reason, { known: s })) n++;
    const online = (f: RefreshFamilyRecord): boolean => Boolean(f.ssoSessionId) && !f.offline;
    // The families no SSO session's end tells of are told before they go, as in onSsoSessionEnded:
    // this runs in the consumers of user.*, whose redelivery after a crash then tells them again.
    await this.backchannel.notify(realm, listed.families.filter((f) => !online(f)).map(targetOf));
    for (const f of listed.families) {
      if (await this.families.remove(realm.id, f._id)) n++;
      else if (online(f)) n++; // ended with its SSO session just now
    }
    // Last, so a token seen inactive for it means the sessions have ended too.
    await this.revoked.revokeIssuedUpTo(realm.id, { kind: "user", id: userId }, at);
    return n;
  }

  /**
   * A client was deleted or disabled at `at` (RFC 6749 section 10.4; Keycloak drops a deleted
   * client's user and offline sessions): every access token issued to it up to then is revoked,
   * and its refresh families (OAuth and offline sessions) started up to then end, so neither the
   * client re-enabled nor a new client of the same clientId can use them. A family started later
   * belongs to the re-enabled or re-created client (the event may arrive late). Nobody is told
   * over the back channel: the client is gone or disabled. Returns how many families ended.
   */
  async endAllOfClient(realm: RealmScope, clientId: string, at: number): Promise<number> {
    const n = await this.families.removeClient(realm.id, clientId, at);
    await this.revoked.revokeIssuedUpTo(realm.id, { kind: "client", id: clientId }, at);
    return n;
  }
}

function targetOf(f: RefreshFamilyRecord): LogoutTarget {
  return { clientId: f.clientId, userId: f.userId, sid: f.sid };
}
