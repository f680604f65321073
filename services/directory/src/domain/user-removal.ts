import type { RealmRecord } from "./realm.js";
import type { UserRepository } from "../store/user-repository.js";
import type { CredentialRepository } from "../store/credential-repository.js";
import type { MembershipRepository } from "../store/membership-repository.js";
import type { RoleMappingReader } from "../store/role-mapping-reader.js";
import type { UserEvents } from "../events/user-events.js";

/**
 * Removing a user and what the directory keeps of it (spec 4.2 "Delete user"): the record, its
 * password and history, its group memberships (spec 4.6) and role mappings (spec 4.5), then
 * `user.deleted`, on which its TOTP, recovery codes and brute-force records go
 * (authentication-cascade.ts) and the token service ends its sessions and revokes its tokens.
 * The one path for the Admin API's delete and for a client's service-account user, deleted with
 * its client or its client_credentials grant (spec 4.3), so neither leaves a membership or a
 * mapping naming a user that no longer exists.
 */
export class UserRemoval {
  constructor(
    private readonly users: UserRepository,
    private readonly credentials: CredentialRepository,
    private readonly memberships: MembershipRepository,
    private readonly roleMappings: RoleMappingReader,
    private readonly events: UserEvents,
  ) {}

  /**
   * Removes the user; false when it was already gone. The record goes first, atomically, so of two
   * concurrent removals one does the rest and announces it, and no reader (the token service's
   * service-account cache, refilled when `user.deleted` drops it) can find the user once it is
   * announced. If the rest fails (the bus down), the record is put back before the error goes out,
   * so the admin's retry finds the user and finishes: without that the retry was 404 and
   * `user.deleted` never went out, leaving the user's sessions and tokens alive. What the rest
   * already removed stays removed; the user is on its way out. A crash in between still loses
   * the announcement (the bus is published to after the write, DESIGN 3; there is no outbox).
   */
  async remove(realm: RealmRecord, userId: string): Promise<boolean> {
    const user = await this.users.findById(realm._id, userId);
    if (!user || !(await this.users.deleteById(realm._id, userId))) return false;
    try {
      await this.credentials.deleteUser(realm._id, userId);
      await this.memberships.deleteWhere({ realmId: realm._id, userId });
      await this.roleMappings.deleteHolders(realm._id, "user", [userId]);
      await this.events.deleted(realm, userId);
    } catch (e) {
      await this.users.insert(user).catch(() => undefined); // taken meanwhile: the retry is 404 then
      throw e;
    }
    return true;
  }
}
