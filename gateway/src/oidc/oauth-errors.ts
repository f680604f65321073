import type { Reply } from "../http/route-table.js";
import { currentContext } from "../../../services/kit/src/context.js";
import { describeError, GatewayError, retryAfterHeader } from "../http/rpc-errors.js";

/** Responses of the OAuth endpoints are never cached (RFC 6749 section 5.1, 5.2). */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/**
 * Renders an error of an OAuth endpoint (RFC 6749 section 5.2): `{error, error_description}`,
 * no-store. `invalid_client` is 401 with `WWW-Authenticate: Basic realm="<realm>"` (section 5.2);
 * `invalid_token` at a resource (userinfo) is 401 with a Bearer challenge (RFC 6750 section 3),
 * `insufficient_scope` there 403 with one (section 3.1), and a malformed resource request
 * (BearerRequestError) 400 with one naming `invalid_request` (section 3.1).
 */
export function oauthErrorReply(e: unknown, realm: string, extraHeaders: Record<string, string> = {}): Reply {
  const err = describeError(e);
  // A server-side failure gets the registered codes (RFC 6749 section 4.1.2.1, OAuth Extensions
  // Error registry): section 5.2 defines none for the token endpoint, and clients know these two
  // rather than the Admin API's reasons (internal_error, unavailable, bad_gateway).
  const error = err.oauthError || (err.status >= 500 ? (err.status === 503 ? "temporarily_unavailable" : "server_error") : err.reason);
  const headers: Record<string, string> = { ...NO_STORE, ...retryAfterHeader(err), ...extraHeaders };
  // RFC 9449 section 8: use_dpop_nonce hands the client the nonce to retry with.
  if (err.dpopNonce) headers["DPoP-Nonce"] = err.dpopNonce;
  let status = err.status;
  if (error === "invalid_client") {
    status = 401;
    headers["WWW-Authenticate"] = `Basic realm="${quoted(realm)}"`;
  } else if (error === "invalid_token" || error === "insufficient_scope") {
    status = error === "invalid_token" ? 401 : 403;
    headers["WWW-Authenticate"] = `Bearer realm="${quoted(realm)}", error="${error}", error_description="${quoted(err.message)}"`;
  } else if (e instanceof BearerRequestError) {
    headers["WWW-Authenticate"] = bearerChallenge(realm, error, err.message);
  }
  return { status, body: { error, error_description: err.message }, headers };
}

/** Runs an OAuth handler, rendering its failures per RFC 6749 section 5.2. */
export function oauthReply(realm: string, fn: () => Promise<Reply>, errorHeaders: Record<string, string> = {}): Promise<Reply> {
  const fail = (e: unknown) => {
    const reply = oauthErrorReply(e, realm, errorHeaders);
    // Rendered here, a server-side failure never reaches the error handlers that log one (app.ts,
    // the lanes): logged here, or a 500 server_error would leave no trace of its cause.
    if (reply.status >= 500) currentContext()?.logger.error({ err: e }, "OAuth request failed");
    return reply;
  };
  // A `catch`, not an async wrapper: one promise instead of three on the token endpoint's path,
  // where Node 20's AsyncLocalStorage makes each cost a hook call (docs/performance.md).
  try {
    return fn().catch(fail);
  } catch (e) {
    return Promise.resolve(fail(e));
  }
}

export function oauthError(error: string, description: string, status = 400): GatewayError {
  return new GatewayError(status, error, description);
}

/**
 * A protected resource's request the resource cannot read its credentials from (RFC 6750 section
 * 3.1, invalid_request: e.g. the token sent by more than one method, section 2): 400, and the
 * Bearer challenge names the error, unlike other invalid_request answers, which are not a resource's.
 */
export class BearerRequestError extends GatewayError {
  constructor(description: string) {
    super(400, "invalid_request", description);
  }
}

/**
 * The `WWW-Authenticate` challenge of a protected resource (RFC 6750 section 3). Without an error it
 * is the bare challenge section 3.1 asks for when the request had no credentials at all.
 */
export function bearerChallenge(realm: string, error?: string, description?: string): string {
  const params = [`realm="${quoted(realm)}"`];
  if (error) params.push(`error="${quoted(error)}"`);
  if (error && description) params.push(`error_description="${quoted(description)}"`);
  return `Bearer ${params.join(", ")}`;
}

function quoted(s: string): string {
  return s.replace(/["\\]/g, "");
}
