import type { Response } from "express";
import type { PageDeps } from "../pages/flow-pages.js";
import { sendAutoPost } from "../pages/auto-post-page.js";

export interface SamlPost {
  /** The SP's registered endpoint (ACS or SLO URL), as the saml service answered it. */
  url: string;
  /** "SAMLResponse" or "SAMLRequest". */
  field: string;
  value: string;
  relayState: string;
}

/** The HTTP-POST binding (SAML 2.0 bindings 3.5.4): the message, and RelayState when any, auto-posted to the SP. */
export function sendSamlPost(res: Response, deps: PageDeps, realm: string, post: SamlPost, message: string): Promise<void> {
  const fields = [{ name: post.field, value: post.value }, ...(post.relayState ? [{ name: "RelayState", value: post.relayState }] : [])];
  return sendAutoPost(res, deps, realm, { url: post.url, fields }, message);
}
