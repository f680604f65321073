import { randomBytes } from "node:crypto";
import type { Response } from "express";
import type { PageDeps } from "../pages/flow-pages.js";
import { renderPage } from "../pages/page-renderer.js";

export interface SamlPost {
  /** The SP's registered endpoint (ACS or SLO URL), as the saml service answered it. */
  url: string;
  /** "SAMLResponse" or "SAMLRequest". */
  field: string;
  value: string;
  relayState: string;
}

/**
 * The HTTP-POST binding (SAML 2.0 bindings 3.5.4): a page whose form carries the message to the
 * SP's registered URL, submitted by a nonce-bearing script (CSP `script-src 'nonce-…'`, no other
 * script runs) or by the visible Continue button without JavaScript. CSP form-action admits that
 * URL's origin only.
 */
export async function sendSamlPost(res: Response, deps: PageDeps, realm: string, post: SamlPost, message: string): Promise<void> {
  const origin = new URL(post.url).origin;
  const nonce = randomBytes(18).toString("base64url");
  const look = await deps.looks.get(realm);
  renderPage(res, 200, "saml-post.njk", {
    ...look, pageTitle: "Continue", message, postUrl: post.url, field: post.field, value: post.value,
    relayState: post.relayState, nonce,
  }, origin, { scriptNonce: nonce });
}
