import type { Response } from "express";
import type { PageDeps } from "../pages/flow-pages.js";
import { sendSamlPost } from "./saml-post-page.js";

const NO_PASSIVE = "urn:oasis:names:tc:SAML:2.0:status:NoPassive";

/**
 * IsPassive without a reusable session (core 3.4.1): no page is shown; the SP gets a signed
 * Response with status Responder/NoPassive at its registered ACS.
 */
export async function sendNoPassive(res: Response, deps: PageDeps, realm: string, pendingId: string): Promise<void> {
  const done = await deps.rpc.samlSso.failSso({
    realm, pendingId, statusCode: NO_PASSIVE, statusMessage: "The user is not logged in.",
  });
  return sendSamlPost(res, deps, realm, { url: done.acsUrl, field: "SAMLResponse", value: done.samlResponse, relayState: done.relayState }, "Returning to the application…");
}
