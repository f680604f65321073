import express, { type NextFunction, type Request, type Response } from "express";
import { Code, ConnectError } from "@connectrpc/connect";
import type { RpcClients } from "../rpc-clients.js";
import { RateLimiter } from "../http/rate-limiter.js";

/** How long a realm's limits are trusted before they are read again. */
const SETTINGS_TTL_MS = 10_000;

/** The token endpoint and the paths that take credentials in the browser (issue 5), SAML login included (issue 6). */
const THROTTLED = /^\/realms\/([^/]+)\/(?:protocol\/openid-connect\/(?:token|auth|auth\/device)|protocol\/saml|login-actions\/.+|device)$/;

interface Limits {
  perIp: number;
  perClient: number;
  at: number;
}

/**
 * Per-IP and per-client throttle on the token and login endpoints, configured per realm
 * (`rateLimitPerIp`, `rateLimitPerClient`, requests per minute; 0 = off). Over the limit the
 * answer is 429 with `Retry-After` (RFC 6585 section 4). Counters live in this gateway process: with
 * several gateway replicas each enforces the limit on the traffic it sees.
 */
export function throttle(rpc: RpcClients, limiter = new RateLimiter()) {
  const limits = new Map<string, Limits>();
  const form = express.urlencoded({ extended: false, limit: "64kb" });

  const realmLimits = async (realm: string): Promise<Limits | null> => {
    const hit = limits.get(realm);
    if (hit && Date.now() - hit.at < SETTINGS_TTL_MS) return hit;
    try {
      const { realm: r } = await rpc.realms.getRealm({ name: realm });
      const l = { perIp: r?.rateLimitPerIp ?? 0, perClient: r?.rateLimitPerClient ?? 0, at: Date.now() };
      limits.set(realm, l);
      return l;
    } catch (e) {
      // Unknown realm: the route itself answers 404.
      if (e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.InvalidArgument)) return null;
      throw e;
    }
  };

  return (req: Request, res: Response, next: NextFunction): void => {
    const m = req.method === "POST" ? THROTTLED.exec(req.path) : null;
    if (!m) return next();
    const realm = decodeURIComponent(m[1]!);
    form(req, res, (err?: unknown) => {
      if (err) return next(err);
      realmLimits(realm).then((l) => {
        if (!l || (l.perIp === 0 && l.perClient === 0)) return next();
        let wait = l.perIp > 0 ? limiter.hit(`ip\0${realm}\0${req.ip ?? ""}`, l.perIp) : 0;
        const clientId = clientIdOf(req);
        if (wait === 0 && l.perClient > 0 && clientId && req.path.endsWith("/token")) {
          wait = limiter.hit(`client\0${realm}\0${clientId}`, l.perClient);
        }
        if (wait === 0) return next();
        res.setHeader("Retry-After", String(wait));
        res.setHeader("Cache-Control", "no-store");
        if (req.path.endsWith("/token")) {
          res.status(429).json({ error: "too_many_requests", error_description: `rate limit exceeded; retry after ${wait} s` });
        } else {
          res.status(429).type("text/plain").send(`Too many requests. Try again in ${wait} seconds.`);
        }
      }, next);
    });
  };
}

function clientIdOf(req: Request): string | undefined {
  const basic = req.get("authorization")?.match(/^Basic\s+(\S+)$/i)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    const i = decoded.indexOf(":");
    if (i > 0) return decodeURIComponent(decoded.slice(0, i));
  }
  const body = req.body as Record<string, unknown> | undefined;
  return typeof body?.client_id === "string" ? body.client_id : undefined;
}
