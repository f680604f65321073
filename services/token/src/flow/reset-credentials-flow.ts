import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { ResetAccountOutcome, ResetKeyOutcome, type CredentialResetService } from "../../../../gen/iam/directory/v1/credential_reset_pb.js";
import { currentContext } from "../../../kit/src/context.js";
import { safeEqual, sha256Hex } from "../../../kit/src/crypto/random.js";
import type { FailureLimiter } from "../domain/failure-limiter.js";
import type { FlowKit, StepContext } from "./flow-kit.js";
import type { FlowRealm } from "./flow-realms.js";
import { errorReply, pageOf, realmNotFound, staleTransaction, type FlowReply, type PageView } from "./flow-reply.js";
import type { LoginTransactionRecord } from "./login-transaction.js";
import { messagesOf } from "./policy-messages.js";

/** What every "Forgot password?" submission is told, whether or not the account exists (no enumeration). */
export const RESET_EMAIL_SENT_MESSAGE = "If an account with that username or email exists, you will receive an email with a link to reset your password shortly.";
export const PASSWORD_RESET_DONE_MESSAGE = "Your password has been updated. You can now sign in with your new password.";

/** The form is a realm's, not an unknown page: Keycloak answers 404 when resetPasswordAllowed is off. */
const NOT_ALLOWED = (): FlowReply => errorReply("not_found", "Page not found.", 404);
const INVALID_LINK = (): FlowReply => errorReply("invalid_link", "This password reset link is invalid or has expired. Please ask for a new one.", 400);
const USED_LINK = (): FlowReply => errorReply("link_already_used", "This password reset link was already used. Please ask for a new one.", 400);

export interface ResetLimiters {
  /** Forms submitted per realm and IP address: over the bound, 429 (it says nothing of an account). */
  perAddress: FailureLimiter;
  /** Mails sent per account: over the bound, none is sent, and the page says what it always says. */
  perAccount: FailureLimiter;
}

/**
 * Keycloak's "reset credentials" (forgot password), the flow's half: the login transaction's form,
 * the mailed link's page and the new password. The directory finds the account, mails the sealed
 * link and sets the password (CredentialResetService); this decides what the browser is told:
 * the same page, at the same speed, whether or not the account exists, since the account's lookup
 * and the mail run after the answer went out. Events: SEND_RESET_PASSWORD(_ERROR) and
 * RESET_PASSWORD(_ERROR), Keycloak's names.
 */
export class ResetCredentialsFlow {
  constructor(
    private readonly kit: FlowKit,
    private readonly directory: Client<typeof CredentialResetService>,
    private readonly limiters: ResetLimiters,
  ) {}

  /** The form (a GET: the transaction must be this browser's and still at the login page). */
  async begin(ctx: StepContext): Promise<FlowReply> {
    const found = await this.loginTransaction(ctx);
    if ("outcome" in found) return found;
    if (!found.realm.resetPasswordAllowed) return NOT_ALLOWED();
    return pageOf(found.tx, "reset_credentials", {});
  }

  /** "Back to sign in": the transaction's login page again. */
  async backToLogin(ctx: StepContext): Promise<FlowReply> {
    const found = await this.loginTransaction(ctx);
    if ("outcome" in found) return found;
    return pageOf(found.tx, "login", found.tx.username ? { username: found.tx.username } : {});
  }

  async submit(ctx: StepContext, identifier: string): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["login"]);
    if ("outcome" in loaded) return loaded;
    const { realm, tx } = loaded;
    if (!realm.resetPasswordAllowed) return NOT_ALLOWED();
    const typed = identifier.trim().slice(0, 255);
    if (!typed) return pageOf(tx, "reset_credentials", { messages: ["Please specify a username or an email address."] });
    const attempt = await this.limiters.perAddress.attempt(`${realm.id}|${ctx.ipAddress}`);
    if (attempt.retryAfter > 0) {
      await this.kit.d.events.record(realm, ctx, tx, { type: "SEND_RESET_PASSWORD_ERROR", error: "too_many_requests", details: { username: typed } });
      return { outcome: { kind: "error", error: "too_many_requests", description: "Too many password reset requests. Please try again later.", status: 429, retryAfter: attempt.retryAfter } };
    }
    // Not awaited: the answer must not wait on the lookup or the SMTP server, or its timing would
    // tell an existing account from an unknown one. Failures are logged and recorded as events.
    const logger = currentContext()?.logger;
    void this.sendLink(realm, ctx, tx, typed).catch((e: unknown) => logger?.error({ err: e, realm: realm.name }, "password reset mail failed"));
    return pageOf(tx, "reset_email_sent", { message: RESET_EMAIL_SENT_MESSAGE });
  }

  /** The mailed link's page: the new password form when the key can still be used. */
  async open(ctx: StepContext, key: string): Promise<FlowReply> {
    const realm = await this.kit.d.realms.get(ctx.realm);
    if (!realm) return realmNotFound();
    if (!realm.resetPasswordAllowed) return NOT_ALLOWED();
    const res = await this.directory.checkResetKey({ realm: realm.name, key });
    if (res.outcome !== ResetKeyOutcome.VALID) return this.refused(realm, ctx, res.outcome, res.userId);
    return this.form(key, res.username, []);
  }

  async submitPassword(ctx: StepContext, key: string, password: string, confirmation: string): Promise<FlowReply> {
    const realm = await this.kit.d.realms.get(ctx.realm);
    if (!realm) return realmNotFound();
    if (!realm.resetPasswordAllowed) return NOT_ALLOWED();
    if (!password) return this.form(key, "", ["Please specify a password."]);
    if (password !== confirmation) return this.form(key, "", ["The password confirmation does not match."]);
    let res;
    try {
      res = await this.directory.resetPasswordWithKey({ realm: realm.name, key, password });
    } catch (e) {
      const ce = ConnectError.from(e);
      if (ce.code !== Code.InvalidArgument) throw e;
      const checked = await this.directory.checkResetKey({ realm: realm.name, key });
      await this.kit.d.events.record(realm, ctx, null, { type: "RESET_PASSWORD_ERROR", userId: checked.userId, error: "password_rejected" });
      return this.form(key, checked.username, messagesOf(ce.rawMessage));
    }
    if (res.outcome !== ResetKeyOutcome.VALID) return this.refused(realm, ctx, res.outcome, res.userId);
    // password.changed (from the directory's outbox) ends the user's sessions, offline ones too.
    await this.kit.d.events.record(realm, ctx, null, { type: "RESET_PASSWORD", userId: res.userId, details: { username: res.username } });
    return { outcome: { kind: "page", page: { step: "password_reset_done", message: PASSWORD_RESET_DONE_MESSAGE } } };
  }

  private form(key: string, username: string, messages: string[]): FlowReply {
    const page: PageView = { step: "reset_password", resetKey: key, messages, ...(username ? { username } : {}) };
    return { outcome: { kind: "page", page } };
  }

  private async refused(realm: FlowRealm, ctx: StepContext, outcome: ResetKeyOutcome, userId: string): Promise<FlowReply> {
    const used = outcome === ResetKeyOutcome.ALREADY_USED;
    await this.kit.d.events.record(realm, ctx, null, { type: "RESET_PASSWORD_ERROR", ...(userId ? { userId } : {}), error: used ? "expired_code" : "invalid_code" });
    return used ? USED_LINK() : INVALID_LINK();
  }

  /** Looks the account up, bounds its mails, and mails the link, recording what happened. */
  private async sendLink(realm: FlowRealm, ctx: StepContext, tx: LoginTransactionRecord, typed: string): Promise<void> {
    const error = (e: string, userId?: string) => this.kit.d.events.record(realm, ctx, tx, {
      type: "SEND_RESET_PASSWORD_ERROR", error: e, ...(userId ? { userId } : {}), details: { username: typed },
    });
    const account = await this.directory.findResetAccount({ realm: realm.name, identifier: typed });
    // Keycloak's Errors: user_not_found, user_disabled, invalid_email.
    if (account.outcome === ResetAccountOutcome.NOT_FOUND) return error("user_not_found");
    if (account.outcome === ResetAccountOutcome.DISABLED) return error("user_disabled", account.userId);
    if (account.outcome !== ResetAccountOutcome.FOUND) return error("invalid_email", account.userId);
    if ((await this.limiters.perAccount.attempt(`${realm.id}|${account.userId}`)).retryAfter > 0) return error("too_many_requests", account.userId);
    let email: string;
    try {
      email = (await this.directory.sendResetCredentialsEmail({ realm: realm.name, userId: account.userId })).email;
    } catch (e) {
      const ce = ConnectError.from(e);
      if (ce.code === Code.InvalidArgument || ce.code === Code.Unavailable || ce.code === Code.NotFound) return error("email_send_failed", account.userId);
      throw e;
    }
    await this.kit.d.events.record(realm, ctx, tx, {
      type: "SEND_RESET_PASSWORD", userId: account.userId, details: { username: account.username, email },
    });
  }

  /** The GET pages' transaction: this browser's, at the login page (no CSRF token: nothing changes). */
  private async loginTransaction(ctx: StepContext): Promise<{ realm: FlowRealm; tx: LoginTransactionRecord } | FlowReply> {
    const realm = await this.kit.d.realms.get(ctx.realm);
    if (!realm) return realmNotFound();
    if (!ctx.transactionId || !ctx.browserId) return staleTransaction();
    const tx = await this.kit.d.txs.find(realm.id, ctx.transactionId);
    if (!tx || tx.step !== "login" || tx.kind === "logout" || !safeEqual(tx.browserHash, sha256Hex(ctx.browserId))) return staleTransaction();
    return { realm, tx };
  }
}
