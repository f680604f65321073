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
   * Removes the user; false when it was already gone. What hangs off the user goes first, then
   * `user.deleted`, and the record last: a crash or a failed publish part-way leaves the user in
   * place, so the admin's retry finds it and finishes. With the record first, that retry was 404
   * and `user.deleted` never went out, leaving the user's sessions and tokens alive. Every step is
   * idempotent, and so is what the consumers do (ending ended sessions, a not-before mark that only
   * moves forward), so two concurrent removals may both announce it; the record's delete decides
   * which one answers 204.
   */
  async remove(realm: RealmRecord, userId: string): Promise<boolean> {
    if (!(await this.users.findById(realm._id, userId))) return false;
    await this.credentials.deleteUser(realm._id, userId);
    await this.memberships.deleteWhere({ realmId: realm._id, userId });
    await this.roleMappings.deleteHolders(realm._id, "user", [userId]);
    await this.events.deleted(realm, userId);
    return this.users.deleteById(realm._id, userId);
  }
}
