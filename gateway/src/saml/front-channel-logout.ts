import { randomBytes } from "node:crypto";
import type { Request, Response } from "express";
import { SamlBinding, type SamlOutbound } from "../../../gen/iam/saml/v1/sso_pb.js";
import type { FlowResult } from "../../../gen/iam/token/v1/authorization_pb.js";
import { currentContext } from "../../../services/kit/src/context.js";
import { sendErrorPage, sendFailure, sendFlowResult, type PageDeps } from "../pages/flow-pages.js";
import { renderPage } from "../pages/page-renderer.js";
import { clearSsoCookie, readCookie, SSO_COOKIE } from "../oidc/browser-cookies.js";
import { realmOf } from "../oidc/flow-context.js";

/**
 * The signed LogoutRequests (HTTP-Redirect) for the SAML SPs of an ended SSO session (profiles
 * 4.4.3.3, IdP propagation), except `exceptSpId`. A failure only loses the propagation: the SSO
 * session has ended already, so the user still gets logged out here.
 */
export async function samlLogoutRequests(deps: PageDeps, realm: string, sessionIndex: string, exceptSpId = ""): Promise<string[]> {
  try {
    const { logoutRequests } = await deps.rpc.samlSso.buildLogoutRequests({ realm, sessionIndex, exceptSpId });
    return logoutRequests.filter((o) => o.binding === SamlBinding.REDIRECT && o.redirectUrl).map((o) => o.redirectUrl);
  } catch (err) {
    currentContext()?.logger.warn({ err, realm }, "SAML logout propagation failed");
    return [];
  }
}

export interface AfterFrames {
  message: string;
  /** Continue with a redirect (an OIDC post_logout_redirect_uri, a Redirect-binding LogoutResponse)... */
  next?: string;
  /** ...or with a POST-binding LogoutResponse. */
  post?: SamlOutbound;
}

/**
 * Front-channel propagation: a page framing each LogoutRequest URL (CSP frame-src admits exactly
 * those origins), then continuing — by a nonce-bearing script once the frames loaded (or after 3 s),
 * or by the visible Continue control.
 */
export async function sendLogoutFrames(res: Response, deps: PageDeps, realm: string, frames: string[], after: AfterFrames): Promise<void> {
  const nonce = randomBytes(18).toString("base64url");
  const look = await deps.looks.get(realm);
  const post = after.post ? { url: after.post.url, field: after.post.samlField, value: after.post.value, relayState: after.post.relayState } : undefined;
  const formOrigin = post ? new URL(post.url).origin : "";
  await renderPage(res, 200, "saml-logout-frames.njk", {
    ...look, pageTitle: "Logged out", message: after.message, frames, next: after.next ?? "", post, nonce,
  }, formOrigin, { scriptNonce: nonce, frameOrigins: [...new Set(frames.map((u) => new URL(u).origin))] });
}

/**
 * Runs a browser logout step (OIDC RP-initiated logout) and, when it ended the browser's SSO
 * session, propagates the logout to the session's SAML SPs before its own answer (redirect to the
 * post_logout_redirect_uri or the logged-out page). Used in place of `handle` by browser-logout.ts.
 */
export async function handleLogout(req: Request, res: Response, deps: PageDeps, call: () => Promise<FlowResult | undefined>, action: string): Promise<void> {
  const realm = realmOf(req);
  try {
    const flow = deps.rpc.authorizationFlow;
    const cookie = readCookie(req, SSO_COOKIE);
    const before = cookie ? await flow.resolveSsoCookie({ realm, ssoCookie: cookie }) : undefined;
    const result = await call();
    if (!result) return sendErrorPage(res, deps, realm, 400, "invalid_request", "The form is not valid. Please start again.");
    const ended = !!before?.found && result.clearSsoCookie && !(await flow.resolveSsoCookie({ realm, ssoCookie: cookie })).found;
    const frames = ended ? await samlLogoutRequests(deps, realm, before!.sessionId) : [];
    if (!frames.length) return sendFlowResult(res, deps, realm, result, action);
    clearSsoCookie(res, realm, deps.publicUrl);
    const o = result.outcome;
    return sendLogoutFrames(res, deps, realm, frames, {
      message: o.case === "page" && o.value.message ? o.value.message : "You are logged out.",
      ...(o.case === "redirect" ? { next: o.value } : {}),
    });
  } catch (e) {
    await sendFailure(res, deps, realm, e);
  }
}
