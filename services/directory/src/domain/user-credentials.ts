import type { FederationFallback } from "./federation-fallback.js";
import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmRecord } from "./realm.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { UserRecord } from "./user.js";
import type { PasswordHasher } from "./password-hasher.js";
import { checkPasswordPolicy } from "./password-policy.js";
import type { CredentialRepository } from "../store/credential-repository.js";
import type { UserRepository } from "../store/user-repository.js";
import type { UserEvents } from "../events/user-events.js";
import type { PasswordChanges } from "./password-changes.js";
import type { EventStamp, OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import { directoryAdminEvent } from "../events/directory-admin-events.js";

/**
 * Passwords (spec 2.2 initial password, 4.2 reset-password, 2.1 password policy and history).
 * Only argon2id hashes are stored, in `credentials`; the last `passwordHistoryCount` hashes are
 * kept in `password_history`, and a new password equal to one of them is refused.
 */
export class UserCredentials {
  /** Set where the federation fallback is wired: refuses password edits of LDAP users. */
  federation?: Pick<FederationFallback, "refuseEdit">;

  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly repo: CredentialRepository,
    private readonly hasher: PasswordHasher,
    private readonly events: UserEvents,
    private readonly changes: PasswordChanges,
    private readonly clock: Clock,
  ) {}

  hash(password: string): Promise<string> {
    return this.hasher.hash(password);
  }

  /** Whether `password` matches a stored hash of any format (history checks include imported hashes). */
  matches(hash: string, password: string): Promise<boolean> {
    return this.hasher.verifyStored(hash, password);
  }

  /**
   * Stores a checked, hashed password as the user's credential and records it in the history. An
   * imported hash (any supported format) is stored and remembered the same way, with its own time.
   */
  async store(realm: RealmRecord, user: UserRecord, hash: string, temporary: boolean, createdAt = this.clock.now()): Promise<void> {
    await this.repo.setPassword({ realmId: realm._id, userId: user._id, hash, temporary, createdAt });
    await this.repo.remember({ _id: randomUUID(), realmId: realm._id, userId: user._id, hash, createdAt }, realm.passwordHistoryCount);
  }

  /**
   * A checked, hashed new password stored (`store`), `requirePasswordReset` set to `temporary`
   * (spec 2.2), and `password.changed` announced through the outbox (PasswordChanges), so the
   * token service ends what came before it: the admin's reset and the user's own change.
   */
  async replace(realm: RealmRecord, user: UserRecord, hash: string, temporary: boolean, also?: (stamp: EventStamp) => OutgoingEvent[]): Promise<void> {
    await this.changes.change(realm, user._id, temporary, also, async (createdAt) => {
      await this.store(realm, user, hash, temporary, createdAt);
      if (user.requirePasswordReset !== temporary) {
        await this.users.update(realm._id, user._id, { requirePasswordReset: temporary, updatedAt: this.clock.now() });
      }
    });
  }

  async reset(realmName: string, userId: string, password: string | undefined, temporary: boolean): Promise<void> {
    const realm = await this.realms.byName(realmName);
    const user = await this.users.findById(realm._id, userId);
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    // An LDAP user's password is LDAP's (federation-fallback.ts): one set here would never be checked.
    await this.federation?.refuseEdit(realm, user, "password", "password");
    checkPasswordPolicy(password, realm, user);
    const plain = password as string;
    const n = realm.passwordHistoryCount;
    for (const past of await this.repo.recentHashes(realm._id, userId, n)) {
      // Any format: an imported bcrypt or PBKDF2 hash in the history counts (as in password-change).
      if (await this.matches(past.hash, plain)) {
        throw IamError.invalid("password", `password must not be one of the last ${n} passwords`, "invalid_password");
      }
    }
    // Its admin event goes with password.changed through the outbox: a crash cannot keep the new
    // password and lose the record of who set it.
    await this.replace(realm, user, await this.hasher.hash(plain), temporary,
      (stamp) => directoryAdminEvent(realm, "ACTION", "USER", `users/${userId}/reset-password`, stamp));
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.repo.deleteRealm(realmId);
  }
}
