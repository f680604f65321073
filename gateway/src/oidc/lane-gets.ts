import type { IncomingMessage } from "node:http";
import type { Reply } from "../http/route-table.js";
import type { DocumentEndpoint } from "./discovery-routes.js";
import { header, type LaneGet } from "./document-lane.js";
import type { OAuthHttpRequest } from "./oauth-input.js";

const USERINFO_PATH = "/realms/:realmName/protocol/openid-connect/userinfo";

/** Discovery or the JWK Set in the GET lane: GET and HEAD, If-None-Match honoured. */
export function documentGet(e: DocumentEndpoint): LaneGet {
  return { path: e.path, head: true, serve: (realm, req) => e.serve(realm, header(req, "if-none-match")) };
}

/**
 * GET userinfo in the GET lane, when the request is plain: no query and no body (the route table
 * answers a GET with either as before, as it does HEAD and POST). The handler is the route table's.
 */
export function userinfoGet(handle: (req: OAuthHttpRequest) => Promise<Reply>, clientIp: (req: IncomingMessage) => string | undefined): LaneGet {
  return {
    path: USERINFO_PATH,
    head: false,
    takes: (req) => !(req.url ?? "").includes("?") && req.headers["transfer-encoding"] === undefined
      && (req.headers["content-length"] === undefined || req.headers["content-length"] === "0") && req.headers["content-type"] === undefined,
    serve: (realm, req) => handle({ method: "GET", params: { realmName: realm }, body: {}, headers: req.headers, ip: clientIp(req) }),
  };
}
