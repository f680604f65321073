import { IamError } from "../../../kit/src/errors.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { PasswordAuthenticator } from "./password-authenticator.js";
import type { PasswordChange } from "./password-change.js";
import type { UserRepository } from "../store/user-repository.js";
import type { CredentialRepository } from "../store/credential-repository.js";
import type { OtpRepository } from "../store/otp-repository.js";
import type { PasskeyRepository } from "../store/passkey-repository.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { issueRecoveryCodes } from "./otp-credentials.js";
import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";

/** A credential as the account console lists it: never its hash, secret or public key. */
export interface CredentialMetadata {
  id: string;
  type: "password" | "otp" | "webauthn";
  userLabel: string;
  createdDate: number;
}

/**
 * The signed-in user's own credentials (Keycloak's account API, `credentials` and
 * `credentials/password`): the list, and a password change that proves the current password first.
 */
export class AccountCredentials {
  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly passwords: CredentialRepository,
    private readonly otp: OtpRepository,
    private readonly passkeys: PasskeyRepository,
    private readonly authenticator: PasswordAuthenticator,
    private readonly change: PasswordChange,
    private readonly clock: Clock,
  ) {}

  async list(realmName: string, userId: string): Promise<CredentialMetadata[]> {
    const realm = await this.realms.byName(realmName);
    const user = userId ? await this.users.findById(realm._id, userId) : null;
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    const out: CredentialMetadata[] = [];
    const password = await this.passwords.findPassword(realm._id, user._id);
    if (password) out.push({ id: "password", type: "password", userLabel: "", createdDate: password.createdAt });
    const otp = await this.otp.find(realm._id, user._id);
    // A pending enrolment is no credential yet (the login asks for it again).
    if (otp?.confirmed) out.push({ id: "otp", type: "otp", userLabel: "", createdDate: otp.createdAt });
    for (const k of await this.passkeys.listByUser(realm._id, user._id)) {
      out.push({ id: k._id, type: "webauthn", userLabel: k.label, createdDate: k.createdAt });
    }
    return out;
  }

  /**
   * The current password is checked as the login form checks it: a wrong one counts as a login
   * failure (spec 3, brute force) and a locked user is refused with the same answer, so this form
   * is no way around the lockout. Then the new one meets the realm's policy and history (spec 2.1),
   * and `password.changed` ends the user's sessions (UserCredentials.replace).
   */
  async changeOwn(realmName: string, userId: string, current: string, next: string): Promise<void> {
    const { realm, user } = await this.lookup(realmName, userId);
    if (!current) throw IamError.invalid("currentPassword", "currentPassword is required");
    if (!next) throw IamError.invalid("newPassword", "newPassword is required");
    await this.proveCurrent(realm, user, current);
    try {
      await this.change.change(realm.name, user._id, next);
    } catch (e) {
      // The policy names `password`; this form's field is `newPassword`.
      if (e instanceof IamError && e.field === "password") throw new IamError({ code: e.code, reason: e.reason, message: e.message, field: "newPassword" });
      throw e;
    }
  }

  /**
   * New recovery codes without enrolling TOTP again (Keycloak re-authenticates before its
   * recovery-codes action; here the current password is that proof, checked as changeOwn checks
   * it, so a stolen access token alone cannot read fresh codes). Every earlier code stops working.
   */
  async regenerateRecoveryCodes(realmName: string, userId: string, current: string): Promise<string[]> {
    const { realm, user } = await this.lookup(realmName, userId);
    if (!current) throw IamError.invalid("currentPassword", "currentPassword is required");
    const otp = await this.otp.find(realm._id, user._id);
    if (!otp?.confirmed) {
      throw new IamError({ code: "failedPrecondition", reason: "otp_not_configured", message: "recovery codes come with an authenticator application; set one up first" });
    }
    await this.proveCurrent(realm, user, current);
    return issueRecoveryCodes(this.otp, realm._id, user._id, this.clock.now());
  }

  private async lookup(realmName: string, userId: string): Promise<{ realm: RealmRecord; user: UserRecord }> {
    const realm = await this.realms.byName(realmName);
    const user = userId ? await this.users.findById(realm._id, userId) : null;
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    return { realm, user };
  }

  /** The current password as the login form checks it: brute-force counting, a locked user refused alike. */
  private async proveCurrent(realm: RealmRecord, user: UserRecord, current: string): Promise<void> {
    const r = await this.authenticator.authenticate({ realm: realm.name, username: user.username, password: current });
    if (r.outcome === "UNAVAILABLE") throw IamError.unavailable("the user's federation provider cannot be reached", r.eventError);
    if (r.outcome !== "OK" || r.userId !== user._id) {
      throw IamError.invalid("currentPassword", "the current password is not correct", "invalid_current_password");
    }
  }
}
