import { randomBytes } from "node:crypto";
import type { Response } from "express";
import type { PageDeps } from "./flow-pages.js";
import { formActionSourceOf } from "../../../services/kit/src/form-action-source.js";
import { renderPage } from "./page-renderer.js";

export interface AutoPost {
  /** A registered endpoint the service validated (a SAML ACS or SLO URL, an OIDC redirect_uri). */
  url: string;
  /** The form's fields, in order. */
  fields: Array<{ name: string; value: string }>;
}

/**
 * A page whose form carries a message to a registered endpoint, submitted by a nonce-bearing script
 * (CSP `script-src 'nonce-…'`, no other script runs) or by the visible Continue button without
 * JavaScript. CSP form-action admits that endpoint's origin (a native app's scheme) only. Used by the SAML HTTP-POST binding
 * (SAML 2.0 bindings 3.5.4) and the OIDC form_post response mode (OAuth 2.0 Form Post Response Mode).
 */
export async function sendAutoPost(res: Response, deps: PageDeps, realm: string, post: AutoPost, message: string): Promise<void> {
  const origin = formActionSourceOf(post.url);
  const nonce = randomBytes(18).toString("base64url");
  const look = await deps.looks.get(realm);
  await renderPage(res, 200, "auto-post.njk", {
    ...look, pageTitle: "Continue", message, postUrl: post.url, fields: post.fields, nonce,
  }, origin, { scriptNonce: nonce });
}
