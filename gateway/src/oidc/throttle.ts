import express, { type NextFunction, type Request, type Response } from "express";
import { Code, ConnectError } from "@connectrpc/connect";
import type { IncomingHttpHeaders } from "node:http";
import type { RpcClients } from "../rpc-clients.js";
import type { Reply } from "../http/route-table.js";
import { RateLimiter } from "../http/rate-limiter.js";
import { FORM_LIMIT_BYTES, FORM_PARAMETER_LIMIT } from "./form-limits.js";
import { rateLimitAddress } from "../../../services/kit/src/rate-limit-address.js";

/** How long a realm's limits are trusted before they are read again, unless a realm event drops them first. */
const SETTINGS_TTL_MS = 10_000;

/**
 * The POSTs the throttle counts, matched exactly as the router routes them (case-sensitive,
 * strict: DESIGN 7): every endpoint that takes the client's password, which RFC 6749 section 2.3.1
 * asks to protect against brute force (token, device authorization, introspection, revocation,
 * logout, pushed authorization requests: RFC 9126 section 7.1), and the paths that take the user's credentials in the browser (authorization, SAML
 * login, registration, the device page, the broker's confirm-link form), and dynamic client
 * registration.
 */
const THROTTLED = /^\/realms\/([^/]+)\/(?:protocol\/openid-connect\/(?:token|token\/introspect|revoke|logout|auth|auth\/device|ext\/par\/request)|protocol\/saml|login-actions\/[^/]+|device|broker\/[^/]+\/link|clients-registrations\/openid-connect)$/;

/** Dynamic client registration, counted per address (RFC 7591 section 5: open registration invites floods). */
const REGISTRATION = /\/clients-registrations\/openid-connect$/;

/** The endpoints that answer in OAuth format (RFC 6749 section 5.2), their 429 included. */
const OAUTH_ENDPOINT = /\/protocol\/openid-connect\/(?:token|token\/introspect|revoke|auth\/device|ext\/par\/request)$/;

/** The logout endpoint, which is the client's (OAuth format) or the browser's (an error page). */
const LOGOUT = /\/protocol\/openid-connect\/logout$/;

/**
 * The device verification page (RFC 8628 section 3.3), whose GET (the form in device-enter.njk
 * submits by GET, and verification_uri_complete is a GET) looks the user code up: each lookup is
 * a guess at a code, which section 5.1 asks to rate-limit. HEAD runs the same handler.
 */
const DEVICE_PAGE = /^\/realms\/([^/]+)\/device$/;

interface Limits {
  perIp: number;
  perClient: number;
  at: number;
}

/** What a throttled request is judged on. */
export interface ThrottledRequest {
  path: string;
  ip: string | undefined;
  headers: IncomingHttpHeaders;
  /** The parsed form. */
  body: unknown;
}

/**
 * Per-IP and per-client throttle on the endpoints that take a client's or a user's password
 * (THROTTLED) and on the device page's user-code lookups (RFC 8628 section 5.1), configured per realm
 * (`rateLimitPerIp`, `rateLimitPerClient`, requests per minute; 0 = off). Over the limit the
 * answer is 429 with `Retry-After` (RFC 6585 section 4). Counters live in this gateway process: with
 * several gateway replicas each enforces the limit on the traffic it sees. Used by the express
 * middleware below and by the lean lane, so both count against the same windows.
 */
export class Throttle {
  private readonly limits = new Map<string, Limits>();

  constructor(private readonly rpc: RpcClients, private readonly limiter = new RateLimiter()) {}

  /** Drops the realm's cached limits (all realms' without a name): the realm changed. */
  forget(realm?: string): void {
    if (realm === undefined) this.limits.clear();
    else this.limits.delete(realm);
  }

  /**
   * The realm of a throttled request, or undefined when it is not throttled: the POSTs to the
   * THROTTLED paths, and a GET (or HEAD) of the device page that carries a user code to look up
   * (`query`, the parsed query string); the empty form, which looks nothing up, is not counted.
   */
  realmOf(method: string, path: string, query?: unknown): string | undefined {
    const m = method === "POST" ? THROTTLED.exec(path)
      : (method === "GET" || method === "HEAD") && hasUserCode(query) ? DEVICE_PAGE.exec(path)
      : null;
    if (!m) return undefined;
    try {
      return decodeURIComponent(m[1]!);
    } catch {
      return undefined; // a malformed realm name is refused by the route itself
    }
  }

  /**
   * Counts the request; a 429 reply when it is over a limit, else undefined. Synchronous while the
   * realm's limits are cached (the common case on the token endpoint: no promise per request).
   */
  check(realm: string, req: ThrottledRequest): Reply | undefined | Promise<Reply | undefined> {
    const hit = this.limits.get(realm);
    if (hit && Date.now() - hit.at < SETTINGS_TTL_MS) return this.count(realm, hit, req);
    return this.fetchLimits(realm).then((l) => this.count(realm, l, req));
  }

  private count(realm: string, l: Limits | null, req: ThrottledRequest): Reply | undefined {
    if (!l || (l.perIp === 0 && l.perClient === 0)) return undefined;
    // The OAuth endpoints' 429 is an RFC 6749 section 5.2 body; the browser's paths get text, which
    // the express middleware renders as the realm's error page.
    const isOAuth = OAUTH_ENDPOINT.test(req.path) || REGISTRATION.test(req.path) || (LOGOUT.test(req.path) && authenticatesClient(req));
    // The client's own count covers every endpoint that takes its password (RFC 6749 section
    // 2.3.1), so guesses spread over many addresses are still bounded per client.
    const takesClientPassword = OAUTH_ENDPOINT.test(req.path) || LOGOUT.test(req.path);
    // An IPv6 client counts by its /64 (rate-limit-address.ts).
    let wait = l.perIp > 0 ? this.limiter.hit(`ip\0${realm}\0${rateLimitAddress(req.ip)}`, l.perIp) : 0;
    const clientId = clientIdOf(req);
    if (wait === 0 && l.perClient > 0 && clientId && takesClientPassword) {
      wait = this.limiter.hit(`client\0${realm}\0${clientId}`, l.perClient);
    }
    if (wait === 0) return undefined;
    const headers = { "Retry-After": String(wait), "Cache-Control": "no-store" };
    return isOAuth
      // RFC 6749 section 5.1, 5.2: OAuth answers carry Pragma: no-cache besides no-store (NO_STORE).
      ? { status: 429, headers: { ...headers, Pragma: "no-cache" }, body: { error: "too_many_requests", error_description: `rate limit exceeded; retry after ${wait} s` } }
      : { status: 429, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" }, body: throttledPageMessage(wait) };
  }

  /** Reads the realm's limits (check() has already looked in the cache). */
  private async fetchLimits(realm: string): Promise<Limits | null> {
    try {
      const { realm: r } = await this.rpc.realms.getRealm({ name: realm });
      const l = { perIp: r?.rateLimitPerIp ?? 0, perClient: r?.rateLimitPerClient ?? 0, at: Date.now() };
      this.limits.set(realm, l);
      return l;
    } catch (e) {
      // Unknown realm: the route itself answers 404.
      if (e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.InvalidArgument)) return null;
      throw e;
    }
  }
}

/** What a browser over the limit is told (the hosted pages' error page, or the text of `check`'s reply). */
export function throttledPageMessage(waitSeconds: number): string {
  return `Too many requests. Try again in ${waitSeconds} seconds.`;
}

/**
 * A browser path's 429, rendered as the realm's hosted error page (as the device page's own bound
 * answers), with the reply's Retry-After.
 */
export type ThrottledPage = (res: Response, realm: string, waitSeconds: number) => Promise<void>;

/**
 * The throttle as express middleware: parses the form (for client_id) only on throttled paths.
 * `page` renders the 429 of a browser path; without it the reply's plain text is sent.
 */
export function throttle(t: Throttle, page?: ThrottledPage) {
  // The same limits as the endpoints' own parser: the first parser to run decides.
  const form = express.urlencoded({ extended: false, limit: FORM_LIMIT_BYTES, parameterLimit: FORM_PARAMETER_LIMIT });
  return (req: Request, res: Response, next: NextFunction): void => {
    const realm = t.realmOf(req.method, req.path, req.query);
    if (realm === undefined) return next();
    form(req, res, (err?: unknown) => {
      if (err) return next(err);
      Promise.resolve(t.check(realm, req)).then((reply) => {
        if (!reply) return next();
        if (page && typeof reply.body === "string") {
          const wait = Number(reply.headers?.["Retry-After"]);
          res.setHeader("Retry-After", String(wait));
          page(res, realm, wait).catch(next);
          return;
        }
        for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
        res.status(reply.status);
        if (typeof reply.body === "string") res.send(reply.body);
        else res.json(reply.body);
      }, next);
    });
  };
}

/**
 * A logout that authenticates a client or carries a refresh token (the API logout, spec 4.16),
 * as browser-logout.ts isRefreshTokenLogout tells it from the browser's.
 */
function authenticatesClient(req: ThrottledRequest): boolean {
  const body = req.body as Record<string, unknown> | undefined;
  return /^Basic\s/i.test(req.headers.authorization ?? "") || isGiven(body?.refresh_token) || isGiven(body?.client_secret) || isGiven(body?.client_assertion);
}

function isGiven(v: unknown): boolean {
  return v !== undefined && v !== "";
}

/** A `user_code` query parameter the device page would look up (one or several: counted either way). */
function hasUserCode(query: unknown): boolean {
  const v = (query as Record<string, unknown> | undefined)?.user_code;
  return v !== undefined && v !== "";
}

function clientIdOf(req: ThrottledRequest): string | undefined {
  const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    const i = decoded.indexOf(":");
    if (i > 0) {
      try {
        return decodeURIComponent(decoded.slice(0, i));
      } catch {
        return undefined; // malformed: client authentication fails with invalid_client
      }
    }
  }
  const body = req.body as Record<string, unknown> | undefined;
  if (typeof body?.client_id === "string") return body.client_id;
  // JWT client authentication (RFC 7523 section 3) names the client in the assertion's `sub`:
  // read unverified, it only picks the counter, so forged assertions still count against the
  // client they name, as wrong secrets do.
  return typeof body?.client_assertion === "string" ? assertionSubject(body.client_assertion) : undefined;
}

function assertionSubject(jwt: string): string | undefined {
  const payload = jwt.split(".")[1];
  if (!payload || payload.length > 8192) return undefined;
  try {
    const sub = (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { sub?: unknown }).sub;
    return typeof sub === "string" ? sub : undefined;
  } catch {
    return undefined;
  }
}
