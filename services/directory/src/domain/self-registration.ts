import { IamError } from "../../../kit/src/errors.js";
import { sha256Hex } from "../../../kit/src/crypto/random.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { UserRepository } from "../store/user-repository.js";
import type { UsedVerifyKeyRepository } from "../store/used-verify-key-repository.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { UserAdmin } from "./user-admin.js";
import type { UserMail } from "./user-mail.js";
import { openVerifyKey, VERIFY_EMAIL_TTL_MS } from "./verification-link.js";
import { actionDone } from "./required-actions.js";

export interface RegistrationInput {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
}

export type VerifyOutcomeName = "VERIFIED" | "INVALID" | "ALREADY_USED";

/**
 * Self-service registration and email verification (spec 2.1 registrationAllowed,
 * requireEmailVerification). Registration reuses the Admin API's user creation (UserAdmin.create:
 * username rules, unique email, password policy with every failed rule named), so both ways in
 * create the same user.
 */
export class SelfRegistration {
  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly admin: UserAdmin,
    private readonly mail: UserMail,
    private readonly usedKeys: UsedVerifyKeyRepository,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
  ) {}

  async register(realmName: string, input: RegistrationInput): Promise<{ userId: string; username: string }> {
    const realm = await this.realms.byName(realmName);
    if (!realm.enabled || !realm.registrationAllowed) {
      throw new IamError({ code: "failedPrecondition", reason: "registration_not_allowed", message: "registration is not allowed in this realm" });
    }
    // Registration needs an email when the realm verifies emails: the user could never log in.
    if (realm.requireEmailVerification && !input.email.trim()) throw IamError.invalid("email", "email is required", "invalid_email");
    const { user } = await this.admin.create(realmName, {
      username: input.username, password: input.password, emailVerified: false,
      ...(input.email.trim() ? { email: input.email.trim() } : {}),
      ...(input.firstName.trim() ? { firstName: input.firstName.trim() } : {}),
      ...(input.lastName.trim() ? { lastName: input.lastName.trim() } : {}),
    });
    return { userId: user._id, username: user.username };
  }

  /** The user's own (re)send from the "check your email" page. */
  async sendVerification(realmName: string, userId: string): Promise<string> {
    const realm = await this.realms.byName(realmName);
    const user = await this.users.findById(realm._id, userId);
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    if (!user.email) throw IamError.invalid("email", "user has no email address", "user_has_no_email");
    await this.mail.mailVerification(realm, user);
    return user.email;
  }

  /**
   * Consumes a verification key: valid (sealed by us, unexpired, this realm, the user's current
   * address) and not used before. The used key is recorded atomically, so two concurrent opens
   * verify once.
   */
  async verify(realmName: string, key: string): Promise<{ outcome: VerifyOutcomeName; userId: string; email: string }> {
    const realm = await this.realms.byName(realmName);
    const now = this.clock.now();
    const claims = key ? openVerifyKey(this.secrets, key, now) : null;
    const invalid = { outcome: "INVALID" as const, userId: "", email: "" };
    if (!claims || claims.realmId !== realm._id) return invalid;
    const user = await this.users.findById(realm._id, claims.userId);
    if (!user || user.email.toLowerCase() !== claims.email.toLowerCase()) return invalid;
    const fresh = await this.usedKeys.markUsed(sha256Hex(key), realm._id, user._id, now, now + VERIFY_EMAIL_TTL_MS);
    if (!fresh) return { outcome: "ALREADY_USED", userId: user._id, email: user.email };
    await this.users.update(realm._id, user._id, { emailVerified: true, updatedAt: now, ...actionDone(user, "VERIFY_EMAIL") });
    return { outcome: "VERIFIED", userId: user._id, email: user.email };
  }
}
