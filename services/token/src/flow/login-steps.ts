import { Code, ConnectError } from "@connectrpc/connect";
import { AuthOutcome, RequiredAction } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import type { AuthorizationFlow } from "./authorization-flow.js";
import type { FlowRealm } from "./flow-realms.js";
import { pageOf, staleTransaction, type FlowReply } from "./flow-reply.js";
import { scopesOf, type FlowKit, type StepContext } from "./flow-kit.js";
import type { LoginTransactionRecord } from "./login-transaction.js";
import { EmailVerificationStep } from "./email-verification-step.js";
import { acrOf } from "../domain/acr.js";
import type { ClientInfo } from "../domain/client-directory.js";
import { messagesOf } from "./policy-messages.js";
import { PASSKEY_REGISTER_ACTION, promptPasskey } from "./passkey-ceremony.js";
import { browserFlowFields } from "./browser-flow-plan.js";
import { EmailCodeStep } from "./email-code-step.js";
import { PluginChallengeStep } from "./plugin-challenge-step.js";
import { actionLinkStep } from "./action-link-flow.js";
import { cappedEnd, forLogin } from "../domain/session-max.js";
import { ProfileAndTermsSteps } from "./profile-and-terms-steps.js";

/** One message for unknown users, wrong passwords and lockouts: no account enumeration. */
export const INVALID_CREDENTIALS_MESSAGE = "Invalid username or password.";
export const DISABLED_MESSAGE = "Account is disabled.";
export const INVALID_OTP_MESSAGE = "Invalid authenticator code.";
/** The user's LDAP directory could not be reached: the login fails closed, and says so. */
export const DIRECTORY_UNAVAILABLE_MESSAGE = "The user directory is unavailable. Please try again later.";

/**
 * The login page's steps after the authorization request: password, TOTP (RFC 6238), the
 * required actions (in the order the directory lists them: Keycloak's priorities), consent. Every call checks the transaction,
 * its browser binding and CSRF token (FlowKit.loadTransaction), then asks the directory.
 */
export class LoginSteps {
  readonly emailVerification: EmailVerificationStep;
  /** The TERMS_AND_CONDITIONS and UPDATE_PROFILE required actions' pages. */
  readonly profileAndTerms: ProfileAndTermsSteps;
  private readonly emailCode: EmailCodeStep;
  private readonly pluginStep: PluginChallengeStep;

  constructor(private readonly kit: FlowKit, private readonly authorization: AuthorizationFlow) {
    this.emailVerification = new EmailVerificationStep(kit);
    this.profileAndTerms = new ProfileAndTermsSteps(kit, kit.d.users, (realm, tx, ctx) => this.next(realm, tx, ctx));
    this.emailCode = new EmailCodeStep(kit);
    this.pluginStep = new PluginChallengeStep(kit, (realm, tx, ctx) => this.next(realm, tx, ctx));
  }

  /** A plugin authenticator step's page was posted (plugin-challenge-step.ts). */
  submitPluginStep(ctx: StepContext, fields: Record<string, string>): Promise<FlowReply> {
    return this.pluginStep.submit(ctx, fields);
  }

  /**
   * `rememberMe`: the page's "Remember me" was ticked, which only a realm offering it honours
   * (Keycloak's username-password form reads the field only then): the session this login opens
   * is then remembered (FlowKit.establishSession).
   */
  async submitCredentials(ctx: StepContext, username: string, password: string, rememberMe = false): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["login"]);
    if ("outcome" in loaded) return loaded;
    const { realm, tx } = loaded;
    const name = username.trim().slice(0, 255);
    if (!name || !password) return pageOf(tx, "login", { username: name, message: INVALID_CREDENTIALS_MESSAGE });
    // A client disabled or deleted while the page was open is refused before the password is
    // checked, so it neither costs a hash nor counts a failure against the user (Keycloak checks
    // the client at every step); the end of authentication checks again (next()).
    let client: ClientInfo | null = null;
    if (tx.kind !== "saml") {
      const current = await this.kit.currentClient(realm, ctx, tx, name);
      if ("outcome" in current) return current;
      client = current;
    }
    const res = await this.kit.d.auth.authenticatePassword({
      realm: realm.name, username: name, password, clientId: tx.clientId, ipAddress: ctx.ipAddress,
    });
    if (res.outcome !== AuthOutcome.OK) {
      await this.kit.d.events.record(realm, ctx, tx, {
        type: "LOGIN_ERROR", userId: res.userId, error: res.eventError || "invalid_user_credentials", details: { username: name },
      });
      const message = res.outcome === AuthOutcome.DISABLED ? DISABLED_MESSAGE
        : res.outcome === AuthOutcome.UNAVAILABLE ? DIRECTORY_UNAVAILABLE_MESSAGE : INVALID_CREDENTIALS_MESSAGE;
      return pageOf(tx, "login", { username: name, message });
    }
    const pendingActions = res.requiredActions.map((a) => RequiredAction[a]).filter((a) => a !== "UNSPECIFIED");
    // A custom browser flow decides what is owed after the password (browser-flow-plan.ts); the built-in one is this sequence.
    const fields = await browserFlowFields(this.kit, realm, tx, ctx, client, {
      userId: res.userId, identifiedBy: "pwd", otpConfigured: res.otpRequired, passkeyConfigured: res.passkeyConfigured, pendingActions,
    });
    if (fields && "outcome" in fields) return fields;
    const moved = await this.kit.d.txs.advance(tx, {
      step: "otp", userId: res.userId, username: res.username || name, ...(res.locale ? { userLocale: res.locale.slice(0, 64) } : {}),
      ...(fields ?? { otpRequired: res.otpRequired, passkeyRequired: !res.otpRequired && res.passkeyConfigured, pendingActions }),
      amr: ["pwd"], authTime: this.kit.now(), ...(rememberMe && realm.rememberMe ? { rememberMe: true } : {}),
    });
    if (!moved) return staleTransaction();
    return this.next(realm, moved, ctx);
  }

  /**
   * A user the broker service authenticated through an upstream provider (spec 4.19): the
   * transaction goes on as after a password, with the same checks (browser binding, CSRF token,
   * client still usable) and the user's own TOTP and required actions. Authorization requests and
   * SAML logins are brokered; `saml` tells the caller which endpoint the next pages post to.
   */
  async completeBrokeredLogin(ctx: StepContext, userId: string, alias: string): Promise<{ reply: FlowReply; saml: boolean }> {
    const loaded = await this.kit.loadTransaction(ctx, ["login"]);
    if ("outcome" in loaded) return { reply: loaded, saml: false };
    const { realm, tx } = loaded;
    const saml = tx.kind === "saml";
    if ((tx.kind !== "authorize" && !saml) || !userId) return { reply: staleTransaction(), saml };
    let client: ClientInfo | null = null;
    if (!saml) {
      const current = await this.kit.currentClient(realm, ctx, tx);
      if ("outcome" in current) return { reply: current, saml };
      client = current;
    }
    const status = await this.kit.d.auth.getUserStatus({ realm: realm.name, userId });
    if (!status.exists || !status.enabled) {
      await this.kit.d.events.record(realm, ctx, tx, {
        type: "LOGIN_ERROR", userId, error: status.exists ? "user_disabled" : "user_not_found", details: { identity_provider: alias },
      });
      return { reply: pageOf(tx, "login", { message: DISABLED_MESSAGE }), saml };
    }
    const pendingActions = status.requiredActions.map((a) => RequiredAction[a]).filter((a) => a !== "UNSPECIFIED");
    const fields = await browserFlowFields(this.kit, realm, tx, ctx, client, {
      userId, identifiedBy: "fed", otpConfigured: status.otpConfigured, passkeyConfigured: status.passkeyConfigured, pendingActions,
    });
    if (fields && "outcome" in fields) return { reply: fields, saml };
    // amr "fed": authenticated by a federated provider (RFC 8176 section 2 allows values beyond its registry).
    const moved = await this.kit.d.txs.advance(tx, {
      step: "otp", userId, username: status.username, identityProvider: alias,
      ...(fields ?? { otpRequired: status.otpConfigured, passkeyRequired: !status.otpConfigured && status.passkeyConfigured, pendingActions }),
      amr: ["fed"], authTime: this.kit.now(),
    });
    if (!moved) return { reply: staleTransaction(), saml };
    return { reply: await this.next(realm, moved, ctx), saml };
  }

  async submitOtp(ctx: StepContext, code: string): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["otp"]);
    if ("outcome" in loaded) return loaded;
    if (!loaded.tx.userId) return staleTransaction();
    const { realm, tx } = loaded;
    // A code mailed by an email-otp step is pending (email-code-step.ts): the page's code is that one.
    if (tx.emailOtpHash && !tx.emailOtpDone) {
      const checked = await this.emailCode.verify(realm, tx, ctx, code);
      return "reply" in checked ? checked.reply : this.next(realm, checked.tx, ctx);
    }
    const res = await this.kit.d.auth.verifyOtp({ realm: realm.name, userId: tx.userId ?? "", code: code.trim(), ipAddress: ctx.ipAddress });
    if (res.outcome !== AuthOutcome.OK) {
      // Keycloak's error for a wrong code is invalid_user_totp; locks and disabling keep theirs.
      const error = res.outcome === AuthOutcome.INVALID_CREDENTIALS ? "invalid_user_totp" : res.eventError;
      await this.kit.d.events.record(realm, ctx, tx, { type: "LOGIN_ERROR", error });
      return pageOf(tx, "otp", { message: res.outcome === AuthOutcome.DISABLED ? DISABLED_MESSAGE : INVALID_OTP_MESSAGE });
    }
    const moved = await this.kit.d.txs.advance(tx, { amr: [...new Set([...tx.amr, "otp"])], authTime: this.kit.now() });
    if (!moved) return staleTransaction();
    return this.next(realm, moved, ctx);
  }

  async confirmOtpEnrollment(ctx: StepContext, code: string): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["otp_enroll"]);
    if ("outcome" in loaded) return loaded;
    const { realm, tx } = loaded;
    const res = await this.kit.d.auth.confirmOtpEnrollment({ realm: realm.name, userId: tx.userId ?? "", code: code.trim() });
    if (!res.confirmed) {
      return pageOf(tx, "otp_enroll", { otpSecret: tx.otpSecret ?? "", otpauthUri: tx.otpauthUri ?? "", message: INVALID_OTP_MESSAGE });
    }
    // The recovery codes are shown once, then dropped from the transaction (Continue).
    const moved = await this.kit.d.txs.advance(tx, {
      step: "recovery_codes", recoveryCodes: [...res.recoveryCodes], amr: [...new Set([...tx.amr, "otp"])],
      pendingActions: (tx.pendingActions ?? []).filter((a) => a !== "CONFIGURE_TOTP"),
    }, ["otpSecret", "otpauthUri"]);
    if (!moved) return staleTransaction();
    await this.kit.d.events.record(realm, ctx, tx, { type: "UPDATE_TOTP" });
    return pageOf(moved, "recovery_codes", { recoveryCodes: moved.recoveryCodes ?? [] });
  }

  /** Past the recovery codes page. */
  async continue(ctx: StepContext): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["recovery_codes"]);
    if ("outcome" in loaded) return loaded;
    const moved = await this.kit.d.txs.advance(loaded.tx, { step: "otp" }, ["recoveryCodes"]);
    if (!moved) return staleTransaction();
    return this.next(loaded.realm, moved, ctx);
  }

  async submitNewPassword(ctx: StepContext, password: string, confirmation: string): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["update_password"]);
    if ("outcome" in loaded) return loaded;
    const { realm, tx } = loaded;
    if (!password) return pageOf(tx, "update_password", { message: "Please enter a new password." });
    if (password !== confirmation) return pageOf(tx, "update_password", { message: "The passwords do not match." });
    try {
      await this.kit.d.auth.changePassword({ realm: realm.name, userId: tx.userId ?? "", newPassword: password });
    } catch (e) {
      // A policy refusal (length, history...) is meant for the user, listed as the registration
      // page lists it; anything else is a failure.
      const ce = ConnectError.from(e);
      if (ce.code === Code.InvalidArgument || ce.code === Code.FailedPrecondition) return pageOf(tx, "update_password", { messages: messagesOf(ce.rawMessage) });
      throw e;
    }
    await this.kit.d.events.record(realm, ctx, tx, { type: "UPDATE_PASSWORD" });
    const moved = await this.kit.d.txs.advance(tx, {
      step: "otp", pendingActions: (tx.pendingActions ?? []).filter((a) => a !== "UPDATE_PASSWORD"),
    });
    if (!moved) return staleTransaction();
    return this.next(realm, moved, ctx);
  }

  /** Consent for an authorization request (remembered) or a device (RFC 8628 section 3.3). */
  async submitConsent(ctx: StepContext, approve: boolean): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["consent"]);
    if ("outcome" in loaded) return loaded;
    if (!loaded.tx.ssoSessionId) return staleTransaction();
    const { realm, tx } = loaded;
    const d = this.kit.d;
    const session = await d.sessions.repo.findById(realm.id, tx.ssoSessionId ?? "");
    if (!session || session.userId !== tx.userId) return staleTransaction();
    // The consent page may have been open a while: a client disabled or deleted meanwhile gets
    // neither the device's approval, nor a code, nor a redirect with access_denied.
    const client = await this.kit.currentClient(realm, ctx, tx);
    if ("outcome" in client) return client;
    if (tx.kind === "device") {
      if (!(await d.txs.finish(tx))) return staleTransaction();
      const decided = await d.devices.decide(tx.deviceCodeId ?? "", approve
        ? { status: "approved", userId: session.userId, ssoSessionId: session._id, authTime: session.authTime, amr: session.amr, acr: acrOf(tx.acr) }
        : { status: "denied" });
      if (!decided) return { outcome: { kind: "page", page: { step: "device_enter_code", message: "This code has expired or was already used." } } };
      if (approve) {
        const bounds = forLogin(realm, session.rememberMe);
        await d.sessions.repo.touch(realm.id, session._id, tx.clientId, this.kit.now(), cappedEnd(bounds, session.createdAt, this.kit.now() + bounds.refreshTokenLifespan * 1000));
      }
      return { outcome: { kind: "page", page: { step: "device_done", approved: approve, clientName: tx.clientName, clientId: tx.clientId } } };
    }
    const req = tx.request;
    if (!req) return staleTransaction();
    if (!approve) {
      if (!(await d.txs.finish(tx))) return staleTransaction();
      return this.kit.errorResponse(realm, req, ctx.baseUrl, "access_denied", "The user denied the request.");
    }
    // What the page listed (a transaction stored before the list was kept: the requested names).
    await d.consents.grant(realm.id, session.userId, tx.clientId, tx.consentScopes ?? scopesOf(tx.scope), this.kit.now());
    return this.authorization.finish(realm, tx, session, ctx);
  }

  /** The next step once the password was accepted (or the user registered): TOTP, required actions, then the session. */
  async next(realm: FlowRealm, tx: LoginTransactionRecord, ctx: StepContext): Promise<FlowReply> {
    const d = this.kit.d;
    if (tx.otpRequired && !tx.amr.includes("otp")) return this.moveTo(tx, "otp", {});
    // A user with a passkey and no TOTP proves it as the second factor (passkey-steps.ts).
    if (tx.passkeyRequired && !tx.amr.includes("hwk")) return promptPasskey(this.kit, realm, tx, ctx, "passkey", tx.userId ?? "");
    if (tx.emailOtpRequired && !tx.emailOtpDone) return this.emailCode.prompt(realm, tx, ctx);
    if (PluginChallengeStep.owed(tx)) return this.pluginStep.start(realm, tx, ctx);
    // A passkey step of the flow for a user without one: registered first (WebAuthn section 5.1.3).
    if (tx.passkeyEnrol && !tx.passkeyRegistered) return promptPasskey(this.kit, realm, tx, ctx, "passkey_register", tx.userId ?? "");
    const action = (tx.pendingActions ?? [])[0];
    if (tx.kind === "actions") {
      const done = await actionLinkStep(this.kit, realm, tx, ctx, action, (moved) => this.next(realm, moved, ctx));
      if (done) return done;
    }
    if (action === "CONFIGURE_TOTP") {
      const res = await d.auth.beginOtpEnrollment({ realm: realm.name, userId: tx.userId ?? "" });
      const moved = await d.txs.advance(tx, { step: "otp_enroll", otpSecret: res.secret, otpauthUri: res.otpauthUri });
      if (!moved) return staleTransaction();
      return pageOf(moved, "otp_enroll", { otpSecret: res.secret, otpauthUri: res.otpauthUri });
    }
    if (action === "TERMS_AND_CONDITIONS") return this.profileAndTerms.promptTerms(tx);
    if (action === "UPDATE_PASSWORD") return this.moveTo(tx, "update_password", {});
    if (action === "UPDATE_PROFILE") return this.profileAndTerms.promptProfile(realm, tx);
    if (action === "VERIFY_EMAIL") return this.emailVerification.prompt(realm, tx, ctx);
    // kc_action=webauthn-register-passwordless: the application asked for a passkey to be registered.
    if (tx.request?.kcAction === PASSKEY_REGISTER_ACTION && !tx.passkeyRegistered) {
      return promptPasskey(this.kit, realm, tx, ctx, "passkey_register", tx.userId ?? "");
    }
    // The end of authentication: the client as it is now (it may have been disabled, deleted or
    // made to require consent while the pages were open); refused before any session is made.
    let client: ClientInfo | null = null;
    if (tx.kind !== "saml") {
      const current = await this.kit.currentClient(realm, ctx, tx);
      if ("outcome" in current) return current;
      client = current;
    }
    const { session, cookie, durable } = await this.kit.establishSession(realm, tx, ctx.ipAddress);
    // Keycloak's LOGIN event carries remember_me "true" when the box was ticked.
    await d.events.record(realm, ctx, tx, { type: "LOGIN", sessionId: session._id, ...(tx.rememberMe ? { details: { remember_me: "true" } } : {}) });
    const reply = await this.authorization.complete(realm, tx, session, ctx, cookie, client);
    await durable();
    return reply;
  }

  private async moveTo(tx: LoginTransactionRecord, step: "otp" | "update_password", extra: object): Promise<FlowReply> {
    const moved = tx.step === step ? tx : await this.kit.d.txs.advance(tx, { step });
    if (!moved) return staleTransaction();
    return pageOf(moved, step, extra);
  }
}
