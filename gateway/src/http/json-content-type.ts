import type { NextFunction, Request, RequestHandler, Response } from "express";
import { GatewayError } from "./rpc-errors.js";

/**
 * The Admin API reads JSON only. A body sent without `Content-Type: application/json` (curl's
 * `-d` sends `application/x-www-form-urlencoded`; a bare fetch sends `text/plain`) is refused with
 * 415 (RFC 9110 section 15.5.16) naming what to send, instead of reaching the handler unparsed and
 * reading as a missing body. A request without a body is left to its route.
 */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (!req.path.startsWith("/admin/")) return next();
  // An empty body (Content-Length: 0, as fetch sends for a bodiless POST) is no body; req.is
  // would judge its type all the same.
  const length = req.headers["content-length"];
  const hasBody = req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
  if (!hasBody || req.is("application/json")) return next();
  const given = req.headers["content-type"];
  next(new GatewayError(415, "unsupported_media_type",
    given === undefined
      ? "the request body needs Content-Type: application/json"
      : `the request body must be application/json, not ${given.split(";")[0]!.trim().slice(0, 100)}`));
}

/** The Admin API's body parser behind requireJsonBody: a non-JSON body is a 415, never parsed. */
export function jsonOnly(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    requireJsonBody(req, res, (err?: unknown) => (err === undefined ? parser(req, res, next) : next(err)));
  };
}
