import type { Express, NextFunction, Request, RequestHandler, Response } from "express";
import { GatewayError } from "./rpc-errors.js";

export type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "OPTIONS";

/** What a route handler answers; the table writes it (JSON, or an empty 204). */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type RouteHandler = (req: Request, res: Response) => Promise<Reply | void>;

interface Entry {
  path: string;
  handlers: Map<Method, RequestHandler[]>;
}

/**
 * A table of routes (DESIGN 4: the gateway's table-driven REST -> RPC mapping). Each path answers
 * 405 with an `Allow` header for methods it does not have (DESIGN 7); unknown paths fall through
 * to the 404 handler. Paths are registered in order, so fixed segments ("/admin/realms/themes")
 * must be added before parameters ("/admin/realms/:realmName").
 */
export class RouteTable {
  private readonly entries: Entry[] = [];

  add(method: Method, path: string, handler: RouteHandler, ...before: RequestHandler[]): this {
    let entry = this.entries.find((e) => e.path === path);
    if (!entry) {
      entry = { path, handlers: new Map() };
      this.entries.push(entry);
    }
    entry.handlers.set(method, [...before, wrap(handler)]);
    return this;
  }

  mount(app: Express): void {
    for (const entry of this.entries) {
      const route = app.route(entry.path);
      for (const [method, handlers] of entry.handlers) {
        route[method.toLowerCase() as "get"](...handlers);
      }
      const allow: string[] = [...entry.handlers.keys()];
      if (allow.includes("GET")) allow.push("HEAD");
      route.all((_req: Request, res: Response, next: NextFunction) => {
        res.setHeader("Allow", allow.join(", "));
        // Rendered by the app's error handler in the path's own format: an OAuth endpoint's
        // (RFC 6749 section 5.2, no-store), a hosted page's (HTML), else the gateway's JSON.
        next(new GatewayError(405, "method_not_allowed", `method not allowed; allowed: ${allow.join(", ")}`));
      });
    }
  }
}

function wrap(handler: RouteHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    handler(req, res).then((reply) => {
      if (!reply || res.headersSent) return;
      for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
      if (reply.status === 204 || reply.body === undefined) res.status(reply.status).end();
      else res.status(reply.status).json(reply.body);
    }, next);
  };
}
