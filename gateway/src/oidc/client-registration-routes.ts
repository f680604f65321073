import type { JsonObject } from "@bufbuild/protobuf";
import type { Request } from "express";
import type { RouteTable } from "../http/route-table.js";
import type { ClientOrigins } from "./cors.js";
import type { RpcClients } from "../rpc-clients.js";
import { NO_STORE, oauthError, oauthReply } from "./oauth-errors.js";

export const REGISTRATION_PATH = "/realms/:realmName/clients-registrations/openid-connect";

/**
 * OAuth 2.0 Dynamic Client Registration (RFC 7591 section 3) and its management (RFC 7592 section
 * 2) at Keycloak's paths. Every answer, failures included, is RFC 7591 section 3.2.2's
 * `{error, error_description}` with no-store; the Bearer token (an initial access token or the
 * registration access token) is checked by the directory.
 */
export function addClientRegistrationRoutes(table: RouteTable, rpc: RpcClients, publicUrl: string, origins: ClientOrigins): void {
  const realm = (req: Request) => String(req.params.realmName);
  const clientId = (req: Request) => String(req.params.clientId);
  const reply = (req: Request, status: number, metadata: JsonObject | undefined) => {
    const body = { ...(metadata ?? {}), registration_client_uri: clientUri(publicUrl, realm(req), String((metadata ?? {}).client_id)) };
    return { status, body, headers: NO_STORE };
  };
  table
    .add("POST", REGISTRATION_PATH, "bearer", (req) => oauthReply(realm(req), async () => {
      const res = await rpc.clientRegistrations.registerClient({ realm: realm(req), initialAccessToken: bearer(req), metadata: metadataOf(req.body) });
      return reply(req, 201, res.metadata);
    }))
    .add("GET", `${REGISTRATION_PATH}/:clientId`, "bearer", (req) => oauthReply(realm(req), async () => {
      const res = await rpc.clientRegistrations.getRegisteredClient({ realm: realm(req), clientId: clientId(req), registrationAccessToken: required(req) });
      return reply(req, 200, res.metadata);
    }))
    .add("PUT", `${REGISTRATION_PATH}/:clientId`, "bearer", (req) => oauthReply(realm(req), async () => {
      const registrationAccessToken = required(req);
      const res = await rpc.clientRegistrations.updateRegisteredClient({ realm: realm(req), clientId: clientId(req), registrationAccessToken, metadata: metadataOf(req.body) });
      origins.forget(realm(req), clientId(req));
      return reply(req, 200, res.metadata);
    }))
    .add("DELETE", `${REGISTRATION_PATH}/:clientId`, "bearer", (req) => oauthReply(realm(req), async () => {
      await rpc.clientRegistrations.deleteRegisteredClient({ realm: realm(req), clientId: clientId(req), registrationAccessToken: required(req) });
      origins.forget(realm(req), clientId(req));
      return { status: 204, headers: NO_STORE };
    }));
}

/** RFC 7592 section 1.2: where the client reads, changes and deletes its registration. */
function clientUri(publicUrl: string, realmName: string, clientId: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/realms/${encodeURIComponent(realmName)}/clients-registrations/openid-connect/${encodeURIComponent(clientId)}`;
}

/** The Bearer token of the Authorization header (RFC 6750 section 2.1); "" without one. */
function bearer(req: Request): string {
  const header = req.headers.authorization ?? "";
  if (!header) return "";
  const m = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
  if (!m) throw oauthError("invalid_token", "the Authorization header must carry a Bearer token", 401);
  return m[1]!;
}

/** The registration access token, before anything of the request is read (RFC 7592 section 2). */
function required(req: Request): string {
  const token = bearer(req);
  if (!token) throw oauthError("invalid_token", "a registration access token is required", 401);
  return token;
}

/** RFC 7591 section 3.1: the body is a JSON object of client metadata. */
function metadataOf(body: unknown): JsonObject {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw oauthError("invalid_client_metadata", "the request body must be a JSON object of client metadata");
  }
  return body as JsonObject;
}
