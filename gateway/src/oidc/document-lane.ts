import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { REQUEST_ID_HEADER, currentContext, runWithContext } from "../../../services/kit/src/context.js";
import { newRequestContext } from "../http/request-context.js";
import type { HttpMetrics } from "../http/http-metrics.js";
import type { Reply } from "../http/route-table.js";

/** A GET the lane answers: the realm from the path and the request in, the reply out. */
export interface LaneGet {
  path: string;
  /** Also HEAD (the documents); else GET only. */
  head: boolean;
  /** Whether this request is plain enough for the lane; the others go to express. */
  takes?(req: IncomingMessage): boolean;
  serve(realm: string, req: IncomingMessage): Promise<Reply>;
}

export interface DocumentLaneDeps {
  endpoints: LaneGet[];
  metrics: HttpMetrics;
  logger: Logger;
}

interface Compiled {
  endpoint: LaneGet;
  pattern: RegExp;
}

/**
 * The GET lane: discovery and the JWK Set (GET and HEAD) and userinfo (GET) served from node:http
 * ahead of express, as the lean lane serves the form-posted OAuth endpoints (oauth-form-lane.ts).
 * These are the most requested read paths (every relying party, every token verification that
 * misses a cached key set, resource servers asking for claims), and express's router walked some
 * hundred routes and five middlewares before reaching them: as much CPU as a prepared document. The lane runs
 * the same endpoint code, request context, metrics and headers as the route table; any other
 * method or path spelling goes to express, which answers it as before.
 */
export function documentLane(deps: DocumentLaneDeps, fallback: RequestListener): RequestListener {
  const compiled: Compiled[] = deps.endpoints.map((endpoint) => ({
    endpoint,
    pattern: new RegExp(`^${endpoint.path.replace(/\./g, "\\.").replace(":realmName", "([^/]+)")}$`),
  }));
  return (req, res) => {
    const lane = req.method === "GET" || req.method === "HEAD" ? laneOf(req, compiled) : undefined;
    if (!lane) {
      fallback(req, res);
      return;
    }
    serve(req, res, lane.endpoint, lane.realm, deps);
  };
}

function laneOf(req: IncomingMessage, compiled: Compiled[]): { endpoint: LaneGet; realm: string } | undefined {
  const url = req.url ?? "";
  if (!url.startsWith("/realms/")) return undefined;
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  for (const c of compiled) {
    const m = c.pattern.exec(path);
    if (!m || (req.method === "HEAD" && !c.endpoint.head) || (c.endpoint.takes && !c.endpoint.takes(req))) continue;
    try {
      return { endpoint: c.endpoint, realm: decodeURIComponent(m[1]!) };
    } catch {
      return undefined; // malformed escape: express answers it
    }
  }
  return undefined;
}

function serve(req: IncomingMessage, res: ServerResponse, endpoint: LaneGet, realm: string, deps: DocumentLaneDeps): void {
  const started = process.hrtime.bigint();
  const ctx = newRequestContext(deps.logger, header(req, REQUEST_ID_HEADER));
  const method = req.method ?? "GET";
  const done = (reply: Reply) => {
    write(res, ctx.requestId, reply);
    deps.metrics.record(method, endpoint.path, res.statusCode, started);
  };
  // The endpoints render their own failures (publicReply); anything else is what express's error
  // handler answers: a 500 in the gateway's format, logged.
  const fail = (e: unknown) => {
    (currentContext()?.logger ?? ctx.logger).error({ err: e, path: endpoint.path }, "request failed");
    done({ status: 500, body: Buffer.from(JSON.stringify({ error: "internal_error", message: "internal error" })), headers: { "Content-Type": "application/json; charset=utf-8" } });
  };
  try {
    runWithContext(ctx, () => endpoint.serve(realm, req)).then(done, fail);
  } catch (e) {
    fail(e);
  }
}

function write(res: ServerResponse, requestId: string, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { "X-Request-Id": requestId, "X-Content-Type-Options": "nosniff", ...reply.headers };
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  const body = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(JSON.stringify(reply.body), "utf8");
  headers["Content-Type"] ??= "application/json; charset=utf-8";
  headers["Content-Length"] = String(body.length);
  // A HEAD answer carries the GET's headers and no body (RFC 9110 section 9.3.2); node drops it.
  res.writeHead(reply.status, headers).end(body);
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
