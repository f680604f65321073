import type { PluginStepCall } from "../../../kit/src/authentication-flows/flow-plan.js";
import type { ResponseMode } from "./flow-reply.js";
import type { Doc } from "../../../kit/src/store/port.js";
import type { Acr } from "../domain/acr.js";

/** A login transaction lives this long (the user has 30 min to finish logging in). */
export const TRANSACTION_TTL_MS = 30 * 60_000;

/** A plugin step's challenge page as the transaction keeps it. */
export interface PluginPage {
  title: string;
  message: string;
  fields: Array<{ name: string; label: string; type: string }>;
}

/** "actions": an execute-actions link's required actions (action-link-flow.ts), no login. */
export type TransactionKind = "authorize" | "device" | "logout" | "saml" | "actions";

export type TransactionStep =
  | "login" | "otp" | "otp_enroll" | "recovery_codes" | "update_password" | "consent" | "logout_confirm" | "done"
  | "verify_email" | "passkey" | "passkey_register" | "plugin_challenge" | "terms" | "update_profile";

/** A validated authorization request (OIDC Core 1.0 section 3.1.2.1, RFC 7636). */
export interface AuthorizationRequest {
  clientId: string;
  /**
   * The directory's id of the client: its code is bound to it, so a client deleted and created
   * again under the same clientId cannot redeem it (RFC 6749 section 4.1.3). Absent in
   * transactions stored before it was recorded.
   */
  clientInternalId?: string;
  redirectUri: string;
  scope: string;
  state: string;
  nonce: string;
  codeChallenge: string;
  /** "S256" or "" (plain is refused, DESIGN 5). */
  codeChallengeMethod: string;
  /** -1 when absent. */
  maxAge: number;
  prompt: string[];
  loginHint: string;
  /** OIDC Core 3.1.2.1 ui_locales: the end-user's preferred languages, space-separated. */
  uiLocales?: string;
  /** Keycloak's kc_idp_hint: the identity provider the login page goes straight to, if the realm has it. */
  idpHint?: string;
  /** Keycloak's application-initiated action (kc_action): "webauthn-register-passwordless" or absent. */
  kcAction?: string;
  /** RFC 9449 section 10: the thumbprint of the DPoP key the code is bound to (`dpop_jkt`); absent when not sent. */
  dpopJkt?: string;
  /** How the response reaches the client; absent means "query" (the default for code, and transactions stored before modes). */
  responseMode?: ResponseMode;
}

/**
 * The browser flow's state (DESIGN 3: token owns login transactions): what was asked, which step
 * was reached, who authenticated so far. Bound to one browser (`browserHash`, the SHA-256 of the
 * browser-binding cookie) and guarded by a CSRF token checked on every POST.
 */
export interface LoginTransactionRecord extends Doc {
  realmId: string;
  realmName: string;
  kind: TransactionKind;
  browserHash: string;
  csrfToken: string;
  step: TransactionStep;
  clientId: string;
  clientName: string;
  request?: AuthorizationRequest;
  /** The requested scope (the authorization request's, or the device's). */
  scope: string;
  /** The names of the scopes the consent page listed (consent-scopes.ts): what approving it records. */
  consentScopes?: string[];
  /** Set once the password was accepted. */
  userId?: string;
  /** The user's `locale` attribute, read with the password: the pages' language from then on. */
  userLocale?: string;
  username?: string;
  otpRequired?: boolean;
  /** Required actions still to do, in order (directory RequiredAction names). */
  pendingActions?: string[];
  /** An execute-actions link's redirect_uri (validated when mailed): the "Back to application" link. */
  actionsRedirectUri?: string;
  amr: string[];
  authTime?: number;
  /**
   * "0" when the SSO session's cookie authenticated this transaction, no credentials being
   * presented in it; absent when the user authenticates in it ("1"): the tokens' acr (acr.ts).
   */
  acr?: Acr;
  /** The SSO session this flow created or reuses. */
  ssoSessionId?: string;
  /** A session the browser had before a forced re-authentication. */
  priorSessionId?: string;
  /** The user ticked "Remember me" with the password, in a realm offering it: the new session is remembered. */
  rememberMe?: boolean;
  otpSecret?: string;
  otpauthUri?: string;
  recoveryCodes?: string[];
  /**
   * Passkeys (passkey-ceremony.ts): the pending ceremony's challenge (base64url), consumed once
   * by the submit that verifies it, and when it expires; its options as the page shows them; and
   * whether a passkey is the second factor still owed after a password.
   */
  passkeyChallenge?: string;
  passkeyChallengeExpiresAt?: number;
  passkeyOptions?: string;
  passkeyRequired?: boolean;
  /** The browser flow owes a passkey the user has not registered: registration comes first (browser-flow-plan.ts). */
  passkeyEnrol?: boolean;
  /**
   * An email-otp step (email-code-step.ts): owed, the pending code's SHA-256 digest, its expiry,
   * the wrong codes typed for it, and whether it was given.
   */
  emailOtpRequired?: boolean;
  emailOtpHash?: string;
  emailOtpExpiresAt?: number;
  emailOtpAttempts?: number;
  emailOtpDone?: boolean;
  /**
   * The browser flow's plugin authenticator steps (plugin-challenge-step.ts): owed in order, how
   * many passed, the page the current one showed (its fields are the only ones posted back), and
   * its failed tries.
   */
  pluginSteps?: PluginStepCall[];
  pluginStepsDone?: number;
  pluginPage?: PluginPage;
  pluginFailures?: number;
  /** The passkey registered in this transaction (kc_action=webauthn-register-passwordless is done). */
  passkeyRegistered?: boolean;
  /** Keycloak's credential type of the login (webauthn-passwordless, webauthn): the LOGIN event's credential_type. */
  credentialType?: string;
  /** Device verification (RFC 8628 section 3.3). */
  deviceCodeId?: string;
  userCode?: string;
  /** RP-initiated logout. */
  logoutSessionId?: string;
  postLogoutRedirectUri?: string;
  logoutState?: string;
  /** The identity provider alias of a brokered login (spec 4.19); its login events name it. */
  identityProvider?: string;
  /** SAML login (saml-login.ts): the saml service's parked AuthnRequest. */
  samlPendingId?: string;
  createdAt: number;
  expiresAt: number;
}
