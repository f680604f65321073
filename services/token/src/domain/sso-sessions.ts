import type { EventStamp, OutboxKind, Outbox, OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { SsoSessionRepository } from "../store/sso-session-repository.js";
import type { SsoSessionRecord } from "./sso-session.js";
import { ssoSessionEndedEvent, type SessionEndReason } from "../events/session-events.js";

/** Events a caller stages with a session's end or a family's revocation, built with the write's stamp. */
export type AlsoAnnounce = (stamp: EventStamp) => OutgoingEvent[];

/** What a caller may give with a session's end (SsoSessions.end). */
export interface SessionEnd {
  /** The record as the caller already read it, which saves the read the outbox entry is built from. */
  known?: SsoSessionRecord;
  /** Events staged and published with the end, only if this call ends it (a logout's LOGOUT). */
  also?: AlsoAnnounce;
  /**
   * A write made with the end, before it is announced, only if this call ends it (a logout's own
   * refresh family): on SQLite it shares the end's commit and flush.
   */
  alongside?: (ended: SsoSessionRecord) => Promise<unknown>;
}

/** What the outbox keeps of an ending session until `sso-session.ended` is out (not its cookie hash). */
type EndedSessionSnapshot = Pick<SsoSessionRecord, "_id" | "realmId" | "realmName" | "userId" | "clientIds"> & { reason: SessionEndReason };

/**
 * Ending SSO sessions: the one path for every reason (logout, admin revoke, user deleted or
 * disabled, password reset). Removing the record is atomic, so only the caller that removed it
 * publishes `sso-session.ended`; consumers revoke its refresh tokens and send back-channel logouts.
 * The event is staged in the outbox before the record goes (outbox.ts), so a crash in
 * between still announces it: without that, the session's refresh tokens stayed stored and its
 * clients never heard the back-channel logout.
 */
export class SsoSessions {
  /** The relay only announces an interrupted end: the consumer does the rest. */
  private readonly kind: OutboxKind<EndedSessionSnapshot> = {
    name: "token.sso-session",
    applied: async (s) => (await this.repo.findById(s.realmId, s._id)) === null,
  };

  constructor(readonly repo: SsoSessionRepository, private readonly outbox: Outbox, private readonly clock: Clock) {
    outbox.register(this.kind);
  }

  /** Ends the session; returns its record as removed, or null when it had already ended. */
  async end(realmId: string, sessionId: string, reason: SessionEndReason, { known, also, alongside }: SessionEnd = {}): Promise<SsoSessionRecord | null> {
    const before = known ?? await this.repo.findById(realmId, sessionId);
    if (!before || before.realmId !== realmId || before._id !== sessionId) return null;
    let removed = null as SsoSessionRecord | null;
    await this.outbox.write({
      kind: this.kind,
      snapshot: { _id: before._id, realmId, realmName: before.realmName, userId: before.userId, clientIds: before.clientIds, reason },
      // From the record taken when there is one: a client may have joined the session since it was read.
      announce: (s, stamp) => [ssoSessionEndedEvent(s, s.reason, stamp.time, stamp.id("event")), ...(also?.(stamp) ?? [])],
      apply: async () => {
        removed = await this.repo.remove(realmId, sessionId);
        if (removed) await alongside?.(removed);
        return removed && { _id: removed._id, realmId, realmName: removed.realmName, userId: removed.userId, clientIds: removed.clientIds, reason };
      },
    });
    return removed;
  }

  /**
   * A client was deleted: its sessions stay, without it (Keycloak drops a removed client's entry
   * from every user session). Their listing (spec 4.7) then names no client that no longer exists,
   * and their end sends no back-channel logout to it, or to a client later created under its
   * clientId, which never took part in them. Returns how many sessions named it.
   */
  forgetClient(realmId: string, clientId: string): Promise<number> {
    return this.repo.forgetClient(realmId, clientId);
  }
}
