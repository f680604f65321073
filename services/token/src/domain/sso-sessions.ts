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

  /** Ends every session of a user; returns how many ended. */
  async endAllOfUser(realmId: string, userId: string, reason: SessionEndReason): Promise<number> {
    let n = 0;
    for (const s of await this.repo.listByUser(realmId, userId)) {
      if (await this.end(realmId, s._id, reason)) n++;
    }
    return n;
  }
}
