import type { Interceptor } from "@connectrpc/connect";
import { ACTOR_HEADER, REQUEST_ID_HEADER, currentContext } from "../context.js";

/** Propagates the request id and actor of the current request onto outgoing RPCs. */
export const contextPropagation: Interceptor = (next) => async (req) => {
  const ctx = currentContext();
  if (ctx) {
    if (!req.header.has(REQUEST_ID_HEADER)) req.header.set(REQUEST_ID_HEADER, ctx.requestId);
    if (ctx.actor && !req.header.has(ACTOR_HEADER)) req.header.set(ACTOR_HEADER, JSON.stringify(ctx.actor));
  }
  return next(req);
};
