import { IamError } from "../../../kit/src/errors.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { checkEmail } from "../../../kit/src/validation/checks.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { RealmMailer } from "./realm-mailer.js";
import type { UserRepository } from "../store/user-repository.js";
import type { UserEvents } from "../events/user-events.js";
import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";
import { verifyEmailLink, VERIFY_EMAIL_TTL_MS } from "./verification-link.js";
import { mailTranslator } from "./mail-locale.js";

/** Mail the Admin API sends: the realm's test email (spec 4.1) and verification emails (spec 4.2). */
export class UserMail {
  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly mailer: RealmMailer,
    private readonly events: UserEvents,
    private readonly secrets: SecretBox,
    private readonly publicUrl: string,
    private readonly clock: Clock,
  ) {}

  async sendTest(realmName: string, to: string | undefined): Promise<string> {
    const realm = await this.realms.byName(realmName);
    if (to === undefined || to.trim() === "") throw IamError.invalid("to", "to is required");
    const address = checkEmail("to", to.trim());
    const name = realm.displayName || realm.name;
    await this.mailer.send(realm, {
      to: address,
      subject: `Test email from ${name}`,
      text: `This is a test email from realm "${realm.name}". Your SMTP settings work.`,
    });
    return `test email sent to ${address}`;
  }

  async sendVerification(realmName: string, userId: string): Promise<string> {
    const realm = await this.realms.byName(realmName);
    const user = await this.users.findById(realm._id, userId);
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    if (!user.email) throw IamError.invalid("email", "user has no email address", "user_has_no_email");
    await this.mailVerification(realm, user);
    await this.events.admin(realm, "ACTION", "USER", `users/${userId}/send-verification-email`);
    return `verification email sent to ${user.email}`;
  }

  /** Mails the signed verification link (also the self-service resend of registration-module.ts). */
  async mailVerification(realm: RealmRecord, user: UserRecord): Promise<void> {
    const link = verifyEmailLink(this.secrets, this.publicUrl, realm, user, this.clock.now());
    const name = realm.displayName || realm.name;
    const hours = VERIFY_EMAIL_TTL_MS / 3_600_000;
    const t = mailTranslator(realm, user);
    await this.mailer.send(realm, {
      to: user.email,
      subject: t("emailVerificationSubject", name),
      text: `${t("emailGreeting", user.username)}\n\n${t("emailVerificationBody")}\n\n${link}\n\n${t("emailVerificationExpiry", hours)} ${t("emailVerificationIgnore")}\n`,
      html: `<p>${escapeHtml(t("emailGreeting", user.username))}</p><p>${escapeHtml(t("emailVerificationBody"))}</p>`
        + `<p><a href="${escapeHtml(link)}">${escapeHtml(t("emailVerificationLinkText"))}</a></p><p>${escapeHtml(t("emailVerificationExpiry", hours))}</p>`,
    });
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
