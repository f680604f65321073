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
   * concurrent removals one does the rest and announces it.
   */
  async remove(realm: RealmRecord, userId: string): Promise<boolean> {
    if (!(await this.users.deleteById(realm._id, userId))) return false;
    await this.credentials.deleteUser(realm._id, userId);
    await this.memberships.deleteWhere({ realmId: realm._id, userId });
    await this.roleMappings.deleteHolders(realm._id, "user", [userId]);
    await this.events.deleted(realm, userId);
    return true;
  }
}
