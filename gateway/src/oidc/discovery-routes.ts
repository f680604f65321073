import { createHash } from "node:crypto";
import { toJson } from "@bufbuild/protobuf";
import type { Request } from "express";
import { JwkSchema } from "../../../gen/iam/token/v1/token_pb.js";
import type { Reply, RouteTable } from "../http/route-table.js";
import { describeError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";

/** Public metadata may be read from any origin (no credentials are involved). */
const PUBLIC_CORS = { "Access-Control-Allow-Origin": "*" };
/**
 * Revalidated on every use, as Keycloak's: a rotated-in key signs at once, and a relying party that
 * honoured a max-age (and throttles its re-fetch on an unknown kid, as jose's remote JWK Set does for
 * 30 s) would refuse the new tokens meanwhile. The key set's ETag makes the revalidation a 304.
 */
const CERTS_CACHE = "no-cache";
const DISCOVERY_CACHE = "public, max-age=300";

/**
 * OIDC discovery (spec 4.17, OIDC Discovery 1.0 section 4) and the JWK Set (RFC 7517 section 5),
 * both public. `publicUrl` is the configured `{base_url}`, never taken from the request's Host, so
 * the issuer cannot be spoofed. An unknown or disabled realm is a 404 `realm_not_found`.
 */
export function addDiscoveryRoutes(table: RouteTable, rpc: RpcClients, publicUrl: string): void {
  table
    .add("GET", "/realms/:realmName/.well-known/openid-configuration", "public", (req) => publicReply(async () => {
      const res = await rpc.token.getDiscovery({ realm: realmParam(req), baseUrl: publicUrl });
      return { status: 200, body: res.metadata ?? {}, headers: { ...PUBLIC_CORS, "Cache-Control": DISCOVERY_CACHE } };
    }))
    .add("GET", "/realms/:realmName/protocol/openid-connect/certs", "public", (req) => publicReply(async () => {
      const res = await rpc.token.getJwks({ realm: realmParam(req) });
      const body = { keys: res.keys.map((k) => toJson(JwkSchema, k)) };
      // Each kid is its key's RFC 7638 thumbprint, so the kids name the set: hashing them, not the
      // serialized set, costs the endpoint nothing measurable.
      const etag = `"${createHash("sha256").update(res.keys.map((k) => k.kid).join(" ")).digest("base64url")}"`;
      const headers = { ...PUBLIC_CORS, "Cache-Control": CERTS_CACHE, ETag: etag };
      // RFC 9110 section 13.1.2: a match of any listed tag (or "*") is answered 304 without the set.
      if (matchesIfNoneMatch(req.get("if-none-match"), etag)) return { status: 304, headers };
      return { status: 200, body, headers: { ...headers, "Content-Type": "application/jwk-set+json" } };
    }));
}

function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  // Weak comparison (RFC 9110 section 8.8.3.2), as If-None-Match asks: W/ prefixes are ignored.
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}

function realmParam(req: Request): string {
  return String(req.params.realmName);
}

/** Protocol-family errors: `{error, error_description}` (RFC 6749 section 5.2 shape), never cached. */
async function publicReply(fn: () => Promise<Reply>): Promise<Reply> {
  try {
    return await fn();
  } catch (e) {
    const err = describeError(e);
    return {
      status: err.status,
      body: { error: err.reason, error_description: err.message },
      headers: { ...PUBLIC_CORS, "Cache-Control": "no-store" },
    };
  }
}
