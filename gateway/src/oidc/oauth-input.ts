import type { IncomingHttpHeaders } from "node:http";
import { BearerRequestError, oauthError } from "./oauth-errors.js";

/**
 * What the OAuth endpoints read from a request: an express Request has it all, and so does the
 * gateway's lean lane (../http/lean-lane.ts), which serves the same handlers without express.
 */
export interface OAuthHttpRequest {
  method: string;
  params: Record<string, string | string[]>;
  /** The parsed form; a parameter sent twice is an array. */
  body: unknown;
  headers: IncomingHttpHeaders;
  ip?: string | undefined;
}

export interface ClientCredentialsInput {
  clientId: string;
  clientSecret: string;
  /** RFC 7521 section 4.2 (private_key_jwt, client_secret_jwt); "" when not sent. */
  clientAssertionType: string;
  clientAssertion: string;
}

/** A form parameter (RFC 6749 section 3.2: `application/x-www-form-urlencoded`); each at most once (section 3.1). */
export function formParam(req: OAuthHttpRequest, name: string): string {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const v = body[name];
  if (v === undefined) return "";
  if (typeof v !== "string") throw oauthError("invalid_request", `parameter ${name} must be sent once`);
  return v;
}

export function optFormParam(req: OAuthHttpRequest, name: string): string | undefined {
  const body = (req.body ?? {}) as Record<string, unknown>;
  return body[name] === undefined ? undefined : formParam(req, name);
}

/**
 * The client's credentials (RFC 6749 section 2.3.1): HTTP Basic (client_secret_basic, with each
 * part form-urlencoded) or client_id/client_secret in the body (client_secret_post), or client_id
 * alone for PUBLIC clients ("none"). Using two methods at once is invalid_request (section 2.3).
 */
export function clientCredentials(req: OAuthHttpRequest): ClientCredentialsInput {
  const bodyId = formParam(req, "client_id");
  const bodySecret = formParam(req, "client_secret");
  const clientAssertionType = formParam(req, "client_assertion_type");
  const clientAssertion = formParam(req, "client_assertion");
  const header = req.headers.authorization ?? "";
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  const asserted = clientAssertionType !== "" || clientAssertion !== "";
  if (asserted && (bodySecret || m)) throw oauthError("invalid_request", "use only one client authentication method");
  if (!m) return { clientId: bodyId, clientSecret: bodySecret, clientAssertionType, clientAssertion };
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw oauthError("invalid_client", "malformed Basic credentials", 401);
  let clientId: string;
  let clientSecret: string;
  try {
    clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " "));
    clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "));
  } catch {
    throw oauthError("invalid_client", "malformed Basic credentials", 401);
  }
  if (bodySecret) throw oauthError("invalid_request", "use only one client authentication method");
  if (bodyId && bodyId !== clientId) throw oauthError("invalid_request", "client_id does not match the Basic credentials");
  return { clientId, clientSecret, clientAssertionType: "", clientAssertion: "" };
}

/**
 * The access token of a protected-resource request: the Authorization header (RFC 6750 section
 * 2.1) or the form body's `access_token` (section 2.2). "" when the request carries no Bearer
 * credentials at all (section 3.1: the challenge then names no error). Section 2: a client MUST NOT
 * use more than one method, so a token in both is invalid_request, as is one sent twice.
 */
export function bearerToken(req: OAuthHttpRequest): string {
  const header = req.headers.authorization ?? "";
  let inBody: string | undefined;
  try {
    inBody = req.method === "POST" ? optFormParam(req, "access_token") : undefined;
  } catch {
    throw new BearerRequestError("access_token must be sent once");
  }
  if (/^Bearer(?:\s|$)/i.test(header)) {
    if (inBody !== undefined) throw new BearerRequestError("send the access token in the Authorization header or the form body, not both");
    const m = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
    // Section 2.1's b64token syntax; anything else is no token the service could accept.
    if (!m) throw oauthError("invalid_token", "malformed Bearer credentials", 401);
    return m[1]!;
  }
  if (inBody !== undefined && !header) return inBody;
  return "";
}
