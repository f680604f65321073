import type { Request, Response } from "express";
import type { RouteHandler, RouteTable } from "../http/route-table.js";
import type { PageDeps } from "../pages/flow-pages.js";
import { handleLogout as handle } from "../saml/front-channel-logout.js";
import { needsSameSiteRepost, sendSameSiteRepost } from "../pages/same-site-repost.js";
import { browserParsers, flowContext, one, paramsOf, realmOf } from "./flow-context.js";
import { pageRealmGuard } from "../pages/page-realm-guard.js";

const LOGOUT_PATH = "/realms/:realmName/protocol/openid-connect/logout";
const logoutAction = (realm: string) => `/realms/${realm}/protocol/openid-connect/logout`;

/**
 * RP-initiated logout (OIDC RP-Initiated Logout 1.0 section 2): id_token_hint,
 * post_logout_redirect_uri (registered redirect URIs only), state, client_id, by GET or form POST.
 */
export function browserLogoutGet(deps: PageDeps): RouteHandler {
  return (req, res) => handle(req, res, deps, () => beginLogout(req, res, deps, paramsOf(req.query)), logoutAction(realmOf(req)));
}

/**
 * The browser's POST to the logout endpoint: a confirmation form (has `tx`) or a logout request
 * sent as a form. Used when the body has NO `refresh_token` (that is the token-endpoint logout,
 * spec 4.16); the route table joins them in addBrowserLogoutRoutes.
 */
export function browserLogoutPost(deps: PageDeps): RouteHandler {
  return (req, res) => {
    if (!one(req.body, "tx") && needsSameSiteRepost(req)) {
      return sendSameSiteRepost(req, res, deps, realmOf(req), `${deps.publicUrl.replace(/\/+$/, "")}${logoutAction(encodeURIComponent(realmOf(req)))}`);
    }
    return postLogout(req, res, deps);
  };
}

function postLogout(req: Request, res: Response, deps: PageDeps): Promise<void> {
  return handle(req, res, deps, async () => {
    if (one(req.body, "tx")) {
      return (await deps.rpc.authorizationFlow.confirmLogout({
        context: flowContext(req, res, deps.publicUrl), confirm: one(req.body, "confirm") === "yes",
      })).result;
    }
    return beginLogout(req, res, deps, paramsOf(req.body));
  }, logoutAction(realmOf(req)));
}

/** True when a POST to /logout is the refresh-token logout (spec 4.16), not a browser logout. */
export function isRefreshTokenLogout(req: Request): boolean {
  // A request that authenticates a client (Basic header or client_secret) is the API logout even
  // without a refresh_token, so it gets the API's 400 rather than a confirmation page.
  return one(req.body, "refresh_token") !== "" || one(req.body, "client_secret") !== ""
    || /^Basic\s/i.test(req.get("authorization") ?? "");
}

/**
 * Registers GET and POST /logout. `refreshTokenLogout` (spec 4.16, 204) takes POSTs carrying
 * `refresh_token` or client credentials; every other POST is the browser's (RP-initiated logout).
 */
export function addBrowserLogoutRoutes(table: RouteTable, deps: PageDeps, refreshTokenLogout: RouteHandler): void {
  const browserPost = browserLogoutPost(deps);
  table
    .add("GET", LOGOUT_PATH, "public", browserLogoutGet(deps), ...browserParsers, pageRealmGuard(deps))
    // `client`: the refresh-token logout authenticates the client (throttled as every client
    // password endpoint is); the browser's logout POST on the same path takes no credential.
    .add("POST", LOGOUT_PATH, "client", async (req, res) => {
      // Spec 4.16: a body with refresh_token is the API logout (204); anything else is the browser's.
      if (isRefreshTokenLogout(req)) return refreshTokenLogout(req, res);
      return browserPost(req, res);
    }, ...browserParsers, pageRealmGuard(deps, isRefreshTokenLogout));
}

async function beginLogout(req: Request, res: Response, deps: PageDeps, p: Record<string, string>) {
  return (await deps.rpc.authorizationFlow.beginLogout({
    context: flowContext(req, res, deps.publicUrl), idTokenHint: p.id_token_hint ?? "",
    postLogoutRedirectUri: p.post_logout_redirect_uri ?? "", state: p.state ?? "", clientId: p.client_id ?? "",
  })).result;
}
