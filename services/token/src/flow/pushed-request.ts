import { PAR_URN_PREFIX, type PushedAuthorizations } from "../domain/pushed-authorization.js";
import type { FlowRealm } from "./flow-realms.js";
import type { RequestObjectOutcome } from "./request-object.js";

/** What the authorization endpoint makes of `request_uri`; `pushed` when it named a pushed request. */
export type PushedOutcome = RequestObjectOutcome & { pushed: boolean };

/**
 * Resolves a request_uri at the authorization endpoint (RFC 9126 section 4): a PAR request_uri is
 * taken once, for the client_id of the query, and its parameters are the request's (the query's
 * other parameters are ignored, as RFC 9101 section 6.3 does for a request object). Other
 * request_uris (fetched from the client) are not supported.
 */
export async function readPushedRequest(params: Record<string, string>, pushed: PushedAuthorizations, realm: FlowRealm): Promise<PushedOutcome> {
  const { request_uri: uri, ...rest } = params;
  if (uri === undefined || uri === "") return { params, pushed: false };
  if (rest.request) return { params: rest, pushed: false, error: { error: "invalid_request", description: "request and request_uri cannot both be sent." } };
  if (!uri.startsWith(PAR_URN_PREFIX)) {
    return { params: rest, pushed: false, error: { error: "request_uri_not_supported", description: "Only request_uris from the pushed authorization request endpoint are supported." } };
  }
  const stored = await pushed.take(realm, rest.client_id ?? "", uri);
  if (!stored) return { params: rest, pushed: false, error: { error: "invalid_request_uri", description: "The request_uri is unknown, expired or already used." } };
  return { params: stored, pushed: true };
}
