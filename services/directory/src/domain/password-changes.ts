import type { EventStamp, Outbox, OutboxKind, OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmRecord } from "./realm.js";
import type { CredentialRepository } from "../store/credential-repository.js";
import type { UserEvents } from "../events/user-events.js";

/** What the outbox keeps of a password change until `password.changed` is out (never the password or its hash). */
interface PasswordChangeSnapshot {
  realmId: string;
  realmName: string;
  userId: string;
  temporary: boolean;
  /** The new credential's `createdAt`: how the relay tells whether it was stored. */
  createdAt: number;
}

/**
 * A password set by an admin's reset or by its user (the UPDATE_PASSWORD action, the account
 * change), announced: on `password.changed` the token service ends the sessions and revokes the
 * tokens from before it. The event is staged in the outbox before the password is stored, so a
 * crash in between still announces it (outbox.ts).
 */
export class PasswordChanges {
  private readonly kind: OutboxKind<PasswordChangeSnapshot> = {
    name: "directory.password-changed",
    // This password or a later one is stored: either way, what came before it must end.
    applied: async (s) => ((await this.credentials.findPassword(s.realmId, s.userId))?.createdAt ?? -Infinity) >= s.createdAt,
  };

  constructor(
    private readonly credentials: CredentialRepository,
    private readonly events: UserEvents,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.kind);
  }

  /**
   * Runs `write`, which stores the user's password created at `createdAt`, and announces it, with
   * `also` (an admin reset's admin event) staged beside it.
   */
  async change(realm: RealmRecord, userId: string, temporary: boolean, also: ((stamp: EventStamp) => OutgoingEvent[]) | undefined, write: (createdAt: number) => Promise<void>): Promise<void> {
    const createdAt = this.clock.now();
    const snapshot: PasswordChangeSnapshot = { realmId: realm._id, realmName: realm.name, userId, temporary, createdAt };
    await this.outbox.write({
      kind: this.kind,
      snapshot,
      announce: (s, stamp) => [this.events.passwordChangedEvent({ _id: s.realmId, name: s.realmName }, s.userId, s.temporary, stamp.id("event")), ...(also?.(stamp) ?? [])],
      apply: async () => {
        await write(createdAt);
        return snapshot;
      },
    });
  }
}
