import { InitialAccessTokenSchema, RegistrationPolicySchema } from "../../../gen/iam/directory/v1/client_registration_pb.js";
import { PAGE, arrayOf, json, noContent, ref, type Answer, type Operation } from "./operation.js";
import type { JsonSchema, ProtoSchemas } from "./proto-schema.js";

const REG = "/realms/:realmName/clients-registrations/openid-connect";
const str = { type: "string" };
const strs = { type: "array", items: str };
const NO_STORE = { "Cache-Control": "`no-store`: the answer holds a token or a secret." };
const CLIENT_ID = { clientId: "The client_id the registration answered." };

/** RFC 7591 section 2 client metadata as the endpoint reads it; members it does not know are ignored. */
const METADATA: JsonSchema = {
  type: "object", additionalProperties: true,
  properties: {
    client_id: { ...str, description: "On update only: the client's own client_id (RFC 7592 section 2.2)." },
    redirect_uris: strs, post_logout_redirect_uris: strs,
    grant_types: { ...strs, description: "Default `authorization_code`; within the realm's allowed grant types." },
    response_types: { ...strs, description: "`code`, or none for clients without the authorization_code grant." },
    token_endpoint_auth_method: { enum: ["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none"], description: "Default `client_secret_basic`; `none` registers a public client." },
    client_name: str, client_uri: str, logo_uri: str, policy_uri: str, tos_uri: str, contacts: strs, scope: str,
    jwks: { type: "object", description: "The client's public keys (a JWK Set), for private_key_jwt and request objects." },
    jwks_uri: str, software_id: str, software_version: str, application_type: { enum: ["web", "native"] },
    backchannel_logout_uri: str, backchannel_logout_session_required: { type: "boolean" },
    request_object_signing_alg: str, require_pushed_authorization_requests: { type: "boolean" },
  },
};

/** The client information response (RFC 7591 section 3.2.1, RFC 7592 section 3). */
const INFORMATION: JsonSchema = {
  type: "object", additionalProperties: true,
  required: ["client_id", "client_id_issued_at", "registration_access_token", "registration_client_uri", "redirect_uris", "grant_types", "token_endpoint_auth_method"],
  properties: {
    ...METADATA.properties as Record<string, JsonSchema>,
    client_id_issued_at: { type: "integer" },
    client_secret: { ...str, description: "Only in the registration's answer, for a client that authenticates with a secret." },
    client_secret_expires_at: { type: "integer", description: "0: the secret does not expire." },
    registration_access_token: { ...str, description: "The Bearer token of registration_client_uri; an update answers a new one." },
    registration_client_uri: str,
  },
};

const TOKEN_401: Answer = {
  description: "`invalid_token`: a missing, unknown, expired or used-up token, or one for another client (RFC 7592 section 2.1).",
  schema: ref("OAuthError"), headers: { "WWW-Authenticate": "The Bearer challenge." },
};
const INVALID: Answer = json("`invalid_client_metadata` or `invalid_redirect_uri`, `error_description` naming the member (RFC 7591 section 3.2.2).", ref("OAuthError"));

/** Dynamic client registration and the Admin API that authorizes it (docs/dynamic-registration.md). */
export function clientRegistrationOperations(p: ProtoSchemas): Operation[] {
  const admin = (o: Omit<Operation, "auth" | "tag">): Operation => ({ auth: "admin", tag: "Dynamic client registration", ...o });
  const reg = (o: Omit<Operation, "auth" | "tag" | "errors">): Operation => ({ auth: "bearer", tag: "Dynamic client registration", errors: "oauth", ...o });
  return [
    admin({ id: "createInitialAccessToken", method: "POST", path: "/admin/realms/:realmName/clients-initial-access", summary: "Mint an initial access token",
      description: "`expiration` seconds (default 86400, 0 never expires) and `count` registrations (default 1). The token is answered this once.",
      body: { schema: { type: "object", additionalProperties: false, properties: { expiration: { type: "integer" }, count: { type: "integer" } } }, required: true },
      responses: { 201: { ...json("The token, with its value.", p.ref(InitialAccessTokenSchema)), headers: NO_STORE } } }),
    admin({ id: "listInitialAccessTokens", method: "GET", path: "/admin/realms/:realmName/clients-initial-access", summary: "List initial access tokens", query: PAGE,
      description: "`max` defaults to 100, at most 1000.",
      responses: { 200: json("Oldest first, never their values; expired ones are gone.", arrayOf(p.ref(InitialAccessTokenSchema))) } }),
    admin({ id: "deleteInitialAccessToken", method: "DELETE", path: "/admin/realms/:realmName/clients-initial-access/:id", pathParams: { id: "The token's id." },
      summary: "Revoke an initial access token", responses: { 204: noContent() } }),
    admin({ id: "getRegistrationPolicy", method: "GET", path: "/admin/realms/:realmName/client-registration-policy", summary: "Get the realm's registration policy",
      responses: { 200: json("The policy and how many clients it counts.", p.ref(RegistrationPolicySchema)) } }),
    admin({ id: "updateRegistrationPolicy", method: "PUT", path: "/admin/realms/:realmName/client-registration-policy", summary: "Change the realm's registration policy (the fields sent)",
      body: { schema: { type: "object", additionalProperties: false, properties: {
        anonymousRegistrationAllowed: { type: "boolean" }, allowedRedirectUriHosts: strs, allowedGrantTypes: strs, maxClients: { type: "integer" },
      } }, required: true },
      responses: { 200: json("The policy.", p.ref(RegistrationPolicySchema)) } }),
    reg({ id: "registerClient", method: "POST", path: REG, summary: "Register a client (RFC 7591)",
      description: "Bearer: an initial access token, or none where the realm allows anonymous registration.",
      body: { schema: METADATA, required: true },
      responses: {
        201: { ...json("The client information response.", INFORMATION), headers: NO_STORE }, 400: INVALID, 401: TOKEN_401,
        403: json("`access_denied`: the realm holds its most dynamically registered clients.", ref("OAuthError")),
      } }),
    reg({ id: "getRegisteredClient", method: "GET", path: `${REG}/:clientId`, pathParams: CLIENT_ID, summary: "Read a registration (RFC 7592)",
      responses: { 200: { ...json("The client information response, without the secret.", INFORMATION), headers: NO_STORE }, 401: TOKEN_401 } }),
    reg({ id: "updateRegisteredClient", method: "PUT", path: `${REG}/:clientId`, pathParams: CLIENT_ID, summary: "Replace a registration's metadata (RFC 7592)",
      description: "Members left out take their defaults; the registration access token rotates.",
      body: { schema: METADATA, required: true },
      responses: { 200: { ...json("The client information response with a new registration access token.", INFORMATION), headers: NO_STORE }, 400: INVALID, 401: TOKEN_401 } }),
    reg({ id: "deleteRegisteredClient", method: "DELETE", path: `${REG}/:clientId`, pathParams: CLIENT_ID, summary: "Delete a registered client (RFC 7592)",
      responses: { 204: noContent("The client is gone."), 401: TOKEN_401 } }),
  ];
}
