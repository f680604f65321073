import type { Response } from "express";
import { bodyParserError, pathDecodeError } from "../http/body-errors.js";
import { sendErrorPage, sendFailure, type PageDeps } from "./flow-pages.js";

/**
 * The hosted pages' paths (authorization, device verification, registration, email verification,
 * SAML, identity brokering, and GET /logout), exact, as the router routes them (DESIGN 7: case-sensitive, strict).
 * POST /logout is left to the OAuth endpoints (oauth-endpoint-errors.ts): a body that cannot
 * be read cannot say whether it was the browser's logout or the client's (spec 4.16).
 */
const PAGE_PATH = /^\/realms\/([^/]+)\/(protocol\/openid-connect\/auth|protocol\/openid-connect\/logout|device|login-actions\/registration|login-actions\/verify-email|login-actions\/organization-invitation|login-actions\/reset-credentials|login-actions\/reset-password|login-actions\/authenticate|protocol\/saml|broker\/[^/]+\/(?:login|callback|link))$/;

/**
 * The realm of a hosted page's request ("" when its name cannot be decoded: the page then has the
 * default look), or undefined for any other request.
 */
export function pageRequestRealm(method: string, path: string): string | undefined {
  const m = PAGE_PATH.exec(path);
  if (!m || (m[2] === "protocol/openid-connect/logout" && method === "POST")) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return "";
  }
}

/**
 * A failure before a hosted page's handler ran (its body parser, express's path decoding), as the
 * page's HTML error page with the pages' headers (CSP, no-store: page-renderer.ts), keeping the
 * status a JSON caller gets: 413 for a form over its 64 KB or 100 fields (flow-context.ts), 415
 * for a foreign charset or encoding, 400 for a body or path that cannot be decoded. Anything else
 * is a flow failure (logged when 5xx).
 */
export function sendRequestErrorPage(res: Response, deps: PageDeps, realm: string, err: unknown): Promise<void> {
  const path = pathDecodeError(err);
  if (path) return sendErrorPage(res, deps, realm, path.status, path.reason, "The address of this page is not valid.");
  const body = bodyParserError(err);
  if (!body) return sendFailure(res, deps, realm, err);
  const description = body.status === 413 ? "The form is too large. Please go back and try again." : "The form could not be read. Please go back and try again.";
  return sendErrorPage(res, deps, realm, body.status, body.reason, description);
}
