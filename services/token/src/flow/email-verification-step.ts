import { Code, ConnectError } from "@connectrpc/connect";
import { VerifyEmailOutcome } from "../../../../gen/iam/directory/v1/registration_pb.js";
import type { FlowRealm } from "./flow-realms.js";
import { errorReply, realmNotFound, pageOf, staleTransaction, type FlowReply } from "./flow-reply.js";
import type { FlowKit, StepContext } from "./flow-kit.js";
import type { LoginTransactionRecord } from "./login-transaction.js";

export const CHECK_EMAIL_MESSAGE = "You need to verify your email address to log in. We sent you an email with a verification link.";
export const RESENT_MESSAGE = "A new verification email was sent.";
const NOT_SENT_MESSAGE = "You need to verify your email address to log in, but the verification email could not be sent. Please try again later.";

/**
 * The VERIFY_EMAIL required action (spec 2.1 requireEmailVerification): no session until the email
 * is verified. The user sees "check your email" with a resend action; the signed, expiring link
 * (directory verification-link.ts) opens `/realms/:realm/login-actions/verify-email`, which
 * consumes it once. After that the user logs in normally.
 */
export class EmailVerificationStep {
  constructor(private readonly kit: FlowKit) {}

  /** Reached from LoginSteps.next: mails a link and shows the page. */
  async prompt(realm: FlowRealm, tx: LoginTransactionRecord, ctx: StepContext): Promise<FlowReply> {
    const moved = tx.step === "verify_email" ? tx : await this.kit.d.txs.advance(tx, { step: "verify_email" });
    if (!moved) return staleTransaction();
    const sent = await this.send(realm, moved);
    return pageOf(moved, "verify_email", { message: sent ? CHECK_EMAIL_MESSAGE : NOT_SENT_MESSAGE, ...(sent ? { email: sent } : {}) });
  }

  /** The page's resend action (CSRF-checked). */
  async resend(ctx: StepContext): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["verify_email"]);
    if ("outcome" in loaded) return loaded;
    const sent = await this.send(loaded.realm, loaded.tx);
    return pageOf(loaded.tx, "verify_email", { message: sent ? RESENT_MESSAGE : NOT_SENT_MESSAGE, ...(sent ? { email: sent } : {}) });
  }

  /** The link's page: marks the email verified once (VERIFY_EMAIL / VERIFY_EMAIL_ERROR events). */
  async verify(ctx: StepContext, key: string): Promise<FlowReply> {
    const realm = await this.kit.d.realms.get(ctx.realm);
    if (!realm) return realmNotFound();
    const res = await this.kit.d.registration.verifyEmail({ realm: realm.name, key });
    if (res.outcome === VerifyEmailOutcome.VERIFIED) {
      await this.kit.d.events.record(realm, ctx, null, { type: "VERIFY_EMAIL", userId: res.userId, details: { email: res.email } });
      return { outcome: { kind: "page", page: { step: "email_verified", message: "Your email address is verified. You can now log in." } } };
    }
    const used = res.outcome === VerifyEmailOutcome.ALREADY_USED;
    await this.kit.d.events.record(realm, ctx, null, { type: "VERIFY_EMAIL_ERROR", userId: res.userId, error: used ? "expired_code" : "invalid_code" });
    return used
      ? errorReply("link_already_used", "This verification link was already used.", 400)
      : errorReply("invalid_link", "This verification link is invalid or has expired.", 400);
  }

  /** The address mailed, or "" when the realm cannot send (no SMTP, SMTP failure). */
  private async send(realm: FlowRealm, tx: LoginTransactionRecord): Promise<string> {
    try {
      return (await this.kit.d.registration.sendOwnVerificationEmail({ realm: realm.name, userId: tx.userId ?? "" })).email;
    } catch (e) {
      const ce = ConnectError.from(e);
      if (ce.code === Code.InvalidArgument || ce.code === Code.Unavailable || ce.code === Code.NotFound) return "";
      throw e;
    }
  }
}
