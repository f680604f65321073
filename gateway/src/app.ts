import type { IncomingMessage, RequestListener } from "node:http";
import express, { type NextFunction, type Request, type Response } from "express";
import proxyAddr from "proxy-addr";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { currentContext } from "../../services/kit/src/context.js";
import { requestContext } from "./http/request-context.js";
import type { HttpMetrics } from "./http/http-metrics.js";
import { RouteTable, type Reply, type RouteInfo } from "./http/route-table.js";
import { unreadableRequestError } from "./http/body-errors.js";
import { jsonOnly } from "./http/json-content-type.js";
import { describeError } from "./http/rpc-errors.js";
import type { RpcClients } from "./rpc-clients.js";
import { adminGuard } from "./admin/admin-guard.js";
import { AdminSessionCheck } from "./admin/admin-session-check.js";
import type { AdminTokens } from "./admin/admin-tokens.js";
import { addAdminAuthRoutes } from "./admin/admin-auth-routes.js";
import { addAdminAccountRoutes } from "./admin/admin-account-routes.js";
import { requireAccess } from "./admin/admin-permissions.js";
import { addLocalizationRoutes, localizationBodyParser } from "./admin/localization-routes.js";
import { addRealmRoutes } from "./admin/realm-routes.js";
import { REALM_IMPORT_BODY_LIMIT, REALM_IMPORT_PATH, addRealmTransferRoutes } from "./admin/realm-transfer-routes.js";
import { addEventRoutes } from "./admin/event-routes.js";
import { addWebhookRoutes } from "./admin/webhook-routes.js";
import { addAuthenticationFlowRoutes } from "./admin/authentication-flow-routes.js";
import { addUserRoutes } from "./admin/user-routes.js";
import { addUserActionRoutes } from "./admin/user-action-routes.js";
import { addGroupRoutes } from "./admin/group-routes.js";
import { addOrganizationRoutes, organizationBodyParser } from "./admin/organization-routes.js";
import { addInvitationRoutes } from "./pages/invitation-routes.js";
import { addSamlSpRoutes } from "./admin/saml-sp-routes.js";
import { addUserFederationRoutes } from "./admin/user-federation-routes.js";
import { addSamlMetadataRoutes } from "./saml/metadata-routes.js";
import { addClientRoutes } from "./admin/client-routes.js";
import { addRoleRoutes } from "./admin/role-routes.js";
import { addRoleMappingRoutes } from "./admin/role-mapping-routes.js";
import { addClientScopeRoutes } from "./admin/client-scope-routes.js";
import { addScopeEvaluationRoutes } from "./admin/scope-evaluation-routes.js";
import { addHealthRoutes } from "./ops/health-routes.js";
import { addLandingRoutes } from "./ops/landing-routes.js";
import { addDiscoveryRoutes, documentEndpoints } from "./oidc/discovery-routes.js";
import { documentLane } from "./oidc/document-lane.js";
import { documentGet, userinfoGet } from "./oidc/lane-gets.js";
import { addKeyRoutes } from "./admin/key-routes.js";
import { Throttle, throttle, throttledPageMessage } from "./oidc/throttle.js";
import { sendErrorPage } from "./pages/flow-pages.js";
import { RealmLooks } from "./pages/realm-looks.js";
import { LoginOptions } from "./pages/login-options.js";
import { dropOnAdminWrite } from "./http/admin-write-drops.js";
import { pageRequestRealm, sendRequestErrorPage } from "./pages/page-request-errors.js";
import { watchGatewayCaches } from "./cache-watchers.js";
import type { Bus } from "../../services/kit/src/bus/port.js";
import { ClientOrigins, withClientCors } from "./oidc/cors.js";
import { oauthFormLane } from "./oidc/oauth-form-lane.js";
import { oauthEndpointRealm, oauthFailureReply } from "./oidc/oauth-endpoint-errors.js";
import { IMPORT_BODY_LIMIT, IMPORT_PATH, addUserSecurityRoutes } from "./admin/user-security-routes.js";
import { addTokenRoutes, oauthFormEndpoints, refreshTokenLogout, userinfoEndpoint } from "./oidc/token-routes.js";
import { addSessionRoutes } from "./admin/session-routes.js";
import { addAuthorizeRoutes } from "./oidc/authorize-routes.js";
import { addDeviceRoutes } from "./oidc/device-routes.js";
import { addRegistrationRoutes } from "./oidc/registration-routes.js";
import { addResetCredentialsRoutes } from "./oidc/reset-credentials-routes.js";
import { addBrowserLogoutRoutes } from "./oidc/browser-logout.js";
import { addSamlSsoRoutes } from "./saml/sso-routes.js";
import { addIdentityProviderRoutes } from "./admin/identity-provider-routes.js";
import { addIdentityProviderMapperRoutes } from "./admin/identity-provider-mapper-routes.js";
import { addBrokerRoutes } from "./broker/broker-routes.js";
import { addConsoleRoutes } from "./console/console-routes.js";
import { addAccountRoutes } from "./account/account-routes.js";
import { addPasskeyAssetRoutes } from "./pages/passkey-assets.js";
import { addPasskeyRoutes } from "./admin/passkey-routes.js";
import { addOpenApiRoutes } from "./openapi/openapi-routes.js";
import { addClientRegistrationRoutes } from "./oidc/client-registration-routes.js";
import { addClientRegistrationAdminRoutes } from "./admin/client-registration-admin-routes.js";

export interface GatewayDeps {
  rpc: RpcClients;
  logger: Logger;
  /** Registries whose metrics /metrics serves (the gateway's, plus the services' in embedded mode). */
  registries: Registry[];
  httpMetrics: HttpMetrics;
  apiKeySha256: string;
  adminTokens: AdminTokens;
  /** express "trust proxy" (TESSERA_TRUST_PROXY). */
  trustProxy?: boolean | number | string;
  /** `{base_url}` (TESSERA_PUBLIC_URL): issuers are built from it, never from the request. */
  publicUrl: string;
  /** The bus whose directory events drop the gateway's caches at once (cache-watchers.ts); without it they age out. */
  bus?: Bus;
}

/**
 * The HTTP gateway (DESIGN 1): public paths -> internal RPCs, one error rendering per family. The
 * form-posted OAuth endpoints are served by the lean lane ahead of express when the request is
 * plain, and by the route table otherwise; both run the same handlers and throttle.
 */
export function createGateway(deps: GatewayDeps): RequestListener & { routes(): RouteInfo[] } {
  const app = express();
  app.disable("x-powered-by");
  // Routing is exact (DESIGN 7): `/ADMIN/realms`, `/admin/realms/` or `/admin//realms` is no
  // route. Set before the first route or middleware: express builds its router on first use.
  app.set("case sensitive routing", true);
  app.set("strict routing", true);
  app.set("trust proxy", deps.trustProxy ?? false);
  app.set("etag", false);
  app.use(requestContext(deps.logger));
  app.use(deps.httpMetrics.middleware());
  app.use((_req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    next();
  });

  // The hosted pages' realm titles and themes, cached; the realm routes drop a realm's on change.
  const pages = { rpc: deps.rpc, publicUrl: deps.publicUrl, looks: new RealmLooks(deps.rpc), login: new LoginOptions(deps.rpc) };
  const throttleCore = new Throttle(deps.rpc);
  // A browser path over the limit gets the realm's error page, as the device page's own bound does.
  app.use(throttle(throttleCore, (res, realm, wait) => sendErrorPage(res, pages, realm, 429, "too_many_requests", throttledPageMessage(wait))));
  // A realm's login options have no events of their own: this replica's admin writes drop them.
  app.use(dropOnAdminWrite((realm) => pages.login.forget(realm)));
  // CORS by the requesting client's web origins (cors.ts); the client routes drop a changed client's.
  const origins = new ClientOrigins(deps.rpc);
  const formEndpoints = oauthFormEndpoints(deps.rpc, deps.publicUrl).map((e) => withClientCors(e, origins));
  const logoutEndpoint = withClientCors(refreshTokenLogout(deps.rpc, deps.publicUrl), origins);

  if (deps.bus) {
    // Changes through other replicas or the gRPC API; should the watch fail, the caches' age bounds them.
    watchGatewayCaches(deps.bus, { origins, looks: pages.looks, login: pages.login, throttle: throttleCore })
      .catch((err: unknown) => deps.logger.error({ err }, "gateway caches do not follow directory events; they age out instead"));
  }

  const table = new RouteTable();
  addLandingRoutes(table, deps.publicUrl);
  addHealthRoutes(table, deps.rpc, deps.registries);
  const adminSessions = new AdminSessionCheck(deps.rpc);
  addAdminAuthRoutes(table, deps.rpc, deps.adminTokens, adminSessions);
  addAdminAccountRoutes(table, deps.rpc, adminSessions);
  addOpenApiRoutes(table);
  addRealmTransferRoutes(table, deps.rpc, pages.looks, origins);
  addRealmRoutes(table, deps.rpc, pages.looks, origins);
  addLocalizationRoutes(table, deps.rpc, pages.looks);
  addEventRoutes(table, deps.rpc);
  addWebhookRoutes(table, deps.rpc);
  addAuthenticationFlowRoutes(table, deps.rpc);
  addKeyRoutes(table, deps.rpc);
  const documents = documentEndpoints(deps.rpc, deps.publicUrl);
  addDiscoveryRoutes(table, documents);
  addUserSecurityRoutes(table, deps.rpc);
  addPasskeyRoutes(table, deps.rpc);
  addTokenRoutes(table, deps.rpc, deps.publicUrl, formEndpoints);
  addSessionRoutes(table, deps.rpc);
  addUserRoutes(table, deps.rpc);
  addUserActionRoutes(table, deps.rpc, deps.publicUrl);
  addGroupRoutes(table, deps.rpc);
  addOrganizationRoutes(table, deps.rpc, deps.publicUrl);
  addSamlSpRoutes(table, deps.rpc);
  addUserFederationRoutes(table, deps.rpc);
  addSamlMetadataRoutes(table, deps.rpc);
  addClientRoutes(table, deps.rpc, origins);
  addClientRegistrationAdminRoutes(table, deps.rpc);
  addClientRegistrationRoutes(table, deps.rpc, deps.publicUrl, origins);
  addRoleRoutes(table, deps.rpc);
  addRoleMappingRoutes(table, deps.rpc);
  addClientScopeRoutes(table, deps.rpc);
  addScopeEvaluationRoutes(table, deps.rpc, deps.publicUrl);
  addAuthorizeRoutes(table, pages);
  addDeviceRoutes(table, pages);
  addRegistrationRoutes(table, pages);
  addResetCredentialsRoutes(table, pages);
  addBrowserLogoutRoutes(table, pages, (req) => logoutEndpoint.handle(req));
  addSamlSsoRoutes(table, pages);
  addIdentityProviderRoutes(table, deps.rpc);
  addIdentityProviderMapperRoutes(table, deps.rpc);
  addBrokerRoutes(table, pages);
  addConsoleRoutes(table, pages.looks);
  addAccountRoutes(table, deps.rpc, deps.publicUrl);
  addPasskeyAssetRoutes(table);
  addInvitationRoutes(table, pages);
  // The guard runs from each route's declaration (RouteTable), then the body parser: an
  // unauthenticated caller cannot make the gateway parse a large Admin API body. User import
  // alone takes larger bodies (up to 10,000 users).
  // A body that is not JSON is refused with 415 before parsing (requireJsonBody).
  const json = jsonOnly(express.json({ limit: "1mb" }));
  const importJson = jsonOnly(express.json({ limit: IMPORT_BODY_LIMIT }));
  const realmImportJson = jsonOnly(express.json({ limit: REALM_IMPORT_BODY_LIMIT }));
  table.mount(app, {
    adminGuard: adminGuard(deps.apiKeySha256, deps.adminTokens, adminSessions),
    adminAccess: requireAccess,
    jsonParser: (path) => organizationBodyParser(path) ?? localizationBodyParser(path) ?? (path === IMPORT_PATH ? importJson : path === REALM_IMPORT_PATH ? realmImportJson : json),
  });

  app.use((req: Request, res: Response) => {
    res.status(404).json({ error: "not_found", message: `no route for ${req.method} ${req.path}` });
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const logger = currentContext()?.logger ?? deps.logger;
    // The hosted pages answer with an HTML error page (DESIGN 4), which logs a 5xx itself.
    const pageRealm = pageRequestRealm(req.method, req.path);
    if (pageRealm !== undefined && !res.headersSent) {
      sendRequestErrorPage(res, pages, pageRealm, err).catch((e: unknown) => {
        logger.error({ err: e, path: req.path }, "error page failed");
        if (!res.headersSent) res.status(500).end();
      });
      return;
    }
    // The OAuth endpoints answer every failure in their own format (RFC 6749 section 5.2), the rest in the gateway's.
    const realm = oauthEndpointRealm(req.method, req.path);
    const reply = realm !== undefined ? oauthFailureReply(err, realm) : failureReply(err);
    if (reply.status >= 500) logger.error({ err, path: req.path }, "request failed");
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
    res.status(reply.status).json(reply.body);
  });

  // express compiles "trust proxy" into this function; the lean lane asks proxy-addr the same
  // question. Without X-Forwarded-For its answer is the socket's address whatever the trust, so
  // the header is not parsed then.
  const trust = app.get("trust proxy fn") as Parameters<typeof proxyAddr>[1];
  const clientIp = (req: IncomingMessage) => (req.headers["x-forwarded-for"] === undefined ? req.socket.remoteAddress : proxyAddr(req, trust));
  const laneGets = [...documents.map(documentGet), userinfoGet(userinfoEndpoint(deps.rpc, deps.publicUrl), clientIp)];
  const listener = documentLane({ endpoints: laneGets, metrics: deps.httpMetrics, logger: deps.logger }, oauthFormLane({
    endpoints: [...formEndpoints, logoutEndpoint], throttle: throttleCore, metrics: deps.httpMetrics, logger: deps.logger,
    clientIp,
  }, app));
  // Every route with its authentication, for the route walk test (each is visited without credentials).
  return Object.assign(listener, { routes: (): RouteInfo[] => table.routes() });
}

/** The gateway's error body (DESIGN 4): a body or path that could not be read keeps its own 4xx status. */
function failureReply(err: unknown): Reply {
  const e = unreadableRequestError(err) ?? describeError(err);
  return {
    status: e.status, body: { error: e.reason, message: e.message, ...("field" in e && e.field ? { field: e.field } : {}) },
    ...("retryAfter" in e && e.retryAfter !== undefined ? { headers: { "Retry-After": String(e.retryAfter) } } : {}),
  };
}
