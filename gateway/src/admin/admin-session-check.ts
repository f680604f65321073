import type { AdminAccount } from "../../../gen/iam/directory/v1/admin_account_pb.js";
import { ReadCache } from "../../../services/kit/src/read-cache.js";
import type { RpcClients } from "../rpc-clients.js";

/**
 * How long this gateway trusts that an admin session is going and what its admin may do: a
 * sign-out or a change to an admin through this gateway is seen at once (`forget`, `forgetAll`),
 * one through another replica or a password reset within this bound.
 */
export const ADMIN_SESSION_CHECK_MS = 5_000;

/** The admin of the session an admin JWT names, while that session exists (the directory's admin sessions). */
export class AdminSessionCheck {
  private readonly cache = new ReadCache<AdminAccount>(ADMIN_SESSION_CHECK_MS);

  constructor(private readonly rpc: Pick<RpcClients, "adminAccounts">) {}

  /** The session's admin as it is now, or null: the session ended or the account is gone. */
  admin(sessionId: string): Promise<AdminAccount | null> {
    // Only a going session is kept (ReadCache keeps no null): an ended one is asked again.
    return this.cache.get(sessionId, async () => {
      const res = await this.rpc.adminAccounts.checkAdminSession({ sessionId });
      return res.active && res.admin ? res.admin : null;
    });
  }

  async active(sessionId: string): Promise<boolean> {
    return (await this.admin(sessionId)) !== null;
  }

  forget(sessionId: string): void {
    this.cache.drop(sessionId);
  }

  /** After a change to any admin through this gateway: every session's admin is read again. */
  forgetAll(): void {
    this.cache.dropWhere("");
  }
}
