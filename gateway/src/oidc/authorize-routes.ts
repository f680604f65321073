import type { Request, Response } from "express";
import type { FlowResult } from "../../../gen/iam/token/v1/authorization_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { sendErrorPage, sendFailure, sendFlowResult, type PageDeps } from "../pages/flow-pages.js";
import { needsSameSiteRepost, sendSameSiteRepost } from "../pages/same-site-repost.js";
import { browserParsers, flowContext, one, paramsOf, realmOf } from "./flow-context.js";
import { pageRealmGuard } from "../pages/page-realm-guard.js";
import { identityFirstStep } from "../pages/identity-first.js";
import { rememberMeTicked } from "../pages/remember-me.js";

const authPath = (realm: string) => `/realms/${realm}/protocol/openid-connect/auth`;

/**
 * The authorization endpoint (OIDC Core 1.0 section 3.1.2.1: GET and POST) and the hosted login
 * page's form posts. A POST with `tx` continues a login transaction (`step` names the form);
 * without, it is an authorization request sent as a form.
 */
export function addAuthorizeRoutes(table: RouteTable, deps: PageDeps): void {
  const pageParsers = [...browserParsers, pageRealmGuard(deps)];
  const path = "/realms/:realmName/protocol/openid-connect/auth";
  table
    .add("GET", path, "public", (req, res) => handle(req, res, deps, () => begin(req, res, deps, paramsOf(req.query))), ...pageParsers)
    .add("POST", path, "public", (req, res) => {
      if (!one(req.body, "tx") && needsSameSiteRepost(req)) {
        return sendSameSiteRepost(req, res, deps, realmOf(req), `${deps.publicUrl.replace(/\/+$/, "")}${authPath(encodeURIComponent(realmOf(req)))}`);
      }
      return handle(req, res, deps, () => {
        if (one(req.body, "tx")) return step(req, res, deps);
        return begin(req, res, deps, paramsOf(req.body));
      });
    }, ...pageParsers, identityFirstStep(deps, authPath));
}

async function begin(req: Request, res: Response, deps: PageDeps, params: Record<string, string>): Promise<FlowResult | undefined> {
  return (await deps.rpc.authorizationFlow.beginAuthorization({ context: flowContext(req, res, deps.publicUrl), params })).result;
}

/** A login-page form post: `step` names the form. */
export async function step(req: Request, res: Response, deps: PageDeps): Promise<FlowResult | undefined> {
  const context = flowContext(req, res, deps.publicUrl);
  const flow = deps.rpc.authorizationFlow;
  const body = req.body as unknown;
  switch (one(body, "step")) {
    case "login":
      return (await flow.submitCredentials({ context, username: one(body, "username"), password: one(body, "password"), rememberMe: rememberMeTicked(body) })).result;
    case "otp":
      return (await flow.submitOtp({ context, code: one(body, "otp") })).result;
    case "otp_enroll":
      return (await flow.confirmOtpEnrollment({ context, code: one(body, "otp") })).result;
    case "passkey_begin":
      return (await flow.beginPasskeyLogin({ context })).result;
    case "passkey":
      return (await flow.submitPasskey({ context, credential: one(body, "credential") })).result;
    case "passkey_register":
      return (await flow.submitPasskeyRegistration({ context, credential: one(body, "credential"), label: one(body, "label") })).result;
    case "plugin_challenge":
      return (await flow.submitPluginStep({ context, fields: pluginFields(body) })).result;
    case "recovery_codes":
      return (await flow.continue({ context })).result;
    case "update_password":
      return (await flow.submitNewPassword({ context, newPassword: one(body, "password-new"), confirmation: one(body, "password-confirm") })).result;
    case "terms":
      // Keycloak's form posts `accept` or `cancel`; only an explicit accept accepts.
      return (await flow.submitTerms({ context, accept: one(body, "decision") === "accept" })).result;
    case "update_profile":
      return (await flow.submitProfile({
        context, username: one(body, "username"), email: one(body, "email"), firstName: one(body, "firstName"), lastName: one(body, "lastName"),
      })).result;
    case "consent":
      return (await flow.submitConsent({ context, approve: one(body, "decision") === "approve" })).result;
    default:
      return undefined;
  }
}

/** A plugin step page's fields, posted as `plugin.<name>` so none can clash with the form's own (tx, csrf, step). */
function pluginFields(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (k.startsWith(PLUGIN_FIELD_PREFIX) && typeof v === "string") out[k.slice(PLUGIN_FIELD_PREFIX.length)] = v;
  }
  return out;
}

const PLUGIN_FIELD_PREFIX = "plugin.";

/** Runs a flow call and writes its page, redirect or error page. */
export async function handle(req: Request, res: Response, deps: PageDeps, call: () => Promise<FlowResult | undefined>, action?: string): Promise<void> {
  const realm = realmOf(req);
  try {
    const result = await call();
    if (!result) return sendErrorPage(res, deps, realm, 400, "invalid_request", "The form is not valid. Please start again.");
    await sendFlowResult(res, deps, realm, result, action ?? authPath(realm));
  } catch (e) {
    await sendFailure(res, deps, realm, e);
  }
}
