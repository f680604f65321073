import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { randomUUID } from "node:crypto";
import { ErrorDetailSchema } from "../../../../gen/iam/kit/v1/kit_pb.js";
import { IamError, connectCodeOf } from "../errors.js";
import { isStoreUnavailable } from "../store/store-unavailable.js";
import { ACTOR_HEADER, LazyRequestContext, REQUEST_ID_HEADER, currentContext, runWithContext, type Actor, type RequestContext } from "../context.js";
import type { Metrics } from "../metrics.js";

/**
 * The server side of the error model (DESIGN 4, "Errors"): IamError becomes a ConnectError with an
 * ErrorDetail; anything else becomes Internal, is logged, and its message never leaves the service.
 * It also opens the request context (request id, child logger, actor) for the handler.
 */
export function serverInterceptor(service: string, root: Logger, metrics?: Metrics): Interceptor {
  return (next) => (req) => {
    // In process (embedded mode) the caller's context is already here and no header is needed;
    // over the network a request starts with no context and the headers carry it.
    const caller = currentContext();
    const requestId = caller?.requestId ?? req.header.get(REQUEST_ID_HEADER) ?? randomUUID();
    const actor = caller ? caller.actor : parseActor(req.header.get(ACTOR_HEADER));
    // The child logger is built on first use only (LazyRequestContext).
    const ctx: RequestContext = new LazyRequestContext(requestId, root, req.method.name, actor);
    const started = process.hrtime.bigint();
    const observe = (outcome: string) => metrics?.rpcDuration.labels(service, req.method.name, outcome).observe(Number(process.hrtime.bigint() - started) / 1e9);
    let pending: ReturnType<typeof next>;
    try {
      pending = runWithContext(ctx, () => next(req));
    } catch (e) {
      pending = Promise.reject(e);
    }
    // One `then`, not an async function: under Node 20's AsyncLocalStorage each promise costs a
    // hook call, and an async wrapper makes three (docs/performance.md: the token endpoint).
    return pending.then((res) => {
      observe("ok");
      return res;
    }, (e: unknown) => {
      observe("error");
      throw toConnectError(e, ctx.logger);
    });
  };
}

export function toConnectError(e: unknown, logger: Logger): ConnectError {
  if (e instanceof IamError) {
    const detail = create(ErrorDetailSchema, {
      reason: e.reason,
      field: e.field ?? "",
      oauthError: e.oauthError ?? "",
      dpopNonce: e.dpopNonce ?? "",
    });
    return new ConnectError(e.message, connectCodeOf[e.code], undefined, [{ desc: ErrorDetailSchema, value: detail }]);
  }
  if (e instanceof ConnectError) {
    // An error from a downstream RPC passes through with its code and details.
    return e;
  }
  if (isStoreUnavailable(e)) {
    // The write did not happen and a retry may succeed: 503 with Retry-After at the gateway.
    logger.warn({ err: e }, "store unavailable");
    return toConnectError(IamError.unavailable("the service's store is temporarily unavailable"), logger);
  }
  logger.error({ err: e }, "unhandled error in RPC handler");
  return new ConnectError("internal error", Code.Internal);
}

function parseActor(raw: string | null): Actor | undefined {
  if (!raw) return undefined;
  try {
    const a = JSON.parse(raw) as Actor;
    if (a.type === "api-key" || a.type === "admin" || a.type === "system") return a;
  } catch {
    // A malformed actor header is treated as absent.
  }
  return undefined;
}
