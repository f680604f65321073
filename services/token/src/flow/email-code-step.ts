import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import type { FlowRealm } from "./flow-realms.js";
import type { FlowKit, StepContext } from "./flow-kit.js";
import { pageOf, staleTransaction, type FlowReply } from "./flow-reply.js";
import type { LoginTransactionRecord } from "./login-transaction.js";

export const EMAIL_CODE_SENT_MESSAGE = "A sign-in code was sent to your email address. Enter it below.";
export const EMAIL_CODE_NOT_SENT_MESSAGE = "The sign-in code could not be sent by email. Please try again later.";
export const EMAIL_CODE_INVALID_MESSAGE = "Invalid sign-in code.";
export const EMAIL_CODE_RESENT_MESSAGE = "That code can no longer be used. A new sign-in code was sent to your email address.";
/** How long a mailed code is valid, and how many wrong codes it takes before a new one is sent. */
export const EMAIL_CODE_MINUTES = 5;
export const EMAIL_CODE_MAX_ATTEMPTS = 5;

const digest = (code: string) => createHash("sha256").update(code).digest("hex");

/**
 * The email-otp step of a browser flow (docs/authentication-flows.md): a six-digit code from a
 * CSPRNG, mailed by the directory through the realm's SMTP server, typed on the code page. The
 * transaction keeps only its digest; it is valid EMAIL_CODE_MINUTES and EMAIL_CODE_MAX_ATTEMPTS
 * wrong tries, after which a new code is mailed (the old one no longer works).
 */
export class EmailCodeStep {
  constructor(private readonly kit: FlowKit) {}

  async prompt(realm: FlowRealm, tx: LoginTransactionRecord, ctx: StepContext, message = EMAIL_CODE_SENT_MESSAGE): Promise<FlowReply> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const moved = await this.kit.d.txs.advance(tx, {
      step: "otp", emailOtpHash: digest(code), emailOtpExpiresAt: this.kit.now() + EMAIL_CODE_MINUTES * 60_000, emailOtpAttempts: 0,
    });
    if (!moved) return staleTransaction();
    const email = await this.kit.d.flows?.sendLoginCode(realm.name, tx.userId ?? "", code, EMAIL_CODE_MINUTES).catch(() => "") ?? "";
    if (!email) {
      await this.kit.d.events.record(realm, ctx, moved, { type: "LOGIN_ERROR", error: "email_send_failed" });
      return pageOf(moved, "otp", { message: EMAIL_CODE_NOT_SENT_MESSAGE });
    }
    return pageOf(moved, "otp", { message });
  }

  /** The code page's post while a mailed code is pending: the transaction when it was right (the caller goes on), else the page. */
  async verify(realm: FlowRealm, tx: LoginTransactionRecord, ctx: StepContext, code: string): Promise<{ reply: FlowReply } | { tx: LoginTransactionRecord }> {
    if (this.kit.now() > (tx.emailOtpExpiresAt ?? 0) || (tx.emailOtpAttempts ?? 0) >= EMAIL_CODE_MAX_ATTEMPTS) {
      return { reply: await this.prompt(realm, tx, ctx, EMAIL_CODE_RESENT_MESSAGE) };
    }
    const typed = Buffer.from(digest(code.trim()));
    const expected = Buffer.from(tx.emailOtpHash ?? "");
    if (typed.length !== expected.length || !timingSafeEqual(typed, expected)) {
      await this.kit.d.events.record(realm, ctx, tx, { type: "LOGIN_ERROR", error: "invalid_user_credentials" });
      const moved = await this.kit.d.txs.advance(tx, { emailOtpAttempts: (tx.emailOtpAttempts ?? 0) + 1 });
      if (!moved) return { reply: staleTransaction() };
      return { reply: pageOf(moved, "otp", { message: EMAIL_CODE_INVALID_MESSAGE }) };
    }
    // RFC 8176 section 2: "otp", a one-time password.
    const moved = await this.kit.d.txs.advance(tx, { emailOtpDone: true, amr: [...new Set([...tx.amr, "otp"])] }, ["emailOtpHash", "emailOtpExpiresAt", "emailOtpAttempts"]);
    return moved ? { tx: moved } : { reply: staleTransaction() };
  }
}
