import { ReadCache } from "../../../services/kit/src/read-cache.js";
import type { RpcClients } from "../rpc-clients.js";

/**
 * How long this gateway trusts that an admin session is going: a sign-out through this gateway
 * is seen at once (`forget`), one through another replica or a password reset within this bound.
 */
export const ADMIN_SESSION_CHECK_MS = 5_000;

/** Whether the session an admin JWT names still exists (the directory's admin sessions). */
export class AdminSessionCheck {
  private readonly cache = new ReadCache<true>(ADMIN_SESSION_CHECK_MS);

  constructor(private readonly rpc: Pick<RpcClients, "adminAccounts">) {}

  async active(sessionId: string): Promise<boolean> {
    // Only a going session is kept (ReadCache keeps no null): an ended one is asked again.
    const going = await this.cache.get(sessionId, async () =>
      ((await this.rpc.adminAccounts.checkAdminSession({ sessionId })).active ? true : null));
    return going === true;
  }

  forget(sessionId: string): void {
    this.cache.drop(sessionId);
  }
}
