import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import { randomToken } from "../../../kit/src/crypto/random.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { AdminSessionRepository } from "../store/admin-session-repository.js";
import type { AdminAccountRecord } from "../store/admin-account-repository.js";

/**
 * Server-side sessions of admin sign-ins (spec 4.14's login, the console's renewal): what makes an
 * admin refresh token revocable. Each renewal rotates the refresh id atomically, so a refresh
 * token works once; a used one presented again means two holders, and the session ends (RFC 9700
 * section 4.14.2, refresh token rotation). Sign-out ends it, and so does a reset of the admin's
 * password (every session of that admin).
 */
export class AdminSessions {
  constructor(
    private readonly repo: AdminSessionRepository,
    private readonly account: (id: string) => Promise<AdminAccountRecord | null>,
    private readonly clock: Clock,
  ) {}

  async start(adminId: string, expiresAt: number): Promise<{ sessionId: string; refreshId: string }> {
    if (!adminId) throw IamError.invalid("admin_id", "admin_id is required");
    if (!(await this.account(adminId))) throw IamError.notFound(`admin "${adminId}"`, "admin_not_found");
    const session = { _id: randomUUID(), adminId, refreshId: randomToken(), createdAt: this.clock.now(), expiresAt };
    await this.repo.insert(session);
    return { sessionId: session._id, refreshId: session.refreshId };
  }

  /** The next refresh id and the account, or unauthenticated: ended, expired, reused or the account gone. */
  async renew(sessionId: string, refreshId: string, expiresAt: number): Promise<{ refreshId: string; admin: AdminAccountRecord }> {
    const refused = () => IamError.unauthenticated("the refresh token is not valid or has expired; log in again", "invalid_refresh_token");
    if (!sessionId || !refreshId) throw refused();
    const next = randomToken();
    const rotated = await this.repo.rotate(sessionId, refreshId, next, expiresAt);
    if (!rotated) {
      // A refresh id this session no longer holds: a copy of a used token. End the session, so
      // neither holder goes on with it.
      await this.repo.delete(sessionId);
      throw refused();
    }
    const admin = await this.account(rotated.adminId);
    if (!admin) {
      await this.repo.delete(sessionId);
      throw refused();
    }
    return { refreshId: next, admin };
  }

  end(sessionId: string): Promise<boolean> {
    return sessionId ? this.repo.delete(sessionId) : Promise.resolve(false);
  }

  /** The admin of a going session, as it is now; null when the session or the account is gone. */
  async activeAdmin(sessionId: string): Promise<AdminAccountRecord | null> {
    const session = sessionId === "" ? null : await this.repo.get(sessionId);
    return session ? this.account(session.adminId) : null;
  }

  /** Every session of one admin (a password reset). */
  endAllOf(adminId: string): Promise<number> {
    return this.repo.deleteOfAdmin(adminId);
  }
}
