import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify, UnsecuredJWT, type JSONWebKeySet } from "jose";
import type { ClientInfo } from "../domain/client-directory.js";
import { REQUEST_OBJECT_ALGS } from "../domain/discovery.js";
import { markOverLong } from "./authorization-request.js";

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

/** The object's payload as parameters (numbers such as max_age and objects such as claims as text). */
export function objectParams(payload: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(payload)) {
    if (ENVELOPE.has(k) || v === undefined || v === null) continue;
    out[k] = typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v);
  }
  return out;
}

const invalid = (description: string) => ({ error: "invalid_request_object", description });

/**
 * Reads and verifies the `request` parameter (RFC 9101 section 6; OIDC Core 1.0 section 6.1). The
 * client's `requestObjectSignatureAlg` decides what it may send: by default an object signed with
 * one of its registered keys (`jwks`), with `iss` its client_id and `aud` the issuer (RFC 9101
 * section 10.2 makes them the defence against an object replayed at another server); "any" also
 * admits unsigned (alg none) objects, "none" only those. `exp` and `nbf`, when present, are
 * checked. The query's client_id must match the object's (section 5).
 */
export async function readRequestObject(
  params: Record<string, string>, client: ClientInfo | null, issuer: string, nowMs: number,
): Promise<RequestObjectOutcome> {
  const { request, ...rest } = params;
  // Repeated or over-long (the NUL marker): checkAuthorizationRequest names it.
  if (request === undefined || request === "" || request.startsWith("\u0000")) return { params };
  let payload: Record<string, unknown>;
  let alg: string;
  try {
    if (request.split(".").length === 5) return { params: rest, error: invalid("Encrypted request objects are not supported.") };
    alg = String(decodeProtectedHeader(request).alg ?? "");
    payload = decodeJwt(request) as Record<string, unknown>;
  } catch {
    return { params: rest, error: invalid("The request object is not a JWT.") };
  }
  const merged = { ...rest, ...markOverLong(objectParams(payload)) };
  if (rest.request_uri) return { params: merged, error: { error: "invalid_request", description: "request and request_uri cannot both be sent." } };
  if (!client) return { params: merged };
  const fail = (description: string): RequestObjectOutcome => ({ params: merged, error: invalid(description) });
  if (typeof payload.client_id === "string" && rest.client_id !== undefined && payload.client_id !== rest.client_id) {
    return fail("The request object's client_id does not match the client_id parameter.");
  }
  const allowed = client.requestObjectSignatureAlg;
  const currentDate = new Date(nowMs);
  try {
    if (alg === "none") {
      if (allowed !== "any" && allowed !== "none") return fail("The client does not allow unsigned request objects.");
      UnsecuredJWT.decode(request, { currentDate });
      return { params: merged };
    }
    if (allowed === "none") return fail("The client accepts only unsigned request objects.");
    const algorithms = allowed && allowed !== "any" ? [allowed] : [...REQUEST_OBJECT_ALGS];
    if (!algorithms.includes(alg)) return fail(`The request object's algorithm must be one of ${algorithms.join(", ")}.`);
    if (!client.jwks.keys.length) return fail("The client has no registered keys to verify request objects with.");
    const keys = createLocalJWKSet(client.jwks as unknown as JSONWebKeySet);
    await jwtVerify(request, keys, { algorithms, issuer: client.clientId, audience: issuer, currentDate, requiredClaims: ["iss", "aud"] });
    return { params: merged };
  } catch (e) {
    return fail(describe(e));
  }
}

function describe(e: unknown): string {
  if (e instanceof errors.JWTExpired) return "The request object has expired.";
  if (e instanceof errors.JWTClaimValidationFailed) return `The request object's ${e.claim} claim is not valid.`;
  if (e instanceof errors.JWSSignatureVerificationFailed || e instanceof errors.JWKSNoMatchingKey || e instanceof errors.JWKSMultipleMatchingKeys) {
    return "The request object's signature does not verify with the client's keys.";
  }
  return "The request object is not valid.";
}
