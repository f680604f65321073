import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../../../gen/iam/kit/v1/kit_pb.js";

/**
 * What a Tessera service answers itself always carries an ErrorDetail (server-interceptor.ts:
 * IamError), or is its bare "internal error"; Unimplemented is a method the peer does not serve.
 * Anything else a client call fails with came from the transport: the peer's process died
 * (ECONNRESET, the HTTP/2 session closed), refused the connection (ECONNREFUSED), or was never
 * reached. connect-node files those under Aborted, Internal, Unknown or Unavailable with the
 * socket's message ("read ECONNRESET"), which must reach no client (DESIGN 4, "Errors").
 */
export function isTransportFailure(e: unknown): boolean {
  if (!(e instanceof ConnectError)) return false;
  if (e.findDetails(ErrorDetailSchema).length > 0) return false;
  if (e.code === Code.Unimplemented) return false;
  if (e.code === Code.Internal && e.rawMessage === "internal error" && e.cause === undefined) return false;
  return true;
}

/** The one answer of a transport failure: Unavailable, retryable, naming the service and nothing of the socket. */
export function serviceUnavailable(service: string): ConnectError {
  const detail = create(ErrorDetailSchema, { reason: "unavailable", field: "", oauthError: "" });
  return new ConnectError(`the ${service} service is temporarily unavailable`, Code.Unavailable, undefined, [{ desc: ErrorDetailSchema, value: detail }]);
}

/**
 * The client side of the error model for a call over the network: a transport failure becomes
 * Unavailable (DESIGN 4: "a transport failure between gateway and service is Unavailable, never
 * a message from the socket"), so the gateway answers 503 with Retry-After, and a service that
 * passes a downstream error on passes this one. A call this process cancelled stays Canceled.
 */
export function transportFailures(service: string): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (e) {
      if (req.signal.aborted || !isTransportFailure(e)) throw e;
      throw serviceUnavailable(service);
    }
  };
}

const SOCKET_CODE = /^(E[A-Z]+|ERR_HTTP2_[A-Z_]+|ERR_STREAM_[A-Z_]+|UND_ERR_[A-Z_]+)$/;

/**
 * Whether a ConnectError that did not pass `transportFailures` (a transport built without it)
 * still shows a socket's failure: a Node error code (ECONNRESET, ERR_HTTP2_STREAM_ERROR, ...) in
 * its causes, or connect-node's Aborted, which it uses for a reset stream. The gateway's last
 * line: such an error is 503, whatever its code.
 */
export function showsSocketFailure(e: unknown): boolean {
  if (!(e instanceof ConnectError) || e.findDetails(ErrorDetailSchema).length > 0) return false;
  if (e.code === Code.Aborted) return true;
  const seen = new Set<unknown>();
  // Objects, not `instanceof Error`: Node's own errors may come from another realm (a vm context).
  for (let c: unknown = e.cause; typeof c === "object" && c !== null && !seen.has(c); c = (c as { cause?: unknown }).cause) {
    seen.add(c);
    const code = (c as { code?: unknown }).code;
    if (typeof code === "string" && SOCKET_CODE.test(code)) return true;
  }
  return false;
}
