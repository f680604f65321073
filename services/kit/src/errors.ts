import { Code } from "@connectrpc/connect";

/**
 * The one error type of Tessera's domain code (DESIGN 4, "Errors").
 * Services throw it; the RPC interceptor turns it into a ConnectError with an ErrorDetail,
 * and the gateway maps the Connect code to an HTTP status exactly once.
 */
export type IamErrorCode =
  | "invalidArgument"
  | "unauthenticated"
  | "permissionDenied"
  | "notFound"
  | "alreadyExists"
  | "failedPrecondition"
  | "resourceExhausted"
  | "unavailable"
  | "internal";

export interface IamErrorInit {
  code: IamErrorCode;
  /** Stable machine-readable reason, rendered as the Admin API's `error`. */
  reason: string;
  message: string;
  field?: string;
  /** RFC 6749 section 5.2 error code, for protocol endpoints. */
  oauthError?: string;
  /** RFC 9449 section 8: the nonce a use_dpop_nonce error hands the client (the DPoP-Nonce header). */
  dpopNonce?: string;
}

export class IamError extends Error {
  readonly code: IamErrorCode;
  readonly reason: string;
  readonly field: string | undefined;
  readonly oauthError: string | undefined;
  readonly dpopNonce: string | undefined;

  constructor(init: IamErrorInit) {
    super(init.message);
    this.name = "IamError";
    this.code = init.code;
    this.reason = init.reason;
    this.field = init.field;
    this.oauthError = init.oauthError;
    this.dpopNonce = init.dpopNonce;
  }

  static invalid(field: string, message: string, reason = "invalid_request"): IamError {
    return new IamError({ code: "invalidArgument", reason, message, field });
  }

  static notFound(what: string, reason = "not_found"): IamError {
    return new IamError({ code: "notFound", reason, message: `${what} not found` });
  }

  static conflict(message: string, field?: string, reason = "conflict"): IamError {
    return new IamError({ code: "alreadyExists", reason, message, ...(field ? { field } : {}) });
  }

  static unauthenticated(message: string, reason = "unauthorized"): IamError {
    return new IamError({ code: "unauthenticated", reason, message });
  }

  static unavailable(message: string, reason = "unavailable"): IamError {
    return new IamError({ code: "unavailable", reason, message });
  }

  /** An OAuth 2.0 protocol error (RFC 6749 section 5.2). */
  static oauth(oauthError: string, message: string, code: IamErrorCode = "invalidArgument"): IamError {
    return new IamError({ code, reason: oauthError, message, oauthError });
  }
}

export function isIamError(e: unknown): e is IamError {
  return e instanceof IamError;
}

export const connectCodeOf: Record<IamErrorCode, Code> = {
  invalidArgument: Code.InvalidArgument,
  unauthenticated: Code.Unauthenticated,
  permissionDenied: Code.PermissionDenied,
  notFound: Code.NotFound,
  alreadyExists: Code.AlreadyExists,
  failedPrecondition: Code.FailedPrecondition,
  resourceExhausted: Code.ResourceExhausted,
  unavailable: Code.Unavailable,
  internal: Code.Internal,
};
