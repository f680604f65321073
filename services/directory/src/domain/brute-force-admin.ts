import { IamError } from "../../../kit/src/errors.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { BruteForce } from "./brute-force.js";
import type { UserRepository } from "../store/user-repository.js";
import type { Outbox, OutboxKind } from "../../../kit/src/bus/outbox.js";
import { auditedWrite } from "./audited-write.js";

export interface LockedUserView {
  userId: string;
  username: string;
  failureCount: number;
  lastFailure: number;
  /** Epoch ms; 0 for a permanent lockout. */
  lockedUntil: number;
  permanent: boolean;
  temporaryLockouts: number;
}

/** Brute-force administration (spec 3, 4.13): list locked users, unlock one (204). */
export class BruteForceAdmin {
  /** An unlock, as the relay finds it: the user's failure record gone. */
  private readonly unlockKind: OutboxKind<{ realmId: string; userId: string }> = {
    name: "directory.unlock",
    applied: async (s) => !(await this.bruteForce.hasRecord(s.realmId, s.userId)),
  };

  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly bruteForce: BruteForce,
    private readonly outbox: Outbox,
  ) {
    outbox.register(this.unlockKind);
  }

  async lockedUsers(realmName: string): Promise<LockedUserView[]> {
    const realm = await this.realms.byName(realmName);
    const records = await this.bruteForce.locked(realm);
    const names = new Map((await this.users.findByIds(realm._id, records.map((r) => r.userId))).map((u) => [u._id, u.username]));
    return records.filter((r) => names.has(r.userId)).map((r) => ({
      userId: r.userId, username: names.get(r.userId) as string, failureCount: r.failureCount, lastFailure: r.lastFailure,
      lockedUntil: r.permanent ? 0 : r.lockedUntil, permanent: r.permanent, temporaryLockouts: r.temporaryLockouts,
    }));
  }

  /** Unlocks (idempotent for a user that is not locked); 404 for an unknown user. */
  async unlock(realmName: string, userId: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    const user = userId ? await this.users.findById(realm._id, userId) : null;
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    // It gives a locked-out user access back, so its admin event is staged with it (auditedWrite).
    await auditedWrite(this.outbox, this.unlockKind, realm, { realmId: realm._id, userId: user._id },
      { operationType: "ACTION", resourceType: "USER", path: `brute-force/users/${user._id}/unlock` }, async () => {
        await this.bruteForce.unlock(realm, user._id);
        return true;
      });
  }
}
