import type { Reply } from "../http/route-table.js";
import { unreadableRequestError, type BodyError } from "../http/body-errors.js";
import { oauthError, oauthErrorReply } from "./oauth-errors.js";

/**
 * The OAuth protocol endpoints whose every answer, failures before the handler included, is in
 * RFC 6749 section 5.2's format: token, introspection (RFC 7662 section 2.3), revocation (RFC 7009
 * section 2.2.1), device authorization (RFC 8628 section 3.2), userinfo (RFC 6750 section 3) and the
 * client's POST /logout, and dynamic client registration (RFC 7591 section 3.2.2). Exact, as the
 * router routes them (DESIGN 7: case-sensitive, strict).
 */
const OAUTH_ENDPOINT = /^\/realms\/([^/]+)\/(?:protocol\/openid-connect\/(token|token\/introspect|revoke|logout|userinfo|auth\/device)|clients-registrations\/openid-connect(?:\/[^/]+)?)$/;

/** The realm of an OAuth protocol endpoint's request, or undefined for any other request. */
export function oauthEndpointRealm(method: string, path: string): string | undefined {
  const m = OAUTH_ENDPOINT.exec(path);
  // GET /logout is the browser's (RP-initiated logout): its failures are pages, not OAuth errors.
  if (!m || (m[2] === "logout" && method !== "POST")) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    // A malformed realm name, which express refuses (pathDecodeError): still an OAuth endpoint,
    // answered in its format; the raw, percent-encoded name is plain ASCII for WWW-Authenticate.
    return m[1]!;
  }
}

/**
 * A failure outside an OAuth endpoint's handler (its body parsers, the throttle's realm lookup), in
 * the endpoint's own format. A body that cannot be read is `invalid_request` 400: RFC 6749 section
 * 5.2 answers 400 "unless specified otherwise" and specifies no 413 or 415, and an OAuth client
 * acts on `error`, not on the status; the description still says what was wrong. Always no-store
 * with Pragma: no-cache (section 5.1, 5.2).
 */
export function oauthFailureReply(e: unknown, realm: string): Reply {
  const body = unreadableRequestError(e);
  return body ? oauthBodyErrorReply(body, realm) : oauthErrorReply(e, realm);
}

export function oauthBodyErrorReply(body: BodyError, realm: string): Reply {
  return oauthErrorReply(oauthError("invalid_request", body.message), realm);
}
