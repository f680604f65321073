import type { Request, Response } from "express";
import { create } from "@bufbuild/protobuf";
import type { BrokerOutcome } from "../../../gen/iam/broker/v1/broker_login_pb.js";
import { FlowContextSchema, FlowStep } from "../../../gen/iam/token/v1/authorization_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { browserParsers, flowContext, one, paramsOf, realmOf } from "../oidc/flow-context.js";
import { BROWSER_COOKIE, readCookie, SSO_COOKIE } from "../oidc/browser-cookies.js";
import { sendErrorPage, sendFailure, sendFlowResult, type PageDeps } from "../pages/flow-pages.js";
import { pageRealmGuard } from "../pages/page-realm-guard.js";
import { renderPage } from "../pages/page-renderer.js";
import { sendSamlFlowResult } from "../saml/sso-routes.js";

const authPath = (realm: string) => `/realms/${realm}/protocol/openid-connect/auth`;

/**
 * The identity broker's public paths (spec 4.19): the login start (from the login page's button,
 * inside an ongoing authorization request or SAML login, or directly with the authorization request's query),
 * the upstream's callback, the confirm-link page's form, and the account link a signed-in user's
 * client starts (Keycloak's client-initiated account linking). The broker service says who the
 * user is; the token service's login transaction does the rest (TOTP, required actions, consent,
 * SSO session, code).
 */
export function addBrokerRoutes(table: RouteTable, deps: PageDeps): void {
  const parsers = [...browserParsers, pageRealmGuard(deps)];
  const base = "/realms/:realmName/broker/:alias";
  table
    .add("GET", `${base}/login`, "public", (req, res) => guarded(req, res, deps, () => start(req, res, deps)), ...parsers)
    .add("GET", `${base}/callback`, "public", (req, res) => guarded(req, res, deps, async () => {
      const realm = realmOf(req);
      const r = await deps.rpc.brokerLogin.handleCallback({
        realm, alias: aliasOf(req), state: one(req.query, "state"), code: one(req.query, "code"), error: one(req.query, "error"),
        browserId: readCookie(req, BROWSER_COOKIE), ipAddress: req.ip ?? "", iss: one(req.query, "iss"), ssoCookie: readCookie(req, SSO_COOKIE),
      });
      await sendOutcome(req, res, deps, r.outcome);
    }), ...parsers)
    // Keycloak's client-initiated account linking (docs/identity-brokering.md): the same path as
    // the confirm-link page's form, by GET, as Keycloak's `/broker/{alias}/link`.
    .add("GET", `${base}/link`, "public", (req, res) => guarded(req, res, deps, () => startAccountLink(req, res, deps)), ...parsers)
    .add("POST", `${base}/link`, "public", (req, res) => guarded(req, res, deps, async () => {
      const r = await deps.rpc.brokerLogin.confirmLink({
        realm: realmOf(req), alias: aliasOf(req), pending: one(req.body, "pending"), password: one(req.body, "password"),
        browserId: readCookie(req, BROWSER_COOKIE), ipAddress: req.ip ?? "",
      });
      await sendOutcome(req, res, deps, r.outcome);
    }), ...parsers);
}

function aliasOf(req: Request): string {
  return String(req.params.alias);
}

async function start(req: Request, res: Response, deps: PageDeps): Promise<void> {
  const realm = realmOf(req);
  // The browser-binding cookie, set now if this browser has none; the state is bound to it.
  const context = flowContext(req, res, deps.publicUrl);
  const browserId = context.browserId;
  let transactionId = one(req.query, "tx");
  let csrfToken = one(req.query, "csrf");
  if (!transactionId) {
    // Reached directly (spec 4.19 query): the authorization request is validated and its login
    // transaction begun as the authorization endpoint would; a live SSO session, an invalid
    // request or a refused client is answered as that endpoint answers it.
    const params = paramsOf(req.query);
    if (!params.client_id) return sendErrorPage(res, deps, realm, 400, "invalid_request", "client_id is required.");
    params.response_type ??= "code";
    const begun = (await deps.rpc.authorizationFlow.beginAuthorization({ context, params })).result;
    const o = begun?.outcome;
    if (o?.case !== "page" || o.value.step !== FlowStep.LOGIN) return sendFlowResult(res, deps, realm, begun, authPath(realm));
    transactionId = o.value.transactionId;
    csrfToken = o.value.csrfToken;
  }
  // The login hint of the authorization request (reached directly) or the one the login page
  // carried here (identity-first's typed email, a prefilled username); the broker passes it
  // upstream only when the provider's loginHint is on.
  const started = await deps.rpc.brokerLogin.startLogin({
    realm, alias: aliasOf(req), transactionId, csrfToken, browserId, ipAddress: req.ip ?? "", loginHint: one(req.query, "login_hint").slice(0, 255),
  });
  if (started.outcome.case === "redirect") return redirect(res, started.outcome.value);
  const e = started.outcome.case === "error" ? started.outcome.value : undefined;
  return sendErrorPage(res, deps, realm, e?.status || 500, e?.error || "server_error", e?.description || "Something went wrong.");
}

/**
 * The account link's start: the browser-binding cookie is set if this browser has none (the
 * state is bound to it); the SSO cookie says whose session it is. Answers a redirect (upstream,
 * or back to the client with `link_error`) or an error page.
 */
async function startAccountLink(req: Request, res: Response, deps: PageDeps): Promise<void> {
  const realm = realmOf(req);
  const context = flowContext(req, res, deps.publicUrl);
  const r = await deps.rpc.brokerLogin.startAccountLink({
    realm, alias: aliasOf(req), clientId: one(req.query, "client_id"), redirectUri: one(req.query, "redirect_uri"),
    nonce: one(req.query, "nonce"), hash: one(req.query, "hash"), ssoCookie: readCookie(req, SSO_COOKIE),
    browserId: context.browserId, ipAddress: req.ip ?? "",
  });
  if (r.outcome.case === "redirect") return redirect(res, r.outcome.value);
  const e = r.outcome.case === "error" ? r.outcome.value : undefined;
  return sendErrorPage(res, deps, realm, e?.status || 500, e?.error || "server_error", e?.description || "Something went wrong.");
}

function redirect(res: Response, location: string): void {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.redirect(302, location);
}

/** Continues the login transaction with the user, asks for the local password, or shows the error. */
async function sendOutcome(req: Request, res: Response, deps: PageDeps, outcome: BrokerOutcome | undefined): Promise<void> {
  const realm = realmOf(req);
  const o = outcome?.outcome;
  if (o?.case === "authenticated") {
    const context = create(FlowContextSchema, {
      realm, transactionId: o.value.transactionId, csrfToken: o.value.csrfToken, browserId: readCookie(req, BROWSER_COOKIE),
      ssoCookie: readCookie(req, SSO_COOKIE), ipAddress: req.ip ?? "", baseUrl: deps.publicUrl,
    });
    const r = await deps.rpc.authorizationFlow.completeBrokeredLogin({ context, userId: o.value.userId, identityProvider: o.value.alias });
    // A SAML login's pages post to the SAML endpoint, and it ends with the Response to the SP's ACS.
    if (r.samlTransaction) return sendSamlFlowResult(res, deps, realm, r.result, "");
    return sendFlowResult(res, deps, realm, r.result, authPath(realm));
  }
  if (o?.case === "confirmLink") {
    const look = await deps.looks.get(realm);
    return renderPage(res, 200, "broker-confirm-link.njk", {
      ...look, pageTitle: "Link your account", realmName: realm,
      action: `/realms/${encodeURIComponent(realm)}/broker/${encodeURIComponent(aliasOf(req))}/link`,
      pending: o.value.pending, username: o.value.username, providerName: o.value.providerDisplayName, message: o.value.message,
    });
  }
  if (o?.case === "error") return sendErrorPage(res, deps, realm, o.value.status || 400, o.value.error, o.value.description);
  if (o?.case === "redirect") return redirect(res, o.value);
  return sendErrorPage(res, deps, realm, 500, "server_error", "Something went wrong.");
}

async function guarded(req: Request, res: Response, deps: PageDeps, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (e) {
    await sendFailure(res, deps, realmOf(req), e);
  }
}
