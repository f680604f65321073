import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { AuthOutcome, AuthenticationService } from "../../../../../gen/iam/directory/v1/authentication_pb.js";
import { IamError } from "../../../../kit/src/errors.js";
import type { Clock } from "../../../../kit/src/store/port.js";
import { splitScope, type TokenMinter } from "../token-minter.js";
import { requireParam, type Grant, type GrantContext, type GrantResult } from "./grant-context.js";
import type { UserTokens } from "./user-tokens.js";
import { AUTHENTICATED } from "../acr.js";

/** Every credential failure's error_description: one text, so it tells no account apart; Keycloak's, word for word. */
export const INVALID_CREDENTIALS = "Invalid user credentials";
/** Keycloak's error_description when the credentials were right but a required action is pending. */
export const NOT_FULLY_SET_UP = "Account is not fully set up";
/** The user's LDAP directory could not be reached: the grant fails closed and says why. */
export const DIRECTORY_UNAVAILABLE = "The user directory is unavailable";

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

  constructor(transport: Transport, private readonly minter: TokenMinter, private readonly tokens: UserTokens, private readonly clock: Clock) {
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
    if (res.otpRequired) {
      // A missing code is checked like a wrong one, so it is counted as a failure too.
      const otp = await this.auth.verifyOtp({ realm: ctx.realm.name, userId: res.userId, code: ctx.params.otp, ipAddress: ctx.params.ipAddress })
        .catch((e: unknown) => {
          if (e instanceof ConnectError && e.code === Code.InvalidArgument) return { outcome: AuthOutcome.INVALID_CREDENTIALS, eventError: "invalid_user_credentials" };
          throw e;
        });
      if (otp.outcome !== AuthOutcome.OK) throw new LoginFailed(otp.eventError || "invalid_user_credentials", res.userId);
      amr.push("otp");
    }
    if (res.requiredActions.length > 0) {
      // The actions need the browser. Said as Keycloak says it: only after the right password (and
      // code), so it tells nothing to whoever does not have them.
      throw new LoginFailed("resolve_required_actions", res.userId, NOT_FULLY_SET_UP);
    }
    const grant = await this.minter.grant(ctx.realm, ctx.client, res.userId, requested);
    const issued = await this.tokens.issue(ctx, {
      userId: res.userId, username: res.username || username, ssoSession: null, authTime: this.clock.now(), amr, acr: AUTHENTICATED, nonce: "",
    }, grant);
    // The LOGIN event names the user as the login page's does (the account's username).
    return { ...issued, details: { ...issued.details, username: res.username || username } };
  }
}
