import express, { type RequestHandler } from "express";
import type { IncomingMessage } from "node:http";
import type { Reply, RouteTable } from "../http/route-table.js";
import type { RpcClients } from "../rpc-clients.js";
import { NO_STORE, bearerChallenge, oauthError, oauthReply } from "./oauth-errors.js";
import { FORM_LIMIT_BYTES, FORM_PARAMETER_LIMIT } from "./form-limits.js";
import { addCorsPreflight, withTokenCors } from "./cors.js";
import { clientCredentials, formParam, optFormParam, type OAuthHttpRequest } from "./oauth-input.js";
import { dpopHeader, resourceCredentials, userinfoErrorReply } from "./dpop-input.js";

const OIDC = "/realms/:realmName/protocol/openid-connect";
/** RFC 6749 section 3.2: form-encoded bodies; duplicates stay arrays so they can be refused. */
const form = express.urlencoded({ extended: false, limit: FORM_LIMIT_BYTES, parameterLimit: FORM_PARAMETER_LIMIT });

/**
 * The form endpoints take only form bodies (RFC 6749 section 3.2, RFC 7662 section 2.1, RFC 7009
 * section 2.1, RFC 8628 section 3.1): a JSON body, which the route's JSON parser has
 * already read, is refused, never taken for a form (as a Keycloak client would expect).
 */
const formOnly: RequestHandler = (req, _res, next) => {
  // req.is: null without a body, false for a body of another type.
  if (req.is("application/x-www-form-urlencoded") === false) {
    next(oauthError("invalid_request", "the request body must be application/x-www-form-urlencoded"));
  } else next();
};

/** A form-posted OAuth endpoint: served by the route table, and by the lean lane when the request is plain. */
export interface FormEndpoint {
  /** The express path pattern (also the metrics route label). */
  path: string;
  handle(req: OAuthHttpRequest): Promise<Reply>;
  /**
   * When the path also serves other requests (the browser's logout), the lane takes only those this
   * accepts, judged on the headers before the body is read; the rest go to express.
   */
  takes?(req: IncomingMessage): boolean;
}

/**
 * The form-posted OIDC endpoints (spec 4.15): token, device authorization (RFC 8628), pushed
 * authorization requests (RFC 9126), introspection (RFC 7662), revocation (RFC 7009). The gateway only parses HTTP; the token service's OAuthService
 * decides. Each is one handler whichever way the request arrives.
 */
export function oauthFormEndpoints(rpc: RpcClients, publicUrl: string): FormEndpoint[] {
  return [
    { path: `${OIDC}/token`, handle: (req) => oauthReply(realmOf(req), async () => {
      const scope = optFormParam(req, "scope");
      const otp = formParam(req, "otp") || formParam(req, "totp");
      const res = await rpc.oauth.token({
        realm: realmOf(req), baseUrl: publicUrl, client: clientCredentials(req),
        grantType: formParam(req, "grant_type"), code: formParam(req, "code"), redirectUri: formParam(req, "redirect_uri"),
        codeVerifier: formParam(req, "code_verifier"), username: formParam(req, "username"), password: formParam(req, "password"),
        otp, refreshToken: formParam(req, "refresh_token"), deviceCode: formParam(req, "device_code"),
        ipAddress: req.ip ?? "", ...(scope !== undefined ? { scope } : {}), dpopProof: dpopHeader(req), ...exchangeParams(req),
      });
      // RFC 6749 section 5.1.
      const body: Record<string, unknown> = { access_token: res.accessToken, token_type: res.tokenType, expires_in: res.expiresIn };
      if (res.refreshToken) {
        body.refresh_token = res.refreshToken;
        body.refresh_expires_in = res.refreshExpiresIn;
      }
      if (res.idToken) body.id_token = res.idToken;
      body.scope = res.scope;
      if (res.sessionState) body.session_state = res.sessionState;
      // RFC 8693 section 2.2.1.
      if (res.issuedTokenType) body.issued_token_type = res.issuedTokenType;
      // RFC 9449 section 8.2: the nonce for the client's next proof.
      return { status: 200, body, headers: res.dpopNonce ? { ...NO_STORE, "DPoP-Nonce": res.dpopNonce } : NO_STORE };
    }) },
    { path: `${OIDC}/auth/device`, handle: (req) => oauthReply(realmOf(req), async () => {
      const scope = optFormParam(req, "scope");
      const res = await rpc.oauth.authorizeDevice({
        realm: realmOf(req), baseUrl: publicUrl, client: clientCredentials(req), ipAddress: req.ip ?? "",
        ...(scope !== undefined ? { scope } : {}),
      });
      return {
        status: 200, headers: NO_STORE,
        body: {
          device_code: res.deviceCode, user_code: res.userCode, verification_uri: res.verificationUri,
          verification_uri_complete: res.verificationUriComplete, expires_in: res.expiresIn, interval: res.interval,
        },
      };
    }) },
    { path: `${OIDC}/ext/par/request`, handle: (req) => oauthReply(realmOf(req), async () => {
      // RFC 9126 section 2.1: the authorization request's parameters, each once (RFC 6749 section 3.1).
      const params: Record<string, string> = {};
      for (const name of Object.keys((req.body ?? {}) as Record<string, unknown>)) params[name] = formParam(req, name);
      const res = await rpc.oauth.pushAuthorizationRequest({
        realm: realmOf(req), baseUrl: publicUrl, client: clientCredentials(req), params, ipAddress: req.ip ?? "", dpopProof: dpopHeader(req),
      });
      // RFC 9126 section 2.2: 201 Created.
      return { status: 201, body: { request_uri: res.requestUri, expires_in: res.expiresIn }, headers: NO_STORE };
    }) },
    { path: `${OIDC}/token/introspect`, handle: (req) => oauthReply(realmOf(req), async () => {
      const res = await rpc.oauth.introspect({
        realm: realmOf(req), baseUrl: publicUrl, client: clientCredentials(req),
        token: formParam(req, "token"), tokenTypeHint: formParam(req, "token_type_hint"), ipAddress: req.ip ?? "",
      });
      return { status: 200, body: res.result ?? { active: false }, headers: NO_STORE };
    }) },
    { path: `${OIDC}/revoke`, handle: (req) => oauthReply(realmOf(req), async () => {
      await rpc.oauth.revoke({
        realm: realmOf(req), baseUrl: publicUrl, client: clientCredentials(req),
        token: formParam(req, "token"), tokenTypeHint: formParam(req, "token_type_hint"), ipAddress: req.ip ?? "",
      });
      // RFC 7009 section 2.2: 200, the content is ignored by the client.
      return { status: 200, body: {}, headers: NO_STORE };
    }) },
  ];
}

/**
 * The non-browser OIDC endpoints (spec 4.15, 4.16) in the route table: the form endpoints above,
 * userinfo, and logout with a refresh token (see refreshTokenLogout).
 */
export function addTokenRoutes(table: RouteTable, rpc: RpcClients, publicUrl: string, endpoints: FormEndpoint[]): void {
  for (const e of endpoints) table.add("POST", e.path, "client", e.handle, formOnly, form);
  const info = userinfoEndpoint(rpc, publicUrl);
  table
    .add("GET", `${OIDC}/userinfo`, "bearer", info)
    .add("POST", `${OIDC}/userinfo`, "bearer", info, form);
  addCorsPreflight(table, [
    ...endpoints.map((e) => ({ path: e.path, methods: "POST, OPTIONS" })),
    { path: `${OIDC}/logout`, methods: "GET, POST, OPTIONS" },
    { path: `${OIDC}/userinfo`, methods: "GET, POST, OPTIONS" },
  ]);
}

/**
 * POST /logout with a refresh_token (spec 4.16: 204, back-channel logout triggered). The path also
 * serves RP-initiated browser logout; `addBrowserLogoutRoutes` owns the route and hands requests
 * carrying a refresh_token or client credentials to this handler. The lean lane takes the ones
 * that authenticate with a Basic header, which are this logout whatever the body holds
 * (isRefreshTokenLogout).
 */
export function refreshTokenLogout(rpc: RpcClients, publicUrl: string): FormEndpoint {
  return {
    path: `${OIDC}/logout`,
    takes: (req) => /^Basic\s/i.test(req.headers.authorization ?? ""),
    handle: (req) => oauthReply(realmOf(req), async () => {
      const refreshToken = formParam(req, "refresh_token");
      if (!refreshToken) throw oauthError("invalid_request", "refresh_token is required");
      await rpc.oauth.logout({
        realm: realmOf(req), baseUrl: publicUrl, client: clientCredentials(req), refreshToken, ipAddress: req.ip ?? "",
      });
      return { status: 204, headers: NO_STORE };
    }),
  };
}

/** Userinfo with its CORS headers: the route table's handler, and the GET lane's (document-lane.ts). */
export function userinfoEndpoint(rpc: RpcClients, publicUrl: string): (req: OAuthHttpRequest) => Promise<Reply> {
  return withTokenCors((req) => userinfo(req, rpc, publicUrl));
}

/**
 * OIDC Core 1.0 section 5.3: GET or POST with a Bearer token (RFC 6750) or a DPoP-bound one with
 * its proof (RFC 9449 section 7.1).
 */
async function userinfo(req: OAuthHttpRequest, rpc: RpcClients, publicUrl: string): Promise<Reply> {
  let scheme = "Bearer";
  try {
    const credentials = resourceCredentials(req);
    scheme = credentials.scheme;
    // RFC 6750 section 3.1: no credentials at all is answered with the bare challenge, no error code.
    if (!credentials.token) return { status: 401, headers: { ...NO_STORE, "WWW-Authenticate": bearerChallenge(realmOf(req)) } };
    const res = await rpc.oauth.userInfo({
      realm: realmOf(req), baseUrl: publicUrl, accessToken: credentials.token, scheme, dpopProof: dpopHeader(req), httpMethod: req.method,
    });
    return { status: 200, body: res.claims ?? {}, headers: NO_STORE };
  } catch (e) {
    return userinfoErrorReply(e, realmOf(req), scheme);
  }
}

/** RFC 8693 section 2.1's parameters, each at most once (one audience: the exchange aims at one client). */
function exchangeParams(req: OAuthHttpRequest) {
  return {
    subjectToken: formParam(req, "subject_token"), subjectTokenType: formParam(req, "subject_token_type"),
    audience: formParam(req, "audience"), requestedTokenType: formParam(req, "requested_token_type"),
    actorToken: formParam(req, "actor_token"), resource: formParam(req, "resource"),
  };
}

function realmOf(req: OAuthHttpRequest): string {
  return String(req.params.realmName);
}
