import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";

/**
 * A call in flight when the serving process dies (SIGKILL, OOM kill, a node lost) ends with its
 * HTTP/2 stream reset: connect-node reports Canceled ("http/2 stream closed with error code
 * CANCEL"), which the gateway's table does not know and would answer 500. Nobody here cancelled
 * it, so it is a transport failure, and a transport failure between processes is Unavailable
 * (DESIGN 4, "Errors"): 503, and the caller may retry, reaching another replica. A call this
 * process cancelled itself (its signal aborted: a deadline, a client gone) stays Canceled.
 */
export function peerGoneAsUnavailable(service: string): Interceptor {
  return (next) => (req) => next(req).catch((e: unknown) => {
    if (e instanceof ConnectError && e.code === Code.Canceled && !req.signal.aborted) {
      throw new ConnectError(`the ${service} service went away during the call (${e.rawMessage})`, Code.Unavailable, undefined, undefined, e);
    }
    throw e;
  });
}
