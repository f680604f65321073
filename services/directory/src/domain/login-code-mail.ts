import { IamError } from "../../../kit/src/errors.js";
import type { RealmRecord } from "./realm.js";
import type { RealmMailer } from "./realm-mailer.js";
import type { UserRepository } from "../store/user-repository.js";

/**
 * The email-otp step's mail (docs/authentication-flows.md): a one-time sign-in code the token
 * service made (and keeps only as a digest), sent through the realm's own SMTP server to the
 * user's address. The code is never logged; a realm without SMTP is smtp_not_configured.
 */
export class LoginCodeMail {
  /** Set where the realm mailer is built (module.ts). */
  mailer?: Pick<RealmMailer, "send">;

  constructor(private readonly users: UserRepository) {}

  /** The address mailed, or "" when the user has none. */
  async send(realm: RealmRecord, userId: string, code: string, minutes: number): Promise<string> {
    if (!/^\d{6,8}$/.test(code)) throw IamError.invalid("code", "code must be 6 to 8 digits");
    const user = await this.users.findById(realm._id, userId);
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    if (!user.email) return "";
    if (!this.mailer) throw new IamError({ code: "unavailable", reason: "smtp_error", message: "no mailer" });
    const name = realm.displayName || realm.name;
    await this.mailer.send(realm, {
      to: user.email,
      subject: `Your ${name} sign-in code`,
      text: `Your sign-in code is ${code}.\n\nIt is valid for ${minutes} minutes. If you did not try to sign in to ${name}, ignore this mail.\n`,
    });
    return user.email;
  }
}
