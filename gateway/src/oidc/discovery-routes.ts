import { toJson } from "@bufbuild/protobuf";
import type { Request } from "express";
import { JwkSchema, type GetJwksResponse } from "../../../gen/iam/token/v1/token_pb.js";
import type { Reply, RouteTable } from "../http/route-table.js";
import { describeError } from "../http/rpc-errors.js";
import { PublishedDocuments, matchesIfNoneMatch } from "../http/published-documents.js";
import type { RpcClients } from "../rpc-clients.js";

/** Public metadata may be read from any origin (no credentials are involved). */
const PUBLIC_CORS = { "Access-Control-Allow-Origin": "*" };
/**
 * Revalidated on every use, as Keycloak's: a rotated-in key signs at once, and a relying party that
 * honoured a max-age (and throttles its re-fetch on an unknown kid, as jose's remote JWK Set does for
 * 30 s) would refuse the new tokens meanwhile. The key set's ETag makes the revalidation a 304.
 */
const CERTS_CACHE = "no-cache";
/**
 * Discovery changes only with the realm's client scopes and PAR setting, and nothing breaks while
 * a relying party reads a copy a few minutes old (its endpoints never move); past that it must
 * revalidate (RFC 9111 section 5.2.2.2), which the ETag makes a 304.
 */
const DISCOVERY_CACHE = "public, max-age=300, must-revalidate";

export const DISCOVERY_PATH = "/realms/:realmName/.well-known/openid-configuration";
export const CERTS_PATH = "/realms/:realmName/protocol/openid-connect/certs";

/** A public document GET: the realm and the If-None-Match header in, the reply out (route table and lane alike). */
export interface DocumentEndpoint {
  path: string;
  serve(realm: string, ifNoneMatch: string | undefined): Promise<Reply>;
}

/**
 * OIDC discovery (spec 4.17, OIDC Discovery 1.0 section 4) and the JWK Set (RFC 7517 section 5),
 * both public. `publicUrl` is the configured `{base_url}`, never taken from the request's Host, so
 * the issuer cannot be spoofed. An unknown or disabled realm is a 404 `realm_not_found`. Each body
 * is serialized and tagged once per version (PublishedDocuments); a matching If-None-Match is a
 * 304 with the same validators and no body (RFC 9110 section 15.4.5).
 */
export function documentEndpoints(rpc: RpcClients, publicUrl: string): DocumentEndpoint[] {
  const docs = new PublishedDocuments();
  return [
    {
      path: DISCOVERY_PATH,
      serve: (realm, inm) => publicReply(async () => {
        const res = await rpc.token.getDiscovery({ realm, baseUrl: publicUrl });
        const doc = docs.prepare(`discovery:${realm}`, res.metadata ?? {}, (m) => JSON.stringify(m));
        return documentReply(doc, inm, DISCOVERY_CACHE, "application/json; charset=utf-8");
      }),
    },
    {
      path: CERTS_PATH,
      serve: (realm, inm) => publicReply(async () => {
        const res = await rpc.token.getJwks({ realm });
        const doc = docs.prepare(`jwks:${realm}`, res.keys, (keys) => JSON.stringify({ keys: (keys as GetJwksResponse["keys"]).map((k) => toJson(JwkSchema, k)) }));
        return documentReply(doc, inm, CERTS_CACHE, "application/jwk-set+json");
      }),
    },
  ];
}

export function addDiscoveryRoutes(table: RouteTable, endpoints: DocumentEndpoint[]): void {
  for (const e of endpoints) table.add("GET", e.path, "public", (req) => e.serve(realmParam(req), req.get("if-none-match")));
}

function documentReply(doc: { body: Buffer; etag: string }, ifNoneMatch: string | undefined, cacheControl: string, contentType: string): Reply {
  const headers = { ...PUBLIC_CORS, "Cache-Control": cacheControl, ETag: doc.etag };
  if (matchesIfNoneMatch(ifNoneMatch, doc.etag)) return { status: 304, headers };
  return { status: 200, body: doc.body, headers: { ...headers, "Content-Type": contentType } };
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
