import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../../gen/iam/kit/v1/kit_pb.js";
import { showsSocketFailure } from "../../../services/kit/src/rpc/transport-failure.js";

/**
 * Seconds a 503 asks the caller to wait (RFC 9110 section 10.2.3, Retry-After): a service restarts
 * or NATS reconnects in a few seconds.
 */
export const RETRY_AFTER_SECONDS = 5;

/** The gateway's one table from Connect code to HTTP status (DESIGN 4, "Errors"). */
const STATUS: Partial<Record<Code, number>> = {
  [Code.InvalidArgument]: 400,
  [Code.FailedPrecondition]: 400,
  [Code.OutOfRange]: 400,
  [Code.Unauthenticated]: 401,
  [Code.PermissionDenied]: 403,
  [Code.NotFound]: 404,
  [Code.AlreadyExists]: 409,
  [Code.Aborted]: 409,
  [Code.ResourceExhausted]: 429,
  [Code.Unavailable]: 503,
  [Code.DeadlineExceeded]: 503,
  [Code.Unimplemented]: 501,
};

/**
 * Reasons whose status differs from their Connect code's: a third-party server the service talks
 * to on the caller's behalf failed. Over RPC they are Unavailable (retryable); over HTTP they are
 * 502 Bad Gateway, so a caller can tell "Tessera is down" (503) from "your SMTP server refused" (502).
 */
const STATUS_BY_REASON: Record<string, number> = {
  smtp_error: 502,
};

export interface HttpError {
  status: number;
  reason: string;
  message: string;
  field?: string;
  oauthError?: string;
  /** RFC 9449 section 8: the DPoP-Nonce a use_dpop_nonce error carries. */
  dpopNonce?: string;
  /** Set on a 503: the Retry-After every rendering of it sends. */
  retryAfter?: number;
}

/** The Retry-After header of an error that has one (a 503), else none. */
export function retryAfterHeader(e: HttpError): Record<string, string> {
  return e.retryAfter !== undefined ? { "Retry-After": String(e.retryAfter) } : {};
}

/** An error the gateway itself raises (bad JSON, unknown field, missing credentials). */
export class GatewayError extends Error {
  constructor(readonly status: number, readonly reason: string, message: string, readonly field?: string) {
    super(message);
  }
}

const DEFAULT_REASON: Record<number, string> = {
  400: "invalid_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "conflict",
  429: "too_many_requests", 502: "bad_gateway", 501: "not_implemented", 503: "unavailable", 500: "internal_error",
};

export function describeError(e: unknown): HttpError {
  if (e instanceof GatewayError) {
    return { status: e.status, reason: e.reason, message: e.message, ...(e.field ? { field: e.field } : {}) };
  }
  const ce = ConnectError.from(e);
  if (showsSocketFailure(ce)) {
    // A transport failure between the gateway and a service: never the socket's message (DESIGN 4).
    return { status: 503, reason: "unavailable", message: "a service is temporarily unavailable", retryAfter: RETRY_AFTER_SECONDS };
  }
  const detail = ce.findDetails(ErrorDetailSchema)[0];
  const status = (detail?.reason ? STATUS_BY_REASON[detail.reason] : undefined) ?? STATUS[ce.code] ?? 500;
  // Internal errors never carry their cause to the caller; the service logged it.
  const message = status === 500 ? "internal error" : ce.rawMessage;
  return {
    status,
    reason: detail?.reason || DEFAULT_REASON[status] || "error",
    message,
    ...(detail?.field ? { field: detail.field } : {}),
    ...(detail?.oauthError ? { oauthError: detail.oauthError } : {}),
    ...(detail?.dpopNonce ? { dpopNonce: detail.dpopNonce } : {}),
    ...(status === 503 ? { retryAfter: RETRY_AFTER_SECONDS } : {}),
  };
}
