import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { REQUEST_ID_HEADER, currentContext, runWithContext } from "../../../services/kit/src/context.js";
import { newRequestContext } from "../http/request-context.js";
import type { HttpMetrics } from "../http/http-metrics.js";
import type { Reply } from "../http/route-table.js";
import { TOO_MANY_PARAMETERS } from "../http/body-errors.js";
import { oauthBodyErrorReply, oauthFailureReply } from "./oauth-endpoint-errors.js";
import type { Throttle } from "./throttle.js";
import { FORM_LIMIT_BYTES, FORM_PARAMETER_LIMIT } from "./form-limits.js";
import { parseFormBody } from "./form-body.js";
import type { FormEndpoint } from "./token-routes.js";

export interface OAuthFormLaneDeps {
  endpoints: FormEndpoint[];
  throttle: Throttle;
  metrics: HttpMetrics;
  logger: Logger;
  /** The client's address as express computes it under the configured "trust proxy". */
  clientIp(req: IncomingMessage): string | undefined;
}

interface Compiled {
  endpoint: FormEndpoint;
  pattern: RegExp;
}

/**
 * The lean lane (docs/performance.md): the form-posted OAuth endpoints (token, device
 * authorization, introspection, revocation, client-authenticated logout) served straight from
 * node:http, ahead of express. At
 * the token endpoint express's middleware chain, body parser and response helpers cost as much as
 * signing the token. The lane runs the same endpoint handlers, throttle, request context, metrics
 * and headers as the route table; any request it does not recognise as plain (another content type
 * or charset, a content encoding, no Content-Length, an oversized body, an unusual path spelling)
 * goes to express untouched, which answers it exactly as before.
 */
export function oauthFormLane(deps: OAuthFormLaneDeps, fallback: RequestListener): RequestListener {
  const compiled: Compiled[] = deps.endpoints.map((endpoint) => ({
    endpoint,
    pattern: new RegExp(`^${endpoint.path.replace(":realmName", "([^/]+)")}$`),
  }));
  return (req, res) => {
    const lane = req.method === "POST" ? laneOf(req, compiled) : undefined;
    if (!lane) {
      fallback(req, res);
      return;
    }
    serve(req, res, lane.endpoint, lane.path, lane.realm, deps);
  };
}

function laneOf(req: IncomingMessage, compiled: Compiled[]): { endpoint: FormEndpoint; path: string; realm: string } | undefined {
  const url = req.url ?? "";
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (!path.startsWith("/realms/") || !isPlainForm(req)) return undefined;
  for (const c of compiled) {
    const m = c.pattern.exec(path);
    if (!m || (c.endpoint.takes && !c.endpoint.takes(req))) continue;
    try {
      return { endpoint: c.endpoint, path, realm: decodeURIComponent(m[1]!) };
    } catch {
      return undefined; // malformed escape: express answers it
    }
  }
  return undefined;
}

const FORM_TYPE = "application/x-www-form-urlencoded";

/** RFC 6749 section 3.2: `application/x-www-form-urlencoded`, UTF-8, identity-encoded, with a known and acceptable length. */
function isPlainForm(req: IncomingMessage): boolean {
  const given = req.headers["content-type"];
  const type = given === FORM_TYPE ? given : given?.toLowerCase().replace(/\s+/g, "");
  if (type !== FORM_TYPE && type !== `${FORM_TYPE};charset=utf-8`) return false;
  const encoding = req.headers["content-encoding"];
  if (encoding && encoding.toLowerCase() !== "identity") return false;
  if (req.headers["transfer-encoding"] !== undefined) return false;
  const length = Number(req.headers["content-length"]);
  return Number.isInteger(length) && length >= 0 && length <= FORM_LIMIT_BYTES;
}

function serve(req: IncomingMessage, res: ServerResponse, endpoint: FormEndpoint, path: string, realm: string, deps: OAuthFormLaneDeps): void {
  const started = process.hrtime.bigint();
  const ctx = newRequestContext(deps.logger, header(req, REQUEST_ID_HEADER));
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("error", () => res.destroy());
  req.on("end", () => {
    const done = (reply: Reply) => {
      write(res, ctx.requestId, reply);
      deps.metrics.record("POST", endpoint.path, res.statusCode, started);
    };
    const fail = (e: unknown) => {
      // What express's error handler answers on these endpoints (app.ts): RFC 6749 section 5.2, no-store.
      const reply = oauthFailureReply(e, realm);
      if (reply.status >= 500) (currentContext()?.logger ?? ctx.logger).error({ err: e, path }, "request failed");
      done(reply);
    };
    let answer: Reply | Promise<Reply>;
    try {
      answer = runWithContext(ctx, () => answerOf(req, Buffer.concat(chunks).toString("utf8"), endpoint, path, realm, deps));
    } catch (e) {
      fail(e);
      return;
    }
    if (answer instanceof Promise) answer.then(done, fail);
    else done(answer);
  });
}

/**
 * The endpoint's reply to a read body; a promise only when something is awaited. Kept free of
 * async functions: under Node 20's AsyncLocalStorage every promise costs a hook call, a measurable
 * share of a token request (docs/performance.md).
 */
function answerOf(req: IncomingMessage, body: string, endpoint: FormEndpoint, path: string, realm: string, deps: OAuthFormLaneDeps): Reply | Promise<Reply> {
  const form = parseFormBody(body, FORM_PARAMETER_LIMIT);
  // What express answers for the same body (app.ts, oauthFailureReply).
  if (!form) return oauthBodyErrorReply(TOO_MANY_PARAMETERS, realm);
  const ip = deps.clientIp(req);
  const handle = () => endpoint.handle({ method: "POST", params: { realmName: realm }, body: form, headers: req.headers, ip });
  if (deps.throttle.realmOf("POST", path) === undefined) return handle();
  const check = deps.throttle.check(realm, { path, ip, headers: req.headers, body: form });
  if (check instanceof Promise) return check.then((throttled) => throttled ?? handle());
  return check ?? handle();
}

function write(res: ServerResponse, requestId: string, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { "X-Request-Id": requestId, "X-Content-Type-Options": "nosniff", ...reply.headers };
  if (reply.status === 204 || reply.body === undefined) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
  headers["Content-Type"] ??= "application/json; charset=utf-8";
  headers["Content-Length"] = String(Buffer.byteLength(text));
  res.writeHead(reply.status, headers).end(text);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
