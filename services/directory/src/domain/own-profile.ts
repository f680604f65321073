import { IamError } from "../../../kit/src/errors.js";
import type { RealmRecord } from "./realm.js";
import type { RealmLookup } from "./realm-lookup.js";
import { userRequiredActions, type UserRecord } from "./user.js";
import type { UserAdmin } from "./user-admin.js";
import { renames } from "./username.js";

/** What a user may change of their own profile (Keycloak's account REST API, docs/account-console.md). */
export interface OwnProfileInput {
  username?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
}

/**
 * Whether the realm's users may change their own username: Keycloak's editUsernameAllowed, off by
 * default. Keycloak also keeps the username read-only under registrationEmailAsUsername, where it
 * follows the email; Tessera has no email-as-username mode (a Keycloak import reports that setting
 * as having no equivalent), so this setting alone decides.
 */
export function usernameEditable(realm: Pick<RealmRecord, "editUsernameAllowed">): boolean {
  return realm.editUsernameAllowed === true;
}

/**
 * A user's change of their own profile. The rules are the Admin API's (UserAdmin.update: the
 * username's characters, NFKC normalisation and uniqueness, the email's format and uniqueness, an
 * LDAP READ_ONLY user's profile kept), with one more: a rename needs the realm's
 * editUsernameAllowed, else it is 400 `username_read_only`.
 */
export class OwnProfile {
  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserAdmin,
  ) {}

  /** The user, and whether update would take a new username (the account API's profile metadata). */
  async read(realmName: string, userId: string): Promise<{ user: UserRecord; usernameEditable: boolean }> {
    // Past the realm cache, as update: the console shows the field as a save would treat it.
    const realm = await this.realms.current(realmName);
    return { user: await this.users.find(realm, userId), usernameEditable: usernameEditable(realm) };
  }

  /**
   * The user before and after the change. `completeUpdateProfile`: the login's UPDATE_PROFILE
   * required action is what asked for it, so the action leaves the user's list in the same write
   * (Keycloak's UpdateProfile.processAction removes it once the profile validates).
   */
  async update(realmName: string, userId: string, input: OwnProfileInput, completeUpdateProfile = false): Promise<{ before: UserRecord; after: UserRecord }> {
    // Past the realm cache: an administrator who just turned the setting off is obeyed at once.
    const realm = await this.realms.current(realmName);
    const before = await this.users.find(realm, userId);
    if (input.username !== undefined && renames(input.username, before.username) && !usernameEditable(realm)) {
      throw IamError.invalid("username", "username cannot be changed in this realm", "username_read_only");
    }
    const after = await this.users.update(realmName, userId, {
      ...input, ...(completeUpdateProfile ? { requiredActions: userRequiredActions(before).filter((a) => a !== "UPDATE_PROFILE") } : {}),
    });
    return { before, after };
  }
}
