import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { AuthOutcome, AuthenticationService } from "../../../../../gen/iam/directory/v1/authentication_pb.js";
import { IamError } from "../../../../kit/src/errors.js";
import type { Clock } from "../../../../kit/src/store/port.js";
import { splitScope, type TokenMinter } from "../token-minter.js";
import { requireParam, type Grant, type GrantContext, type GrantResult } from "./grant-context.js";
import { planLogin, type UserTokens } from "./user-tokens.js";
import { AUTHENTICATED } from "../acr.js";
import type { AuthenticationFlows } from "../authentication-flows.js";
import type { FlowPlan, PluginStepCall } from "../../../../kit/src/authentication-flows/flow-plan.js";
import type { PluginStepRunner } from "../plugin-step-runner.js";

/** Every credential failure's error_description: one text, so it tells no account apart; Keycloak's, word for word. */
export const INVALID_CREDENTIALS = "Invalid user credentials";
/** Keycloak's error_description when the credentials were right but a required action is pending. */
export const NOT_FULLY_SET_UP = "Account is not fully set up";
/** The user's LDAP directory could not be reached: the grant fails closed and says why. */
export const DIRECTORY_UNAVAILABLE = "The user directory is unavailable";
/** A deny step of the direct-grant flow applied (Keycloak's deny-access authenticator says the same). */
export const ACCESS_DENIED = "Access denied";
/** The direct-grant flow asks for a passkey or an email code, which only the login pages can ask for. */
export const PASSKEY_NEEDS_BROWSER = "The authentication flow requires a passkey or an email code, which the password grant cannot provide";
/** A plugin step of the direct-grant flow asked the user something: no page can be shown here. */
export const PLUGIN_NEEDS_BROWSER = "The authentication flow needs interaction, which the password grant cannot provide";

/** A failed login: invalid_grant for the client, the directory's event error for the LOGIN_ERROR event. */
export class LoginFailed extends IamError {
  constructor(readonly eventError: string, readonly userId: string, description = INVALID_CREDENTIALS) {
    super({ code: "invalidArgument", reason: "invalid_grant", oauthError: "invalid_grant", message: description });
  }
}

/**
 * RFC 6749 section 4.3, only for clients listing `password`. The user is proven by the
 * directory's AuthenticationService (password policy, brute-force lockout, TOTP; every failure
 * is counted there), one generic invalid_grant for every failure (no account enumeration).
 * No SSO session: the refresh family is the session.
 */
export class PasswordGrant implements Grant {
  private readonly auth: Client<typeof AuthenticationService>;

  constructor(
    transport: Transport, private readonly minter: TokenMinter, private readonly tokens: UserTokens, private readonly clock: Clock,
    private readonly flows?: AuthenticationFlows, private readonly pluginSteps?: PluginStepRunner,
  ) {
    this.auth = createClient(AuthenticationService, transport);
  }

  async issue(ctx: GrantContext): Promise<GrantResult> {
    // A client that must ask the user's consent cannot ask it here: no page is shown (Keycloak
    // refuses with "Client requires user consent"). unauthorized_client, RFC 6749 section 5.2:
    // the authenticated client may not use this grant as configured. Before any password check,
    // so no hash and no counted failure for a request that could never succeed.
    if (ctx.client.requireConsent) throw IamError.oauth("unauthorized_client", "Client requires user consent");
    const username = requireParam(ctx.params.username, "username");
    const password = requireParam(ctx.params.password, "password");
    const requested = splitScope(ctx.params.scope);
    const res = await this.auth.authenticatePassword({
      realm: ctx.realm.name, username, password, clientId: ctx.client.clientId, ipAddress: ctx.params.ipAddress,
    });
    if (res.outcome === AuthOutcome.UNAVAILABLE) throw new LoginFailed(res.eventError, res.userId, DIRECTORY_UNAVAILABLE);
    if (res.outcome !== AuthOutcome.OK) throw new LoginFailed(res.eventError || "invalid_user_credentials", res.userId);
    const amr = ["pwd"];
    // The realm's (or the client's) direct-grant flow; null for the built-in one, which is the sequence below.
    const plan = await this.flows?.plan({ realm: ctx.realm, client: ctx.client }, "direct", {
      userId: res.userId, identifiedBy: "pwd", otpConfigured: res.otpRequired, passkeyConfigured: res.passkeyConfigured,
    }) ?? null;
    if (plan) {
      checkPlan(plan, res.userId, res.otpRequired);
      if (plan.otp) {
        await this.verifyCode(ctx, res.userId);
        amr.push("otp");
      }
      for (const step of plan.plugins) await this.runPluginStep(ctx, step, res.userId);
      if (plan.requiredActions && res.requiredActions.length > 0) throw new LoginFailed("resolve_required_actions", res.userId, NOT_FULLY_SET_UP);
      return this.finish(ctx, res.userId, res.username || username, requested, amr);
    }
    if (res.otpRequired) {
      await this.verifyCode(ctx, res.userId);
      amr.push("otp");
    }
    if (res.requiredActions.length > 0) {
      // The actions need the browser. Said as Keycloak says it: only after the right password (and
      // code), so it tells nothing to whoever does not have them.
      throw new LoginFailed("resolve_required_actions", res.userId, NOT_FULLY_SET_UP);
    }
    return this.finish(ctx, res.userId, res.username || username, requested, amr);
  }

  /** The TOTP code of the `otp` (or Keycloak's `totp`) parameter. A missing code is checked like a wrong one, so it is counted as a failure too. */
  private async verifyCode(ctx: GrantContext, userId: string): Promise<void> {
    const otp = await this.auth.verifyOtp({ realm: ctx.realm.name, userId, code: ctx.params.otp, ipAddress: ctx.params.ipAddress })
      .catch((e: unknown) => {
        if (e instanceof ConnectError && e.code === Code.InvalidArgument) return { outcome: AuthOutcome.INVALID_CREDENTIALS, eventError: "invalid_user_credentials" };
        throw e;
      });
    if (otp.outcome !== AuthOutcome.OK) throw new LoginFailed(otp.eventError || "invalid_user_credentials", userId);
  }

  /**
   * A plugin authenticator step (docs/plugins.md): called with no form fields, since the token
   * request carries none of a step page's fields; a challenge therefore refuses the grant (it
   * needs a page), a failure is invalid_grant with the plugin's error as the event's error.
   */
  private async runPluginStep(ctx: GrantContext, step: PluginStepCall, userId: string): Promise<void> {
    if (!this.pluginSteps) throw new LoginFailed("invalid_user_credentials", userId);
    const result = await this.pluginSteps.run(step, { realm: ctx.realm.name, clientId: ctx.client.clientId, userId, form: {} });
    if (result.outcome === "challenge") throw new LoginFailed("interaction_required", userId, PLUGIN_NEEDS_BROWSER);
    if (result.outcome === "failure") throw new LoginFailed(result.error, userId);
  }

  private async finish(ctx: GrantContext, userId: string, username: string, requested: string[] | undefined, amr: string[]): Promise<GrantResult> {
    // No SSO session: the refresh family is the login's session, its id chosen before the claims.
    const { login, session } = planLogin(ctx.client, { userId, username, ssoSession: null, authTime: this.clock.now(), amr, acr: AUTHENTICATED, nonce: "" });
    const grant = await this.minter.grant(ctx.realm, ctx.client, userId, session, requested);
    const issued = await this.tokens.issue(ctx, login, grant);
    // The LOGIN event names the user as the login page's does (the account's username).
    return { ...issued, details: { ...issued.details, username } };
  }
}

/**
 * What a custom direct-grant flow refuses once the password is right: a deny step, a passkey (no
 * page can ask for it here), a password after another identification, or a code the user cannot
 * give because TOTP is not set up (Keycloak: the account is not fully set up).
 */
function checkPlan(plan: FlowPlan, userId: string, otpConfigured: boolean): void {
  if (plan.deny) throw new LoginFailed("access_denied", userId, ACCESS_DENIED);
  if (plan.passkey || plan.emailOtp || plan.methodRefused) throw new LoginFailed("invalid_user_credentials", userId, PASSKEY_NEEDS_BROWSER);
  if (plan.otp && !otpConfigured) throw new LoginFailed("resolve_required_actions", userId, NOT_FULLY_SET_UP);
}
