import type { OutboxKind, Outbox } from "../../../kit/src/bus/outbox.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmRecord } from "./realm.js";
import type { UserRepository } from "../store/user-repository.js";
import type { CredentialRepository } from "../store/credential-repository.js";
import type { OrganizationMemberRepository } from "../store/organization-member-repository.js";
import type { MembershipRepository } from "../store/membership-repository.js";
import type { RoleMappingReader } from "../store/role-mapping-reader.js";
import type { UserEvents } from "../events/user-events.js";
import { directoryAdminEvent } from "../events/directory-admin-events.js";

/** What the outbox keeps of a user removal until it is announced. */
interface UserRemovalSnapshot {
  realmId: string;
  realmName: string;
  userId: string;
  /** The Admin API's delete in a realm that records admin events: the DELETE event goes out too. */
  adminEvent: boolean;
}

/**
 * Removing a user and what the directory keeps of it (spec 4.2 "Delete user"): the record, its
 * password and history, its group memberships (spec 4.6), its organization memberships (spec 1.13) and role mappings (spec 4.5), then
 * `user.deleted`, on which its TOTP, recovery codes and brute-force records go
 * (authentication-cascade.ts) and the token service ends its sessions and revokes its tokens.
 * The one path for the Admin API's delete and for a client's service-account user, deleted with
 * its client or its client_credentials grant (spec 4.3), so neither leaves a membership or a
 * mapping naming a user that no longer exists.
 */
export class UserRemoval {
  /** How the outbox's relay finishes a removal a crash interrupted: the rest, then the announcement. */
  private readonly kind: OutboxKind<UserRemovalSnapshot> = {
    name: "directory.user",
    applied: async (s) => (await this.users.findById(s.realmId, s.userId)) === null,
    finish: (s) => this.dropRest(s.realmId, s.userId),
  };

  constructor(
    private readonly users: UserRepository,
    private readonly credentials: CredentialRepository,
    private readonly memberships: MembershipRepository,
    private readonly roleMappings: RoleMappingReader,
    private readonly events: UserEvents,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly organizationMembers?: OrganizationMemberRepository,
  ) {
    outbox.register(this.kind);
  }

  /**
   * Removes the user; false when it was already gone. `adminEvent`: the Admin API's delete, whose
   * DELETE admin event goes out with `user.deleted` (spec 6.2).
   *
   * `user.deleted` (and the admin event) are staged in the outbox first, so a crash after the
   * record went still announces them (outbox.ts). The record goes next, atomically, so of
   * two concurrent removals one does the rest and announces it, and no reader (the token service's
   * service-account cache, refilled when `user.deleted` drops it) can find the user once it is
   * announced. If the rest fails (the bus down), the record is put back before the error goes out,
   * so the admin's retry finds the user and finishes: without that the retry was 404 and
   * `user.deleted` never went out, leaving the user's sessions and tokens alive. What the rest
   * already removed stays removed; the user is on its way out.
   */
  async remove(realm: RealmRecord, userId: string, options: { adminEvent?: boolean } = {}): Promise<boolean> {
    const user = await this.users.findById(realm._id, userId);
    if (!user) return false;
    const snapshot: UserRemovalSnapshot = { realmId: realm._id, realmName: realm.name, userId, adminEvent: options.adminEvent === true };
    const removed = await this.outbox.write({
      kind: this.kind,
      snapshot,
      announce: (s, stamp) => [
        this.events.deletedEvent({ _id: s.realmId, name: s.realmName }, s.userId, stamp.id("event")),
        ...(s.adminEvent ? directoryAdminEvent(realm, "DELETE", "USER", `users/${s.userId}`, stamp) : []),
      ],
      apply: async () => ((await this.users.deleteById(realm._id, userId)) ? snapshot : null),
      rest: () => this.dropRest(realm._id, userId),
      undo: () => this.users.insert(user).catch(() => undefined), // taken meanwhile: the retry is 404 then
    });
    return removed !== null;
  }

  /** The user's password, memberships and role mappings; idempotent (the relay may run it again). */
  private async dropRest(realmId: string, userId: string): Promise<void> {
    await this.credentials.deleteUser(realmId, userId);
    await this.memberships.deleteWhere({ realmId, userId });
    await this.organizationMembers?.deleteUser(realmId, userId);
    await this.roleMappings.deleteHolders(realmId, "user", [userId]);
  }
}
