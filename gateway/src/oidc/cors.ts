import type { IncomingHttpHeaders } from "node:http";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Reply, RouteHandler, RouteTable } from "../http/route-table.js";
import type { RpcClients } from "../rpc-clients.js";
import { ReadCache } from "../../../services/kit/src/read-cache.js";
import { clientCredentials, type OAuthHttpRequest } from "./oauth-input.js";
import type { FormEndpoint } from "./token-routes.js";

/**
 * CORS for the OIDC endpoints a browser application calls itself (spec 2.3: a client's
 * `webOrigins` are its allowed CORS origins), with Keycloak's rules:
 * - a preflight (OPTIONS) is answered for any Origin: it carries nothing, and the real request is
 *   judged on its own;
 * - a token, introspection, revocation, device or logout response names the Origin only when it is
 *   one of the requesting client's web origins: listed, `*` for any, or `+` for the origins of its
 *   redirect URIs;
 * - a userinfo response names it when the access token's `allowed-origins` claim lists it, and an
 *   error always does, so the application can read the 401 and its challenge.
 * Credentials are allowed (the Basic header), so the Origin is echoed, never `*`. Discovery and
 * the JWK Set are public (`*`, discovery-routes.ts). A request without Origin gets no CORS header.
 */
export const CORS_ALLOW_HEADERS = "Origin, Accept, X-Requested-With, Content-Type, Access-Control-Request-Method, Access-Control-Request-Headers, Authorization, DPoP";
/** A preflight is remembered this long (seconds), as Keycloak does. */
export const CORS_MAX_AGE = "3600";
/**
 * How long a client's resolved web origins are reused; client changes through this gateway drop
 * them at once, and so do the directory's client and realm events in every replica
 * (cache-watchers.ts), so this bounds only what a replica that missed an event keeps using.
 */
export const ORIGINS_CACHE_MS = 5_000;

const NONE: ReadonlySet<string> = new Set();

/** The web origins of clients, resolved and cached per (realm, clientId). */
export class ClientOrigins {
  private readonly cache: ReadCache<ReadonlySet<string>>;

  constructor(private readonly rpc: RpcClients, now: () => number = () => performance.now()) {
    this.cache = new ReadCache(ORIGINS_CACHE_MS, now);
  }

  async get(realm: string, clientId: string): Promise<ReadonlySet<string>> {
    const origins = await this.cache.get(`${realm}\0${clientId}`, async () => {
      try {
        const { client } = await this.rpc.clients.getClient({ realm, clientId });
        return client ? resolveWebOrigins(client.webOrigins, client.redirectUris) : null;
      } catch (e) {
        // An unknown client or realm has no origins; anything else is a real failure.
        if (e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.InvalidArgument)) return null;
        throw e;
      }
    });
    return origins ?? NONE;
  }

  /** Drops a client's origins (the realm's without a clientId, every realm's without either) after a change. */
  forget(realm?: string, clientId?: string): void {
    if (realm === undefined) this.cache.dropWhere("");
    else if (clientId !== undefined) this.cache.drop(`${realm}\0${clientId}`);
    else this.cache.dropWhere(`${realm}\0`);
  }
}

/** Keycloak's resolution: `+` stands for the origins of the (absolute http/https) redirect URIs. */
export function resolveWebOrigins(webOrigins: readonly string[], redirectUris: readonly string[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const o of webOrigins) {
    if (o !== "+") {
      out.add(o);
      continue;
    }
    for (const uri of redirectUris) {
      try {
        const u = new URL(uri.replace(/\*$/, ""));
        if (u.protocol === "https:" || u.protocol === "http:") out.add(u.origin);
      } catch { /* a relative or custom-scheme URI has no web origin */ }
    }
  }
  return out;
}

/** The headers that let `origin` read the response, or undefined when it may not. */
export function corsHeaders(origin: string, allowed: ReadonlySet<string>): Record<string, string> | undefined {
  if (!allowed.has(origin) && !allowed.has("*")) return undefined;
  return { "Access-Control-Allow-Origin": origin, "Access-Control-Allow-Credentials": "true", Vary: "Origin" };
}

function originOf(headers: IncomingHttpHeaders): string | undefined {
  const o = headers.origin;
  return typeof o === "string" && o !== "" ? o : undefined;
}

function withHeaders(reply: Reply, headers: Record<string, string> | undefined): Reply {
  if (!headers) return reply;
  const out: Record<string, string> = { ...reply.headers, ...headers };
  // A 401's challenge is what the application needs to read.
  // So is a DPoP nonce (RFC 9449 section 8).
  const exposed = ["WWW-Authenticate", "DPoP-Nonce"].filter((h) => out[h]);
  if (exposed.length) out["Access-Control-Expose-Headers"] = exposed.join(", ");
  return { ...reply, headers: out };
}

/** A form endpoint whose answers name the Origin when it is one of the requesting client's web origins. */
export function withClientCors(endpoint: FormEndpoint, origins: ClientOrigins): FormEndpoint {
  return {
    ...endpoint,
    handle: (req) => {
      const origin = originOf(req.headers);
      // A server's request (no Origin) costs no extra promise (oauthReply says why that matters).
      return origin ? endpoint.handle(req).then((reply) => withOrigin(reply, origin, req, origins)) : endpoint.handle(req);
    },
  };
}

/** The reply with the CORS headers for `origin` when it is one of the client's web origins. */
async function withOrigin(reply: Reply, origin: string, req: OAuthHttpRequest, origins: ClientOrigins): Promise<Reply> {
  let clientId = "";
  try {
    clientId = clientCredentials(req).clientId;
  } catch { /* malformed credentials: the reply already says so, to the client's own origin only */ }
  if (!clientId) return reply;
  return withHeaders(reply, corsHeaders(origin, await origins.get(String(req.params.realmName), clientId)));
}

/** Userinfo's rule: the access token's `allowed-origins` on success, any Origin on an error. */
export function withTokenCors(handle: (req: OAuthHttpRequest) => Promise<Reply>): (req: OAuthHttpRequest) => Promise<Reply> {
  return async (req) => {
    const reply = await handle(req);
    const origin = originOf(req.headers);
    if (!origin) return reply;
    if (reply.status >= 400) return withHeaders(reply, corsHeaders(origin, new Set([origin])));
    return withHeaders(reply, corsHeaders(origin, allowedOriginsOf(req.headers.authorization)));
  };
}

/**
 * The `allowed-origins` claim of the Bearer token. Read without verifying the signature: the token
 * service has just accepted this very token for the reply this decides about.
 */
function allowedOriginsOf(authorization: string | undefined): ReadonlySet<string> {
  const m = /^Bearer\s+[\w-]+\.([\w-]+)\.[\w-]+\s*$/i.exec(authorization ?? "");
  if (!m) return NONE;
  try {
    const claims = JSON.parse(Buffer.from(m[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
    const list = claims["allowed-origins"];
    return Array.isArray(list) ? new Set(list.filter((o): o is string => typeof o === "string")) : NONE;
  } catch {
    return NONE;
  }
}

/** Preflight answers (OPTIONS) for the OIDC endpoints, by path and the methods each serves. */
export function addCorsPreflight(table: RouteTable, paths: Array<{ path: string; methods: string }>): void {
  for (const { path, methods } of paths) table.add("OPTIONS", path, "public", preflight(methods));
}

function preflight(methods: string): RouteHandler {
  return async (req) => {
    const origin = originOf(req.headers);
    if (!origin) return { status: 200 };
    return {
      status: 200,
      headers: {
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Methods": methods,
        "Access-Control-Allow-Headers": CORS_ALLOW_HEADERS,
        "Access-Control-Allow-Credentials": "true",
        "Access-Control-Max-Age": CORS_MAX_AGE,
        Vary: "Origin",
      },
    };
  };
}
