import type { Outbox, OutboxKind } from "../../../kit/src/bus/outbox.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmRecord } from "./realm.js";
import type { UserRepository } from "../store/user-repository.js";
import type { UserEvents } from "../events/user-events.js";

/** What the outbox keeps of a user's disabling until `user.disabled` is out. */
interface UserDisableSnapshot {
  realmId: string;
  realmName: string;
  userId: string;
}

/**
 * Disabling a user (the Admin API's update, a permanent lockout) and announcing it: on
 * `user.disabled` the token service ends the user's sessions and revokes their tokens. The event
 * is staged in the outbox before the write, so a crash in between still announces it
 * (outbox.ts); a user enabled again by then is not announced.
 */
export class UserDisabling {
  private readonly kind: OutboxKind<UserDisableSnapshot> = {
    name: "directory.user-disabled",
    applied: async (s) => (await this.users.findById(s.realmId, s.userId))?.enabled === false,
  };

  constructor(
    private readonly users: UserRepository,
    private readonly events: UserEvents,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.kind);
  }

  /** Runs `write`, which disables the user and says whether it found them, and announces it. */
  async disable(realm: RealmRecord, userId: string, write: () => Promise<boolean>): Promise<boolean> {
    const snapshot: UserDisableSnapshot = { realmId: realm._id, realmName: realm.name, userId };
    const done = await this.outbox.write({
      kind: this.kind,
      snapshot,
      announce: (s, stamp) => [this.events.disabledEvent({ _id: s.realmId, name: s.realmName }, s.userId, stamp.id("event"))],
      apply: async () => ((await write()) ? snapshot : null),
    });
    return done !== null;
  }
}
