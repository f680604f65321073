import type { Request, Response } from "express";
import { otpauthQrCode } from "./qr-code.js";
import { FlowStep, type FlowPage, type FlowResult } from "../../../gen/iam/token/v1/authorization_pb.js";
import { currentContext } from "../../../services/kit/src/context.js";
import { REALM_NOT_FOUND } from "../../../services/kit/src/realm-not-found.js";
import { describeError, RETRY_AFTER_SECONDS } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";
import { writeFlowCookies } from "../oidc/browser-cookies.js";
import { rememberMeField } from "./remember-me.js";
import { renderPage } from "./page-renderer.js";
import { sendAutoPost } from "./auto-post-page.js";
import { PASSWORD_TOGGLE_SCRIPT, PASSWORD_TOGGLE_SOURCE } from "./password-toggle.js";
import type { RealmLook, RealmLooks } from "./realm-looks.js";
import { pageLocale, type PageLocale } from "./page-locale.js";
import { passwordRules } from "./password-rules.js";
import type { LoginOptions } from "./login-options.js";
import { providerButtons } from "../broker/login-buttons.js";
import { identityFirstLogin } from "./identity-first.js";
import { idpRedirectOf } from "./flow-identity-first.js";
import { PASSKEY_LIBRARY_PATH, PASSKEY_PAGE_SCRIPT_PATH, scriptNonce } from "./passkey-assets.js";

export interface PageDeps {
  rpc: RpcClients;
  publicUrl: string;
  looks: RealmLooks;
  /** The login page's identity providers and organizations, cached (login-options.ts). */
  login: LoginOptions;
}

/**
 * `password`: the page has a password field, so it gets the show-password toggle (password-toggle.ts).
 * `title`: the message key of the page's heading (services/kit/src/i18n/messages-en.ts).
 */
const TEMPLATES: Partial<Record<FlowStep, { template: string; title: string; password?: boolean; passkey?: boolean }>> = {
  [FlowStep.PASSKEY]: { template: "passkey.njk", title: "webauthn-login-title", passkey: true },
  [FlowStep.PASSKEY_REGISTER]: { template: "passkey-register.njk", title: "webauthn-registration-title", passkey: true },
  [FlowStep.LOGIN]: { template: "login.njk", title: "loginAccountTitle", password: true },
  [FlowStep.OTP]: { template: "otp.njk", title: "authenticatorCode" },
  [FlowStep.PLUGIN_CHALLENGE]: { template: "plugin-challenge.njk", title: "pluginChallengeTitle" },
  [FlowStep.OTP_ENROLL]: { template: "otp-enroll.njk", title: "loginTotpTitle" },
  [FlowStep.RECOVERY_CODES]: { template: "recovery-codes.njk", title: "recoveryCodesTitle" },
  [FlowStep.UPDATE_PASSWORD]: { template: "update-password.njk", title: "updatePasswordTitle", password: true },
  [FlowStep.CONSENT]: { template: "consent.njk", title: "oauthGrantTitle" },
  [FlowStep.DEVICE_ENTER_CODE]: { template: "device-enter.njk", title: "oauth2DeviceVerificationTitle" },
  [FlowStep.DEVICE_DONE]: { template: "device-done.njk", title: "oauth2DeviceVerificationTitle" },
  [FlowStep.LOGOUT_CONFIRM]: { template: "logout-confirm.njk", title: "logoutConfirmTitle" },
  [FlowStep.LOGGED_OUT]: { template: "logged-out.njk", title: "loggedOutTitle" },
  [FlowStep.REGISTER]: { template: "register.njk", title: "registerTitle", password: true },
  [FlowStep.VERIFY_EMAIL]: { template: "verify-email.njk", title: "emailVerifyTitle" },
  [FlowStep.EMAIL_VERIFIED]: { template: "email-verified.njk", title: "emailVerifiedTitle" },
  [FlowStep.RESET_CREDENTIALS]: { template: "reset-credentials.njk", title: "emailForgotTitle" },
  [FlowStep.RESET_EMAIL_SENT]: { template: "reset-email-sent.njk", title: "resetEmailSentTitle" },
  [FlowStep.RESET_PASSWORD]: { template: "reset-password.njk", title: "resetPasswordTitle", password: true },
  [FlowStep.PASSWORD_RESET_DONE]: { template: "password-reset-done.njk", title: "passwordResetDoneTitle" },
  [FlowStep.ACCOUNT_UPDATED]: { template: "account-updated.njk", title: "accountUpdatedTitle" },
  [FlowStep.TERMS]: { template: "terms.njk", title: "termsTitle" },
  [FlowStep.UPDATE_PROFILE]: { template: "update-profile.njk", title: "loginProfileTitle" },
};

/** Steps whose message is information, not an error. */
const INFO_STEPS = new Set([
  FlowStep.LOGGED_OUT, FlowStep.DEVICE_DONE, FlowStep.VERIFY_EMAIL, FlowStep.EMAIL_VERIFIED, FlowStep.RESET_EMAIL_SENT, FlowStep.PASSWORD_RESET_DONE,
  FlowStep.ACCOUNT_UPDATED,
]);

/**
 * An HTML error page of a browser flow (DESIGN 4: never a redirect to an unregistered URI). A 5xx
 * page is logged with its cause, on the request's logger (DESIGN 4: it carries request_id), since
 * the page itself shows no cause: without the line an operator could not find what failed.
 */
export async function sendErrorPage(res: Response, deps: PageDeps, realm: string, status: number, error: string, description: string, cause?: unknown): Promise<void> {
  if (status >= 500) currentContext()?.logger.error({ err: cause, realm, status, error }, "hosted page answered a server error");
  if (status === 503) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
  const look = await deps.looks.get(realm);
  const l = localeOf(res, deps, realm, look);
  await renderPage(res, status, "error.njk", { ...look, ...localeContext(l), pageTitle: l.t("errorTitle"), error, description: l.serverMessage(description) });
}

/** The page's locale (page-locale.ts) from the request it answers. */
function localeOf(res: Response, deps: PageDeps, realm: string, look: RealmLook, page?: FlowPage): PageLocale {
  return pageLocale(res.req as Request | undefined, res, {
    realm, publicUrl: deps.publicUrl, overrides: look.overrides ?? {},
    locales: look.locales ?? { internationalizationEnabled: false, supportedLocales: [], defaultLocale: "" },
    ...(page?.uiLocales ? { uiLocales: page.uiLocales } : {}), ...(page?.userLocale ? { userLocale: page.userLocale } : {}), ...(page?.transactionId ? { transactionId: page.transactionId } : {}),
  });
}

/** What every template reads of the locale: `t(key, ...args)`, `<html lang>`, the menu. */
function localeContext(l: PageLocale): object {
  return { t: l.t, lang: l.locale, languages: l.languages };
}

/** The page of a realm that does not exist or is disabled: the one wording every hosted page uses. */
export function sendUnknownRealmPage(res: Response, deps: PageDeps, realm: string): Promise<void> {
  return sendErrorPage(res, deps, realm, REALM_NOT_FOUND.status, REALM_NOT_FOUND.error, REALM_NOT_FOUND.description);
}

/**
 * An RPC failure in a browser flow, as an error page (internal causes are never shown). A service's
 * realm_not_found (the saml service passes the directory's on) is the unknown realm's page, not
 * the Admin API's wording.
 */
export async function sendFailure(res: Response, deps: PageDeps, realm: string, e: unknown): Promise<void> {
  const err = describeError(e);
  if (err.reason === REALM_NOT_FOUND.error) return sendUnknownRealmPage(res, deps, realm);
  const description = err.status >= 500 ? "Something went wrong. Please try again later." : err.message;
  await sendErrorPage(res, deps, realm, err.status, err.reason, description, e);
}

/**
 * Writes what a flow step answered: a page (with the form posting to `action`), a 302 to a URI the
 * token service validated, a form auto-posted to one (response_mode=form_post), or an error page;
 * sets or clears the SSO cookie.
 */
export async function sendFlowResult(res: Response, deps: PageDeps, realm: string, result: FlowResult | undefined, action: string): Promise<void> {
  if (!result) return sendErrorPage(res, deps, realm, 500, "server_error", "Something went wrong.");
  writeFlowCookies(res.req, res, realm, deps.publicUrl, result);
  const o = result.outcome;
  if (o.case === "redirect") {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Referrer-Policy", "no-referrer");
    res.redirect(302, o.value);
    return;
  }
  if (o.case === "formPost") {
    // response_mode=form_post: the token service validated the action (the registered redirect_uri).
    return sendAutoPost(res, deps, realm, { url: o.value.action, fields: o.value.fields.map((f) => ({ name: f.name, value: f.value })) }, "Returning to the application…");
  }
  if (o.case === "error") {
    // RFC 6585 section 4: a 429 may say when to come back (the device page's bound on wrong user codes).
    if (o.value.retryAfterSeconds > 0) res.setHeader("Retry-After", String(o.value.retryAfterSeconds));
    return sendErrorPage(res, deps, realm, o.value.status || 400, o.value.error, o.value.description);
  }
  if (o.case !== "page") return sendErrorPage(res, deps, realm, 500, "server_error", "Something went wrong.");
  const page: FlowPage = o.value;
  const entry = TEMPLATES[page.step];
  if (!entry) return sendErrorPage(res, deps, realm, 500, "server_error", "Something went wrong.");
  const look = await deps.looks.get(realm);
  // A flow starting with an idp-redirector step: the identity provider's login instead of this page.
  const idpRedirect = await idpRedirectOf(deps.rpc, deps.login, realm, look.browserFlow, page, action);
  if (idpRedirect) {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Referrer-Policy", "no-referrer");
    res.redirect(302, idpRedirect);
    return;
  }
  const qrDataUrl = page.step === FlowStep.OTP_ENROLL && page.otpauthUri.startsWith("otpauth://")
    ? await otpauthQrCode(page.otpauthUri) : "";
  const identityProviders = await providerButtons(deps.login, realm, page, action);
  // The username alone first, in a realm with organizations (identity-first.ts); once a username
  // is known (the password step, a failed password) the usual form.
  const identityFirst = page.step === FlowStep.LOGIN && !page.username && !page.userCode && page.transactionId !== ""
    && action.endsWith("/protocol/openid-connect/auth") && (await identityFirstLogin(deps.rpc, deps.login, realm, look.browserFlow));
  // After identityFirst and idpRedirect, which go by who the request named: a remembered username only fills the field.
  const rememberMe = page.step === FlowStep.LOGIN && look.rememberMe ? rememberMeField(res.req, page) : undefined;
  // The passkey pages load two script files admitted by a per-response nonce (passkey-assets.ts).
  const nonce = entry.passkey ? scriptNonce() : "";
  const l = localeOf(res, deps, realm, look, page);
  await renderPage(res, 200, entry.template, {
    ...look, ...localeContext(l), pageTitle: l.t(page.emailedCode ? "emailCode" : entry.title), action,
    // The services write their messages in English; shown in the page's language where the bundle has them.
    page: { ...page, message: l.serverMessage(page.message), messages: page.messages.map(l.serverMessage), ...(rememberMe ? { username: rememberMe.username } : {}) },
    rememberMe,
    ...(look.passwordPolicy ? { passwordRules: passwordRules(look.passwordPolicy, l.t) } : {}), qrDataUrl, realmName: realm, identityProviders, identityFirst,
    alert: !INFO_STEPS.has(page.step),
    scopes: page.consentScopes.map((s) => ({ name: s.name, text: s.text })),
    deviceAction: `/realms/${realm}/device`,
    registrationUrl: `/realms/${realm}/login-actions/registration`,
    verifyEmailAction: `/realms/${realm}/login-actions/verify-email`,
    resetCredentialsUrl: `/realms/${realm}/login-actions/reset-credentials`,
    resetPasswordAction: `/realms/${realm}/login-actions/reset-password`,
    loginUrl: `/realms/${realm}/login-actions/authenticate`,
    ...(entry.password ? { passwordToggle: PASSWORD_TOGGLE_SCRIPT } : {}),
    ...(nonce ? { scriptNonce: nonce, passkeyLibraryUrl: PASSKEY_LIBRARY_PATH, passkeyPageScriptUrl: PASSKEY_PAGE_SCRIPT_PATH } : {}),
  }, result.formActionOrigin, entry.password ? { scriptHashes: [PASSWORD_TOGGLE_SOURCE] } : nonce ? { scriptNonce: nonce } : {});
}
