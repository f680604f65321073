import { Router, type Express, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { currentContext } from "../../../services/kit/src/context.js";
import { RouteIndex } from "./route-index.js";
import { GatewayError } from "./rpc-errors.js";

export type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "OPTIONS";

/**
 * How a route authenticates its caller (DESIGN 7):
 * - `admin`: the Admin API guard (X-Admin-API-Key or an admin Bearer JWT) runs before anything
 *   else, the body parser included; the handler runs only with `req.actor` set.
 * - `client`: the OAuth client authenticates in the request (RFC 6749 section 2.3), checked by
 *   the service the handler calls; the throttle counts these endpoints (throttle.ts).
 * - `bearer`: a Bearer token the handler verifies (userinfo, the current admin).
 * - `public`: no credential (discovery, health, the hosted pages, admin login).
 */
export type RouteAuth = "public" | "admin" | "client" | "bearer";

const AUTHS: ReadonlySet<string> = new Set<RouteAuth>(["public", "admin", "client", "bearer"]);

/** What a route handler answers; the table writes it (JSON, a prepared Buffer, or an empty 204). */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type RouteHandler = (req: Request, res: Response) => Promise<Reply | void>;

/** One route of the table, as `routes()` lists it. */
export interface RouteInfo {
  method: Method;
  path: string;
  auth: RouteAuth;
}

export interface MountOptions {
  /** The Admin API guard: sets `req.actor` and calls next, or answers 401 itself. */
  adminGuard: RequestHandler;
  /** The JSON body parser of a path; it runs after the route's guard. */
  jsonParser(path: string): RequestHandler;
  /** An admin route's permission check, after the guard (admin-permissions.ts). */
  adminAccess(method: Method, path: string): RequestHandler;
}

interface Handlers {
  auth: RouteAuth;
  chain: RequestHandler[];
  handler: RouteHandler;
}

interface Entry {
  path: string;
  handlers: Map<Method, Handlers>;
}

/**
 * A table of routes (DESIGN 4: the gateway's table-driven REST -> RPC mapping).
 *
 * Every route declares its authentication: `add(method, path, auth, handler, ...before)`, with
 * `auth` one of `public`, `admin`, `client`, `bearer` (RouteAuth). A route without a valid
 * declaration makes `mount` throw, so the gateway does not start. The Admin API guard runs from
 * the `admin` declaration, never from a path-prefix test: a prefix test and express's router
 * disagreeing on a path (its case, say) once let `/ADMIN/realms` through without credentials.
 *
 * Per route, in order: the guard and the permission check (admin routes), the JSON body parser
 * (so an unauthenticated or unpermitted caller cannot make the gateway parse a large Admin API
 * body), `before`, the handler.
 *
 * Each path answers 405 with an `Allow` header for methods it does not have (DESIGN 7); a path
 * whose routes are all `admin` does so only to an authenticated caller. Unknown paths fall through
 * to the 404 handler. Paths are registered in order, so fixed segments ("/admin/realms/themes")
 * must be added before parameters ("/admin/realms/:realmName").
 *
 * A request finds its path in one pass (RouteIndex, a trie of the paths' segments) rather than
 * through express testing every path's regular expression in turn; the index picks the path
 * express's first match would, and that path's own express router then runs it as before. So
 * each path's segments must be literal text or one `:parameter`; any other shape makes `mount`
 * throw, naming the path.
 */
export class RouteTable {
  private readonly entries: Entry[] = [];

  add(method: Method, path: string, auth: RouteAuth, handler: RouteHandler, ...before: RequestHandler[]): this {
    let entry = this.entries.find((e) => e.path === path);
    if (!entry) {
      entry = { path, handlers: new Map() };
      this.entries.push(entry);
    }
    entry.handlers.set(method, { auth, chain: before, handler });
    return this;
  }

  /** Every route, in registration order (the route walk test visits each). */
  routes(): RouteInfo[] {
    return this.entries.flatMap((e) => [...e.handlers].map(([method, h]) => ({ method, path: e.path, auth: h.auth })));
  }

  mount(app: Express, options: MountOptions): void {
    const undeclared = this.routes().filter((r) => !AUTHS.has(r.auth as string));
    if (undeclared.length > 0) {
      const list = undeclared.map((r) => `${r.method} ${r.path}`).join(", ");
      throw new Error(`routes without an authentication declaration (public, admin, client or bearer): ${list}`);
    }
    const index = new RouteIndex(this.entries.map((e) => e.path));
    const admin = adminStep(options.adminGuard);
    const routers = this.entries.map((entry) => {
      // Exact routing (DESIGN 7) is the table's own, whatever the app's settings.
      const router = Router({ caseSensitive: true, strict: true });
      const route = router.route(entry.path);
      const json = options.jsonParser(entry.path);
      for (const [method, h] of entry.handlers) {
        const guard = h.auth === "admin" ? [admin, options.adminAccess(method, entry.path)] : [];
        route[method.toLowerCase() as "get"](...guard, json, ...h.chain, wrap(h.handler, h.auth));
      }
      const allow: string[] = [...entry.handlers.keys()];
      if (allow.includes("GET")) allow.push("HEAD");
      const adminOnly = [...entry.handlers.values()].every((h) => h.auth === "admin");
      route.all(...(adminOnly ? [admin] : []), (_req: Request, res: Response, next: NextFunction) => {
        res.setHeader("Allow", allow.join(", "));
        // Rendered by the app's error handler in the path's own format: an OAuth endpoint's
        // (RFC 6749 section 5.2, no-store), a hosted page's (HTML), else the gateway's JSON.
        next(new GatewayError(405, "method_not_allowed", `method not allowed; allowed: ${allow.join(", ")}`));
      });
      return router;
    });
    // req.path is the raw pathname express's router matches. The entry's own router then matches
    // that one path as express always did: it decodes the parameters (a malformed one is a 400),
    // sets req.params and req.route, serves HEAD from GET, and passes errors on.
    app.use(function routeTable(req: Request, res: Response, next: NextFunction) {
      const i = index.lookup(req.path);
      if (i === undefined) next();
      else routers[i]!(req, res, next);
    });
  }
}

/** The admin guard as a route step: no-store on every Admin API answer, the actor into the request context. */
function adminStep(guard: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader("Cache-Control", "no-store");
    const done = (err?: unknown) => {
      const ctx = currentContext();
      if (ctx && req.actor) ctx.actor = req.actor;
      next(err);
    };
    Promise.resolve(guard(req, res, done)).catch(next);
  };
}

function wrap(handler: RouteHandler, auth: RouteAuth): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // An admin handler never runs without the credential that its admin events name (authDetails):
    // without this, a missing actor would be recorded as `system`.
    if (auth === "admin" && !req.actor) {
      next(new GatewayError(401, "unauthorized", "missing credentials: send X-Admin-API-Key or Authorization: Bearer <admin token>"));
      return;
    }
    handler(req, res).then((reply) => {
      if (!reply || res.headersSent) return;
      for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
      if (reply.status === 204 || reply.body === undefined) res.status(reply.status).end();
      // A prepared body (published-documents.ts) is sent as it is, with the Content-Type it came with.
      else if (Buffer.isBuffer(reply.body)) res.status(reply.status).setHeader("Content-Length", reply.body.length).end(reply.body);
      else res.status(reply.status).json(reply.body);
    }, next);
  };
}
