import { IamError } from "../../../kit/src/errors.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { UserCredentials } from "./user-credentials.js";
import { checkPasswordPolicy } from "./password-policy.js";
import type { UserRepository } from "../store/user-repository.js";
import type { CredentialRepository } from "../store/credential-repository.js";
import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";

/**
 * Self-service password change during login (the UPDATE_PASSWORD required action): the realm's
 * password policy and history (spec 2.1), `requirePasswordReset` cleared (spec 2.2), and
 * `password.changed` announced through the outbox so the token service can end other sessions
 * (DESIGN 3; UserCredentials.replace).
 */
export class PasswordChange {
  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly repo: CredentialRepository,
    private readonly credentials: UserCredentials,
  ) {}

  async change(realmName: string, userId: string, password: string): Promise<void> {
    if (!realmName) throw IamError.invalid("realm", "realm is required");
    const realm = await this.realms.byName(realmName);
    const user = userId ? await this.users.findById(realm._id, userId) : null;
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    await this.checkNew(realm, user, password);
    await this.credentials.replace(realm, user, await this.credentials.hash(password), false);
  }

  /** The realm's password policy and history (spec 2.1) for a password the user chose; throws naming what failed. */
  async checkNew(realm: RealmRecord, user: UserRecord, password: string): Promise<void> {
    checkPasswordPolicy(password, realm, user);
    const n = realm.passwordHistoryCount;
    for (const past of await this.repo.recentHashes(realm._id, user._id, n)) {
      if (await this.credentials.matches(past.hash, password)) {
        throw IamError.invalid("password", `password must not be one of the last ${n} passwords`, "invalid_password");
      }
    }
  }
}
