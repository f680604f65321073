import type { Request, Response } from "express";
import { readCookie, SSO_COOKIE } from "../oidc/browser-cookies.js";
import { sendAutoPost } from "./auto-post-page.js";
import type { PageDeps } from "./flow-pages.js";

/**
 * The SSO cookie is SameSite=Lax, so a form another site auto-posts here (a SAML AuthnRequest or
 * LogoutRequest, an OIDC authorization or logout request sent as a form: OIDC Core 1.0 section
 * 3.1.2.1 and RP-Initiated Logout 1.0 section 2 require POST) arrives without it, and the SSO
 * session would be invisible: prompt=none would answer login_required to a logged-in user, a
 * logout would end nothing. True for such a POST (Fetch Metadata says cross-site, no session
 * cookie), which is then answered with sendSameSiteRepost.
 */
export function needsSameSiteRepost(req: Request): boolean {
  return req.get("sec-fetch-site") === "cross-site" && !readCookie(req, SSO_COOKIE);
}

/**
 * A page re-posting the same fields to this same endpoint: now a same-site POST, cookies included.
 * Nothing is validated or consumed before; repeated fields stay repeated, so the endpoint refuses
 * them as it would have.
 */
export function sendSameSiteRepost(req: Request, res: Response, deps: PageDeps, realm: string, url: string): Promise<void> {
  const fields: Array<{ name: string; value: string }> = [];
  for (const [name, v] of Object.entries((req.body ?? {}) as Record<string, unknown>)) {
    for (const value of Array.isArray(v) ? v : [v]) if (typeof value === "string") fields.push({ name, value });
  }
  return sendAutoPost(res, deps, realm, { url, fields }, "Continuing…");
}
