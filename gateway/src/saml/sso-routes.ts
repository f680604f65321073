import type { Request, Response } from "express";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { FlowResult } from "../../../gen/iam/token/v1/authorization_pb.js";
import { SamlBinding } from "../../../gen/iam/saml/v1/sso_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { describeError } from "../http/rpc-errors.js";
import { sendErrorPage, sendFailure, sendFlowResult, type PageDeps } from "../pages/flow-pages.js";
import { step } from "../oidc/authorize-routes.js";
import { browserParsers, flowContext, one, realmOf } from "../oidc/flow-context.js";
import { writeFlowCookies } from "../oidc/browser-cookies.js";
import { needsSameSiteRepost } from "../pages/same-site-repost.js";
import { sendSamlPost } from "./saml-post-page.js";
import { singleLogout, type SamlInbound } from "./slo-handler.js";
import { sendNoPassive } from "./no-passive.js";
import { pageRealmGuard } from "../pages/page-realm-guard.js";

const SAML_PATH = "/realms/:realmName/protocol/saml";
const samlAction = (realm: string) => `/realms/${realm}/protocol/saml`;

/**
 * The realm's SAML 2.0 protocol endpoint (spec 4.18): AuthnRequests and LogoutRequests over
 * HTTP-Redirect (GET, bindings 3.4) and HTTP-POST (bindings 3.5), LogoutResponses to
 * IdP-initiated logout, and the hosted login page's form posts of a SAML login (`tx` set).
 */
export function addSamlSsoRoutes(table: RouteTable, deps: PageDeps): void {
  const pageParsers = [...browserParsers, pageRealmGuard(deps)];
  table
    .add("GET", SAML_PATH, "public", (req, res) => protocol(req, res, deps, redirectInbound(req)), ...pageParsers)
    .add("POST", SAML_PATH, "public", async (req, res) => {
      if (one(req.body, "tx")) return loginStep(req, res, deps);
      if (needsSameSiteRepost(req)) return repost(req, res, deps, postInbound(req));
      return protocol(req, res, deps, postInbound(req));
    }, ...pageParsers);
}

/** Redirect binding: the raw query is passed exactly, so the signed octets can be rebuilt (3.4.4.1). */
function redirectInbound(req: Request): SamlInbound {
  const q = req.originalUrl.indexOf("?");
  return {
    binding: SamlBinding.REDIRECT, rawQuery: q >= 0 ? req.originalUrl.slice(q + 1) : "",
    samlRequest: one(req.query, "SAMLRequest"), samlResponse: one(req.query, "SAMLResponse"), relayState: one(req.query, "RelayState"),
  };
}

function postInbound(req: Request): SamlInbound {
  return {
    binding: SamlBinding.POST, rawQuery: "",
    samlRequest: one(req.body, "SAMLRequest"), samlResponse: one(req.body, "SAMLResponse"), relayState: one(req.body, "RelayState"),
  };
}

async function repost(req: Request, res: Response, deps: PageDeps, m: SamlInbound): Promise<void> {
  const realm = realmOf(req);
  const field = m.samlResponse ? "SAMLResponse" : "SAMLRequest";
  const value = m.samlResponse || m.samlRequest;
  if (!value) return sendErrorPage(res, deps, realm, 400, "invalid_saml_request", "SAMLRequest or SAMLResponse is required.");
  const url = `${deps.publicUrl.replace(/\/+$/, "")}${samlAction(encodeURIComponent(realm))}`;
  return sendSamlPost(res, deps, realm, { url, field, value, relayState: m.relayState }, "Continuing…");
}

async function protocol(req: Request, res: Response, deps: PageDeps, m: SamlInbound): Promise<void> {
  const realm = realmOf(req);
  try {
    if (m.samlResponse) return await singleLogout(req, res, deps, m);
    if (!m.samlRequest) return await sendErrorPage(res, deps, realm, 400, "invalid_saml_request", "SAMLRequest or SAMLResponse is required.");
    let begun;
    try {
      begun = await deps.rpc.samlSso.beginSso({
        realm, binding: m.binding, samlRequest: m.samlRequest, relayState: m.relayState, rawQuery: m.rawQuery,
      });
    } catch (e) {
      // Not an AuthnRequest: a LogoutRequest travels under the same parameter (core 3.7).
      if (describeError(e).field === "messageType") return await singleLogout(req, res, deps, m);
      throw e;
    }
    const result = (await deps.rpc.authorizationFlow.beginSamlLogin({
      context: flowContext(req, res, deps.publicUrl), pendingId: begun.pendingId, spEntityId: begun.spEntityId,
      spName: begun.spName, forceAuthn: begun.forceAuthn, isPassive: begun.isPassive,
    })).result;
    await sendSamlFlowResult(res, deps, realm, result, begun.pendingId);
  } catch (e) {
    await sendFailure(res, deps, realm, e);
  }
}

/** A login page form post of a SAML login transaction (the same steps as OIDC). */
async function loginStep(req: Request, res: Response, deps: PageDeps): Promise<void> {
  const realm = realmOf(req);
  try {
    await sendSamlFlowResult(res, deps, realm, await step(req, res, deps), "");
  } catch (e) {
    await sendFailure(res, deps, realm, e);
  }
}

/**
 * saml_complete: CompleteSso with the session's user, its id as SessionIndex and its auth_time,
 * then the Response auto-posted to the SP's registered ACS (profiles 4.1.4.5). Anything else is a
 * login page (posting back here) or an error page.
 */
export async function sendSamlFlowResult(res: Response, deps: PageDeps, realm: string, result: FlowResult | undefined, pendingId: string): Promise<void> {
  const o = result?.outcome;
  if (result && o?.case === "samlComplete") {
    writeFlowCookies(res.req, res, realm, deps.publicUrl, result);
    const done = await deps.rpc.samlSso.completeSso({
      realm, pendingId: o.value.pendingId, userId: o.value.userId, sessionIndex: o.value.sessionId,
      authTime: timestampFromMs(Number(o.value.authTimeMs)),
    });
    return sendSamlPost(res, deps, realm, { url: done.acsUrl, field: "SAMLResponse", value: done.samlResponse, relayState: done.relayState }, "Signing you in…");
  }
  if (o?.case === "error" && o.value.error === "saml_no_passive" && pendingId) return sendNoPassive(res, deps, realm, pendingId);
  return sendFlowResult(res, deps, realm, result, samlAction(realm));
}
