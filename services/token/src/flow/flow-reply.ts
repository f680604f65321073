import type { LoginTransactionRecord, TransactionStep } from "./login-transaction.js";
import { formActionSourceOf } from "../../../kit/src/form-action-source.js";
import { REALM_NOT_FOUND } from "../../../kit/src/realm-not-found.js";
import { displayUserCode } from "../domain/user-code.js";
import type { ConsentScope } from "./consent-scopes.js";

export type PageStep = TransactionStep | "device_enter_code" | "device_done" | "logged_out" | "register" | "email_verified"
  | "reset_credentials" | "reset_email_sent" | "reset_password" | "password_reset_done" | "account_updated";

/** A page for the gateway to render (its fields mirror iam.token.v1.FlowPage). */
export interface PageView {
  step: PageStep;
  transactionId?: string;
  csrfToken?: string;
  clientId?: string;
  clientName?: string;
  username?: string;
  message?: string;
  /** The consent page: the names of the scopes it lists, and each with its text. */
  scopes?: string[];
  consentScopes?: ConsentScope[];
  otpSecret?: string;
  otpauthUri?: string;
  recoveryCodes?: string[];
  approved?: boolean;
  userCode?: string;
  /** The code page asks for the code an email-otp step mailed (email-code-step.ts), not an app's. */
  emailedCode?: boolean;
  /** Registration and UPDATE_PASSWORD: every failed rule; registration: the form's values to show again. */
  messages?: string[];
  email?: string;
  firstName?: string;
  lastName?: string;
  /** The reset password form: the mailed link's key, posted back with the new password. */
  resetKey?: string;
  /** Passkey pages: the ceremony's options (JSON); whether it is a second factor. */
  passkeyOptions?: string;
  passkeySecondFactor?: boolean;
  /** A plugin step's challenge page: its title and fields (the message is `message`). */
  pluginTitle?: string;
  pluginFields?: Array<{ name: string; label: string; type: string }>;
  /** The login page: the identity provider the request named (kc_idp_hint). */
  idpHint?: string;
  /** The account updated page: where "Back to application" leads (an execute-actions link's redirect_uri). */
  backUri?: string;
  /** The authorization request's ui_locales (OIDC Core 3.1.2.1), for the pages' language. */
  uiLocales?: string;
  /** The user's `locale` attribute, once the flow knows the user. */
  userLocale?: string;
  /** The update-profile page offers the username (the realm's editUsernameAllowed). */
  usernameEditable?: boolean;
}

/**
 * How an authorization response reaches the client: in the redirect_uri's query (the default for
 * response_type=code), in its fragment (OAuth 2.0 Multiple Response Type Encoding Practices section
 * 2.1), or as an auto-submitted HTML form POSTed to it (OAuth 2.0 Form Post Response Mode).
 */
export type ResponseMode = "query" | "fragment" | "form_post";
export const RESPONSE_MODES: readonly ResponseMode[] = ["query", "fragment", "form_post"];

export type FlowOutcome =
  | { kind: "page"; page: PageView }
  | { kind: "redirect"; uri: string }
  /** Form Post Response Mode: the gateway renders a form POSTing `fields` to the registered `uri`. */
  | { kind: "form_post"; uri: string; fields: Array<[string, string]> }
  /** `retryAfter`: seconds, sent as Retry-After (RFC 6585 section 4) with a 429. */
  | { kind: "error"; error: string; description: string; status: number; retryAfter?: number }
  | { kind: "saml_complete"; pendingId: string; sessionId: string; userId: string; authTime: number };

/** What a flow step answers: a page, a redirect to a validated URI, or an error page. */
export interface FlowReply {
  outcome: FlowOutcome;
  setSsoCookie?: string;
  /** With setSsoCookie, for a session opened with "Remember me": the cookie's Max-Age (seconds) and the username the login page remembers. */
  ssoCookieMaxAge?: number;
  rememberMeUsername?: string;
  clearSsoCookie?: boolean;
  /** CSP form-action source of the registered URI the flow may end at: its origin, or a private-use scheme. */
  formActionOrigin?: string;
}

export function errorReply(error: string, description: string, status = 400): FlowReply {
  return { outcome: { kind: "error", error, description, status } };
}

/**
 * A realm that does not exist or is disabled: every hosted page of it answers this 404 (as
 * Keycloak, a disabled realm serves no login).
 */
export function realmNotFound(): FlowReply {
  return errorReply(REALM_NOT_FOUND.error, REALM_NOT_FOUND.description, REALM_NOT_FOUND.status);
}

/** Why a login's client refuses it at the end of authentication: the LOGIN_ERROR event's error (Keycloak's Errors). */
export type LoginRequesterError = "client_disabled" | "client_not_found" | "invalid_redirect_uri";

/**
 * The client a login was started for is disabled or gone by the time the user authenticated:
 * Keycloak's "Login requester not enabled" / "Unknown login requester" pages. A page, never a
 * redirect to the client (RFC 6749 section 4.1.2.1: no redirect for an invalid client).
 */
export function loginRequesterRefused(error: LoginRequesterError): FlowReply {
  // A redirect_uri unregistered meanwhile: Keycloak's page for a redirect_uri it will not use.
  if (error === "invalid_redirect_uri") return errorReply("invalid_request", "Invalid parameter: redirect_uri", 400);
  return errorReply("invalid_client", error === "client_disabled" ? "Login requester not enabled." : "Unknown login requester.", 400);
}

/** The transaction expired, was finished, or is presented by another browser or without its CSRF token. */
export function staleTransaction(): FlowReply {
  return errorReply("invalid_transaction", "This login page has expired or was already used. Please start again from the application.", 400);
}

/**
 * A page of the transaction's flow. Every page of a device verification carries its user code, as
 * the device shows it (RFC 8628 section 6.1: the user compares the two), so the templates keep
 * the device wording on every render, a re-render after a wrong password included.
 */
export function pageOf(tx: LoginTransactionRecord, step: PageStep, extra: Partial<PageView> = {}): FlowReply {
  const page: PageView = {
    step, transactionId: tx._id, csrfToken: tx.csrfToken, clientId: tx.clientId, clientName: tx.clientName,
    ...(tx.userCode ? { userCode: displayUserCode(tx.userCode) } : {}),
    ...(step === "otp" && tx.emailOtpHash && !tx.emailOtpDone ? { emailedCode: true } : {}),
    ...(tx.request?.uiLocales ? { uiLocales: tx.request.uiLocales } : {}), ...(tx.userLocale ? { userLocale: tx.userLocale } : {}), ...extra,
  };
  const uri = tx.request?.redirectUri ?? tx.postLogoutRedirectUri;
  return { outcome: { kind: "page", page }, ...(uri ? { formActionOrigin: formActionSourceOf(uri) } : {}) };
}

/**
 * The authorization response (a code, or an error) to the validated redirect_uri, encoded per
 * `mode`; empty parameters are left out. The page that posts a form_post response may post to the
 * redirect_uri's origin only (CSP form-action).
 */
export function clientResponse(redirectUri: string, mode: ResponseMode, params: Record<string, string>): FlowReply {
  const fields = Object.entries(params).filter(([, v]) => v !== "");
  const formActionOrigin = formActionSourceOf(redirectUri);
  if (mode === "form_post") return { outcome: { kind: "form_post", uri: redirectUri, fields }, formActionOrigin };
  const uri = mode === "fragment" ? withFragment(redirectUri, fields) : withQuery(redirectUri, params);
  return { outcome: { kind: "redirect", uri }, formActionOrigin };
}

/** The parameters as the fragment of a registered URI (which has none: registration refuses one). */
function withFragment(uri: string, fields: Array<[string, string]>): string {
  const u = new URL(uri);
  u.hash = new URLSearchParams(fields).toString();
  return u.href;
}

/** Appends parameters to a registered URI's query, keeping its own (RFC 6749 section 3.1.2). */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") u.searchParams.append(k, v);
  return u.href;
}

