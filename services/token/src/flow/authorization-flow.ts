import type { ClientInfo } from "../domain/client-directory.js";
import type { SsoSessionRecord } from "../domain/sso-session.js";
import { SSO_REUSED } from "../domain/acr.js";
import { checkAuthorizationRequest } from "./authorization-request.js";
import { issuerOf } from "../domain/discovery.js";
import { readPushedRequest } from "./pushed-request.js";
import { readRequestObject } from "./request-object.js";
import { readIdTokenHint } from "./id-token-hint.js";
import type { FlowRealm } from "./flow-realms.js";
import { errorReply, realmNotFound, pageOf, type FlowReply } from "./flow-reply.js";
import type { FlowKit, StepContext } from "./flow-kit.js";
import type { LoginTransactionRecord } from "./login-transaction.js";
import { completeSamlLogin } from "./saml-login.js";
import { rememberMeCookieMaxAge } from "../domain/session-max.js";

/**
 * The authorization endpoint (OIDC Core 1.0 section 3.1.2; RFC 6749 section 4.1): validates the
 * request, reuses the SSO session when allowed, otherwise starts a login transaction; and, once
 * the user is authenticated, asks for consent or issues the code.
 */
export class AuthorizationFlow {
  constructor(private readonly kit: FlowKit) {}

  async begin(ctx: StepContext, params: Record<string, string>): Promise<FlowReply> {
    const d = this.kit.d;
    const realm = await d.realms.get(ctx.realm);
    if (!realm) return realmNotFound();
    if (!ctx.browserId) return errorReply("invalid_request", "Cookies are required to log in.");
    const client = params.client_id ? await d.clients.get(realm.name, params.client_id) : null;
    // A PAR request_uri (RFC 9126 section 4) or a request object by value (RFC 9101).
    const pushed = await readPushedRequest(params, d.pushed, realm);
    const object = pushed.pushed || pushed.error ? pushed : await readRequestObject(params, client, issuerOf(ctx.baseUrl, realm.name), this.kit.now());
    params = object.params;
    const check = checkAuthorizationRequest(params, client);
    if (check.ok || !check.page) {
      // A refused request object is answered where (and how) it asked, once its redirect_uri is trusted.
      const to = check.ok ? check.request : check;
      if (object.error) return this.kit.errorResponse(realm, to, ctx.baseUrl, object.error.error, object.error.description);
    }
    if (!check.ok) {
      // No trustworthy redirect_uri: a known client's refused request_uri or object is named on the page.
      if (check.page && object.error && client?.enabled) return errorReply(object.error.error, object.error.description, 400);
      if (check.page) return errorReply(check.error, check.description, 400);
      return this.kit.errorResponse(realm, check, ctx.baseUrl, check.error, check.description);
    }
    const { request: req, client: current } = check;
    const fail = (error: string, description: string): FlowReply =>
      this.kit.errorResponse(realm, req, ctx.baseUrl, error, description);
    // RFC 9126 section 6: the realm or the client requires every request to be pushed first.
    if (!pushed.pushed && (realm.requirePushedAuthorizationRequests || current.requirePushedAuthorizationRequests)) {
      return fail("invalid_request", "Pushed authorization requests are required: push the request and send its request_uri.");
    }

    let hintSub: string | undefined;
    if (params.id_token_hint) {
      const hint = await readIdTokenHint(d.keys, realm, ctx.baseUrl, params.id_token_hint);
      if (!hint) return fail("invalid_request", "The id_token_hint is not valid.");
      hintSub = hint.sub;
    }

    const { session, pendingActions } = await this.kit.liveSession(realm, ctx.ssoCookie);
    const now = this.kit.now();
    const tooOld = !!session && req.maxAge >= 0 && now - session.authTime > req.maxAge * 1000;
    const otherUser = !!session && hintSub !== undefined && hintSub !== session.userId;
    // kc_action: the user authenticates again before the action (Keycloak's AIA re-authenticates too).
    const reusable = !!session && !req.prompt.includes("login") && !tooOld && !otherUser && !req.kcAction;
    const fields = {
      kind: "authorize" as const, clientId: req.clientId, clientName: current.name || req.clientId, scope: req.scope, request: req,
    };

    // prompt=none: no page may be shown (OIDC Core 1.0 section 3.1.2.6).
    if (req.prompt.includes("none")) {
      if (!session || !reusable) return fail("login_required", "The user is not logged in.");
      if (pendingActions) return fail("interaction_required", "The user must complete an action first.");
      const draft = { ...fields, step: "consent" } as LoginTransactionRecord;
      if (await this.kit.consentDue(realm, draft, current, session.userId)) {
        return fail("consent_required", "The user has not consented to the requested scopes.");
      }
    }

    if (session && reusable && !pendingActions) {
      const tx = await this.kit.newTransaction(realm, ctx, {
        ...fields, step: "consent", userId: session.userId, username: session.username, amr: session.amr,
        authTime: session.authTime, ssoSessionId: session._id, acr: SSO_REUSED,
      });
      // The SSO cookie authenticated this request: a LOGIN like any other (Keycloak records one too).
      await d.events.record(realm, ctx, tx, { type: "LOGIN", sessionId: session._id });
      return this.complete(realm, tx, session, ctx, undefined, current);
    }
    const tx = await this.kit.newTransaction(realm, ctx, {
      ...fields, step: "login", ...(session ? { priorSessionId: session._id } : {}),
    });
    return pageOf(tx, "login", { username: req.loginHint, ...(req.idpHint ? { idpHint: req.idpHint } : {}) });
  }

  /**
   * The user is authenticated (session established): consent when needed, else the code. `cookie`
   * is a new SSO cookie value to set with this answer: kept by the browser for the session's SSO
   * Session Max when it was opened with "Remember me", with the username the login page then
   * offers (Keycloak's login and remember-me cookies). `client` is the client as it is now
   * (FlowKit.currentClient, read at the end of authentication; the SAML service checks its own
   * SP when it answers), so the consent decision and the code follow its current configuration.
   */
  async complete(realm: FlowRealm, tx: LoginTransactionRecord, session: SsoSessionRecord, ctx: StepContext, cookie: string | undefined, client: ClientInfo | null): Promise<FlowReply> {
    const remembered = session.rememberMe ? { ssoCookieMaxAge: rememberMeCookieMaxAge(realm), rememberMeUsername: session.username } : {};
    const withCookie = (r: FlowReply): FlowReply => (cookie ? { ...r, setSsoCookie: cookie, ...remembered } : r);
    if (tx.kind === "saml") return withCookie(await completeSamlLogin(this.kit, realm, tx, session));
    if (!client) throw new Error(`${tx.kind} transaction completed without its client`);
    const due = await this.kit.consentDue(realm, tx, client, session.userId);
    if (due) {
      // The consent page's POST finds the transaction at "consent", with the session it approves
      // for and the scopes the page lists: approving records what the user saw, not what the
      // client's scopes may have become meanwhile.
      const moved = await this.kit.d.txs.advance(tx, { step: "consent", ssoSessionId: session._id, consentScopes: due.map((s) => s.name) });
      if (!moved) return withCookie(errorReply("invalid_transaction", "This login was already completed.", 400));
      return withCookie(pageOf(moved, "consent", { scopes: due.map((s) => s.name), consentScopes: due, username: session.username }));
    }
    // No page to show: finish ends the transaction from the step it is stored at, which is what
    // keeps a replayed or concurrent POST from completing it twice.
    return withCookie(await this.finish(realm, tx, session, ctx));
  }

  /** Ends the transaction with the code redirect; a replayed step finds it gone. */
  async finish(realm: FlowRealm, tx: LoginTransactionRecord, session: SsoSessionRecord, ctx: StepContext): Promise<FlowReply> {
    if (!(await this.kit.d.txs.finish(tx))) return errorReply("invalid_transaction", "This login was already completed.", 400);
    return this.kit.issueCode(realm, tx, session, ctx.baseUrl);
  }
}
