import { decodeJwt } from "jose";

/** The request object's claims as authorization parameters, and what is wrong with it, if anything. */
export interface RequestObjectOutcome {
  /**
   * The query's parameters with the object's over them (RFC 9101 section 6.3: the object's win).
   * Even when the object is refused, this is where the refusal goes: its response_mode, state and
   * redirect_uri (still checked against the client's registered ones) say how the client asked to
   * be answered (OIDC Core 1.0 section 6.1; the conformance suite's form post plan checks it).
   */
  params: Record<string, string>;
  error?: { error: string; description: string };
}

/** JWT claims about the object itself, never authorization parameters. */
const ENVELOPE = new Set(["iss", "aud", "exp", "nbf", "iat", "jti", "sub", "request", "request_uri"]);

/** The object's payload as parameters, unverified: only used to know where an answer goes, or after verification. */
export function objectParams(payload: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(payload)) {
    if (ENVELOPE.has(k) || v === undefined || v === null) continue;
    out[k] = typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v);
  }
  return out;
}

/** The payload of a compact JWS, unverified; null when it is not one. */
export function peekPayload(jwt: string): Record<string, unknown> | null {
  try {
    return decodeJwt(jwt) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * Reads the `request` parameter. Request objects are not accepted; the refusal still reaches the
 * client the way the object asked (response_mode, state), never as a bare query redirect.
 */
export function readRequestObject(params: Record<string, string>): RequestObjectOutcome {
  const { request, ...rest } = params;
  if (request === undefined || request === "") return { params };
  const payload = peekPayload(request);
  const merged = payload ? { ...rest, ...objectParams(payload) } : rest;
  return { params: merged, error: { error: "request_not_supported", description: "The request parameter is not supported." } };
}
