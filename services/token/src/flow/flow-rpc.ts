import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  AuthorizationFlowService, FlowPageSchema, FlowResultSchema, FlowStep, SamlCompleteSchema, FormPostSchema, type FlowContext, type FlowResult,
} from "../../../../gen/iam/token/v1/authorization_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { FlowReply, PageStep } from "./flow-reply.js";
import type { StepContext } from "./flow-kit.js";
import type { BrowserFlow } from "./browser-flow.js";

const STEPS: Record<PageStep, FlowStep> = {
  login: FlowStep.LOGIN, otp: FlowStep.OTP, otp_enroll: FlowStep.OTP_ENROLL, recovery_codes: FlowStep.RECOVERY_CODES,
  update_password: FlowStep.UPDATE_PASSWORD, consent: FlowStep.CONSENT, device_enter_code: FlowStep.DEVICE_ENTER_CODE,
  device_done: FlowStep.DEVICE_DONE, logout_confirm: FlowStep.LOGOUT_CONFIRM, logged_out: FlowStep.LOGGED_OUT,
  done: FlowStep.UNSPECIFIED, register: FlowStep.REGISTER, verify_email: FlowStep.VERIFY_EMAIL,
  email_verified: FlowStep.EMAIL_VERIFIED, reset_credentials: FlowStep.RESET_CREDENTIALS, reset_email_sent: FlowStep.RESET_EMAIL_SENT,
  reset_password: FlowStep.RESET_PASSWORD, password_reset_done: FlowStep.PASSWORD_RESET_DONE, account_updated: FlowStep.ACCOUNT_UPDATED,
  passkey: FlowStep.PASSKEY, passkey_register: FlowStep.PASSKEY_REGISTER, plugin_challenge: FlowStep.PLUGIN_CHALLENGE,
  terms: FlowStep.TERMS, update_profile: FlowStep.UPDATE_PROFILE,
};

/** Thin handlers: check -> domain -> convert. */
export function flowRpc(flow: BrowserFlow): ServiceImpl<typeof AuthorizationFlowService> {
  return {
    async beginAuthorization(req) {
      return wrap(await flow.authorization.begin(contextOf(req.context), { ...req.params }));
    },
    async submitCredentials(req) {
      return wrap(await flow.steps.submitCredentials(contextOf(req.context), req.username, req.password, req.rememberMe));
    },
    async submitPluginStep(req) {
      return wrap(await flow.steps.submitPluginStep(contextOf(req.context), req.fields));
    },
    async submitOtp(req) {
      return wrap(await flow.steps.submitOtp(contextOf(req.context), req.code));
    },
    async confirmOtpEnrollment(req) {
      return wrap(await flow.steps.confirmOtpEnrollment(contextOf(req.context), req.code));
    },
    async beginPasskeyLogin(req) {
      return wrap(await flow.passkeys.beginLogin(contextOf(req.context)));
    },
    async submitPasskey(req) {
      return wrap(await flow.passkeys.submit(contextOf(req.context), req.credential));
    },
    async submitPasskeyRegistration(req) {
      return wrap(await flow.passkeys.submitRegistration(contextOf(req.context), req.credential, req.label));
    },
    async submitNewPassword(req) {
      return wrap(await flow.steps.submitNewPassword(contextOf(req.context), req.newPassword, req.confirmation));
    },
    async submitTerms(req) {
      return wrap(await flow.steps.profileAndTerms.submitTerms(contextOf(req.context), req.accept));
    },
    async submitProfile(req) {
      return wrap(await flow.steps.profileAndTerms.submitProfile(contextOf(req.context), {
        username: req.username, email: req.email, firstName: req.firstName, lastName: req.lastName,
      }));
    },
    async submitConsent(req) {
      return wrap(await flow.steps.submitConsent(contextOf(req.context), req.approve));
    },
    async continue(req) {
      return wrap(await flow.steps.continue(contextOf(req.context)));
    },
    async resolveSsoCookie(req) {
      const s = await flow.resolveCookie(required(req.realm, "realm"), req.ssoCookie);
      if (!s) return { found: false };
      return { found: true, sessionId: s._id, userId: s.userId, username: s.username, authTimeMs: BigInt(s.authTime), clientIds: s.clientIds };
    },
    async beginDeviceVerification(req) {
      return wrap(await flow.device.begin(contextOf(req.context), req.userCode));
    },
    async beginLogout(req) {
      return wrap(await flow.logout.begin(contextOf(req.context), {
        idTokenHint: req.idTokenHint, postLogoutRedirectUri: req.postLogoutRedirectUri, state: req.state, clientId: req.clientId,
      }));
    },
    async confirmLogout(req) {
      return wrap(await flow.logout.confirm(contextOf(req.context), req.confirm));
    },
    async beginSamlLogin(req) {
      return wrap(await flow.saml.begin(contextOf(req.context), {
        pendingId: req.pendingId, spEntityId: req.spEntityId, spName: req.spName, forceAuthn: req.forceAuthn, isPassive: req.isPassive,
      }));
    },
    async completeBrokeredLogin(req) {
      const done = await flow.steps.completeBrokeredLogin(contextOf(req.context), required(req.userId, "user_id"), req.identityProvider);
      return { ...wrap(done.reply), samlTransaction: done.saml };
    },
    async impersonate(req) {
      const started = await flow.impersonation.start(required(req.realm, "realm"), required(req.userId, "user_id"), req.ipAddress);
      return { ssoCookie: started.cookie, sessionId: started.sessionId };
    },
    async endSsoSession(req) {
      if (req.reason && req.reason !== "logout") throw IamError.invalid("reason", "reason must be \"logout\"");
      return flow.saml.endSession(required(req.realm, "realm"), required(req.sessionId, "session_id"),
        req.spEntityId ? { spEntityId: req.spEntityId, ipAddress: req.ipAddress } : undefined);
    },
  };
}

function required(v: string, field: string): string {
  if (!v) throw IamError.invalid(field, `${field} is required`);
  return v;
}

export function contextOf(c: FlowContext | undefined): StepContext {
  if (!c) throw IamError.invalid("context", "context is required");
  return {
    realm: required(c.realm, "context.realm"), transactionId: c.transactionId, csrfToken: c.csrfToken, browserId: c.browserId,
    ssoCookie: c.ssoCookie, ipAddress: c.ipAddress, baseUrl: required(c.baseUrl, "context.base_url"),
  };
}

export function wrap(r: FlowReply): { result: FlowResult } {
  return { result: toResult(r) };
}

function toResult(r: FlowReply): FlowResult {
  const o = r.outcome;
  const outcome = o.kind === "redirect" ? { case: "redirect" as const, value: o.uri }
    : o.kind === "form_post" ? {
      case: "formPost" as const,
      value: create(FormPostSchema, { action: o.uri, fields: o.fields.map(([name, value]) => ({ name, value })) }),
    }
    : o.kind === "saml_complete" ? {
      case: "samlComplete" as const,
      value: create(SamlCompleteSchema, { pendingId: o.pendingId, sessionId: o.sessionId, userId: o.userId, authTimeMs: BigInt(o.authTime) }),
    }
    : o.kind === "error" ? { case: "error" as const, value: { error: o.error, description: o.description, status: o.status, retryAfterSeconds: o.retryAfter ?? 0 } }
    : { case: "page" as const, value: create(FlowPageSchema, { ...o.page, step: STEPS[o.page.step] }) };
  return create(FlowResultSchema, {
    outcome,
    setSsoCookie: r.setSsoCookie ?? "",
    ssoCookieMaxAge: BigInt(r.ssoCookieMaxAge ?? 0),
    rememberMeUsername: r.rememberMeUsername ?? "",
    clearSsoCookie: r.clearSsoCookie ?? false,
    formActionOrigin: r.formActionOrigin ?? "",
  });
}
