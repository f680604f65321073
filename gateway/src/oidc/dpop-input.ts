import type { Reply } from "../http/route-table.js";
import { describeError } from "../http/rpc-errors.js";
import { BearerRequestError, NO_STORE, oauthError, oauthErrorReply } from "./oauth-errors.js";
import { bearerToken, optFormParam, type OAuthHttpRequest } from "./oauth-input.js";

/** RFC 9449 section 7.1: the algorithms a resource's DPoP challenge names (the token service's). */
const DPOP_ALGS = "ES256 RS256 PS256 EdDSA";
/** The errors that concern the proof rather than the token (RFC 9449 sections 7.1, 9). */
const PROOF_ERRORS = new Set(["invalid_dpop_proof", "use_dpop_nonce"]);

/**
 * The request's DPoP header (RFC 9449 section 4.1), "" when absent. Sent twice, Node joins the
 * values with a comma, which no single proof holds, so the token service refuses it (section 4.3 item 1).
 */
export function dpopHeader(req: OAuthHttpRequest): string {
  const v = req.headers.dpop;
  return typeof v === "string" ? v : Array.isArray(v) ? v.join(", ") : "";
}

/** How a protected resource's request presented its access token: the scheme, and the token ("" without credentials). */
export interface ResourceCredentials {
  scheme: "Bearer" | "DPoP";
  token: string;
}

/**
 * The access token of a userinfo request: `Authorization: DPoP <token>` (RFC 9449 section 7.1,
 * the token68 syntax of section 7.2), else as RFC 6750 reads Bearer credentials (bearerToken).
 */
export function resourceCredentials(req: OAuthHttpRequest): ResourceCredentials {
  const header = req.headers.authorization ?? "";
  if (!/^DPoP(?:\s|$)/i.test(header)) return { scheme: "Bearer", token: bearerToken(req) };
  let inBody: string | undefined;
  try {
    inBody = req.method === "POST" ? optFormParam(req, "access_token") : undefined;
  } catch {
    throw new BearerRequestError("access_token must be sent once");
  }
  if (inBody !== undefined) throw new BearerRequestError("send the access token in the Authorization header or the form body, not both");
  const m = /^DPoP\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
  if (!m) throw oauthError("invalid_token", "malformed DPoP credentials", 401);
  return { scheme: "DPoP", token: m[1]! };
}

/**
 * A userinfo failure. With the DPoP scheme, a proof error, or a DPoP-bound token sent as Bearer
 * (reason dpop_bound_token), the challenge is DPoP's (RFC 9449 section 7.1): 401 for the token and
 * proof errors, use_dpop_nonce with the DPoP-Nonce header (section 9), 403 for insufficient_scope.
 * Anything else is RFC 6750's Bearer answer (oauthErrorReply).
 */
export function userinfoErrorReply(e: unknown, realm: string, scheme: string): Reply {
  const err = describeError(e);
  const error = err.oauthError || err.reason;
  const dpop = err.status < 500 && (scheme === "DPoP" || err.reason === "dpop_bound_token" || PROOF_ERRORS.has(error));
  if (!dpop) return oauthErrorReply(e, realm);
  const status = error === "insufficient_scope" ? 403 : error === "invalid_request" ? 400 : 401;
  const headers: Record<string, string> = {
    ...NO_STORE,
    "WWW-Authenticate": `DPoP algs="${DPOP_ALGS}", error="${quoted(error)}", error_description="${quoted(err.message)}"`,
  };
  if (err.dpopNonce) headers["DPoP-Nonce"] = err.dpopNonce;
  return { status, body: { error, error_description: err.message }, headers };
}

function quoted(s: string): string {
  return s.replace(/["\\]/g, "");
}
