import { IamError } from "../../../kit/src/errors.js";
import { lazyImport } from "../../../kit/src/runtime/lazy-import.js";
import type { RealmRecord } from "./realm.js";
import type { RealmAdmin } from "./realm-admin.js";

// About 40 modules that only a realm sending mail needs: imported on first use (faster cold start).
const mailer = lazyImport(async () => (await import("nodemailer")).default);

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Sends mail through a realm's own SMTP settings (spec 2.1 smtp* fields, 4.1 test email, 4.2
 * verification email). A realm without `smtpHost` gets 400 smtp_not_configured; a failure of the
 * SMTP server is IamError "unavailable" with reason smtp_error, which the gateway renders as 502
 * (an upstream failed, not Tessera). The SMTP password is opened only here and never logged or
 * echoed: it is scrubbed from any error message.
 */
export class RealmMailer {
  constructor(private readonly realms: RealmAdmin) {}

  async send(realm: RealmRecord, mail: Mail): Promise<void> {
    if (!realm.smtpHost) {
      throw new IamError({ code: "invalidArgument", reason: "smtp_not_configured", message: `realm "${realm.name}" has no SMTP server configured (smtpHost)` });
    }
    const password = this.realms.smtpPassword(realm);
    const from = realm.smtpFrom || `no-reply@${realm.smtpHost}`;
    const nodemailer = await mailer();
    const transport = nodemailer.createTransport({
      host: realm.smtpHost,
      port: realm.smtpPort,
      secure: realm.smtpSecure,
      ...(realm.smtpUser ? { auth: { user: realm.smtpUser, pass: password ?? "" } } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    try {
      await transport.sendMail({
        from: realm.displayName ? { name: realm.displayName, address: from } : from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
      });
    } catch (e) {
      const err = e as { code?: string; message?: string };
      let detail = `${err.code ? `${err.code}: ` : ""}${err.message ?? String(e)}`;
      if (password) detail = detail.split(password).join("**********");
      throw new IamError({ code: "unavailable", reason: "smtp_error", message: `sending mail via ${realm.smtpHost}:${realm.smtpPort} failed: ${detail}` });
    } finally {
      transport.close();
    }
  }
}
