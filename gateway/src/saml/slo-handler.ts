import type { Request, Response } from "express";
import type { SamlBinding, SamlOutbound } from "../../../gen/iam/saml/v1/sso_pb.js";
import { SamlBinding as Binding } from "../../../gen/iam/saml/v1/sso_pb.js";
import type { PageDeps } from "../pages/flow-pages.js";
import { renderPage } from "../pages/page-renderer.js";
import { clearSsoCookie, readCookie, SSO_COOKIE } from "../oidc/browser-cookies.js";
import { realmOf } from "../oidc/flow-context.js";
import { sendSamlPost } from "./saml-post-page.js";
import { samlLogoutRequests, sendLogoutFrames } from "./front-channel-logout.js";

/** A protocol message as received on the SAML endpoint. */
export interface SamlInbound {
  binding: SamlBinding;
  /** Redirect binding: the raw query string exactly as received (bindings 3.4.4.1). */
  rawQuery: string;
  samlRequest: string;
  samlResponse: string;
  relayState: string;
}

/**
 * SP-initiated single logout (profiles 4.4.3): the saml service validates the LogoutRequest and
 * finds that SP's SAML session; the SSO session named by its SessionIndex ends in the token
 * service, with the LOGOUT event (sso-session.ended: OIDC back-channel logout follows); then the
 * session's SAML records go (samlLogoutRequests), so a crash anywhere before leaves the SP's retry
 * the session to end; the browser's cookie is cleared when it named that session; the
 * LogoutResponse goes back over the request's binding. A LogoutResponse (to an IdP-initiated
 * request) only shows the logged-out page.
 */
export async function singleLogout(req: Request, res: Response, deps: PageDeps, m: SamlInbound): Promise<void> {
  const realm = realmOf(req);
  const slo = await deps.rpc.samlSso.beginSlo({
    realm, binding: m.binding, samlRequest: m.samlRequest, samlResponse: m.samlResponse, relayState: m.relayState, rawQuery: m.rawQuery,
  });
  if (slo.wasResponse) return loggedOut(res, deps, realm, slo.success ? "You are logged out." : "The application could not log you out.");

  const flow = deps.rpc.authorizationFlow;
  const current = await flow.resolveSsoCookie({ realm, ssoCookie: readCookie(req, SSO_COOKIE) });
  // A signed request proves the SP asked; an unsigned one (SP without certificate, or with
  // requireSignedRequests off) ends the SSO session only in the browser that holds it.
  const mine = current.found && current.sessionId === slo.sessionIndex;
  const allowed = !!slo.sessionIndex && (slo.signed || mine);
  if (allowed) await flow.endSsoSession({ realm, sessionId: slo.sessionIndex, reason: "logout", spEntityId: slo.spEntityId, ipAddress: req.ip ?? "" });
  if (!current.found || current.sessionId === slo.sessionIndex) clearSsoCookie(res, realm, deps.publicUrl);
  // The session's other SAML SPs are told front-channel before the LogoutResponse (profiles 4.4.3.3).
  const frames = allowed ? await samlLogoutRequests(deps, realm, slo.sessionIndex, slo.logoutResponse?.spId ?? "") : [];
  if (frames.length) {
    const r = slo.logoutResponse;
    return sendLogoutFrames(res, deps, realm, frames, {
      message: "You are logged out.",
      ...(r?.binding === Binding.REDIRECT ? { next: r.redirectUrl } : r ? { post: r } : {}),
    });
  }
  if (!slo.logoutResponse) return loggedOut(res, deps, realm, "You are logged out.");
  return sendOutbound(res, deps, realm, slo.logoutResponse);
}

/** A message to an SP's registered URL: a 302 (Redirect binding) or an auto-posted form (POST). */
export async function sendOutbound(res: Response, deps: PageDeps, realm: string, o: SamlOutbound): Promise<void> {
  if (o.binding === Binding.REDIRECT) {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Referrer-Policy", "no-referrer");
    res.redirect(302, o.redirectUrl);
    return;
  }
  return sendSamlPost(res, deps, realm, { url: o.url, field: o.samlField, value: o.value, relayState: o.relayState }, "Logging you out…");
}

async function loggedOut(res: Response, deps: PageDeps, realm: string, message: string): Promise<void> {
  const look = await deps.looks.get(realm);
  await renderPage(res, 200, "logged-out.njk", { ...look, pageTitle: "Logged out", page: { message } });
}
