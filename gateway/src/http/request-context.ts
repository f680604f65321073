import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import { LazyRequestContext, REQUEST_ID_HEADER, runWithContext, type RequestContext } from "../../../services/kit/src/context.js";

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Opens the request context: a request id (the caller's X-Request-Id when sane, else a new uuid),
 * echoed in the response and propagated to every RPC, and a child logger carrying it.
 */
export function requestContext(root: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const ctx = newRequestContext(root, req.get(REQUEST_ID_HEADER));
    res.setHeader("X-Request-Id", ctx.requestId);
    runWithContext(ctx, () => next());
  };
}

/** The context of one HTTP request (also used by the lean lane, which runs ahead of express). */
export function newRequestContext(root: Logger, given: string | undefined): RequestContext {
  // Its logger is built on first use (LazyRequestContext).
  return new LazyRequestContext(given && VALID_ID.test(given) ? given : randomUUID(), root);
}
