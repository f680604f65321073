import type { Bus } from "../../../kit/src/bus/port.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { SsoSessionRepository } from "../store/sso-session-repository.js";
import type { SsoSessionRecord } from "./sso-session.js";
import { publishSsoSessionEnded, type SessionEndReason } from "../events/session-events.js";

/**
 * Ending SSO sessions: the one path for every reason (logout, admin revoke, user deleted or
 * disabled, password reset). Removing the record is atomic, so only the caller that removed it
 * publishes `sso-session.ended`; consumers revoke its refresh tokens and send back-channel logouts.
 */
export class SsoSessions {
  constructor(readonly repo: SsoSessionRepository, private readonly bus: Bus, private readonly clock: Clock) {}

  async end(realmId: string, sessionId: string, reason: SessionEndReason): Promise<SsoSessionRecord | null> {
    const removed = await this.repo.remove(realmId, sessionId);
    if (removed) await publishSsoSessionEnded(this.bus, removed, reason, this.clock.now());
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

  /** Ends every session of a user, or only those created at or before `createdUpTo`; returns how many ended. */
  async endAllOfUser(realmId: string, userId: string, reason: SessionEndReason, createdUpTo?: number): Promise<number> {
    let n = 0;
    for (const s of await this.repo.listByUser(realmId, userId, createdUpTo)) {
      if (await this.end(realmId, s._id, reason)) n++;
    }
    return n;
  }
}
