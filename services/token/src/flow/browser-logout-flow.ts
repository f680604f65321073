import type { SessionTerminator } from "../domain/session-terminator.js";
import type { SsoSessionRecord } from "../domain/sso-session.js";
import type { RefreshFamilyRepository } from "../store/refresh-family-repository.js";
import type { FlowRealm } from "./flow-realms.js";
import { readIdTokenHint, type IdTokenHint } from "./id-token-hint.js";
import { formActionSourceOf } from "../../../kit/src/form-action-source.js";
import { errorReply, realmNotFound, pageOf, staleTransaction, withQuery, type FlowReply } from "./flow-reply.js";
import type { FlowKit, StepContext } from "./flow-kit.js";

export interface LogoutParams {
  idTokenHint: string;
  postLogoutRedirectUri: string;
  state: string;
  clientId: string;
}

/**
 * RP-initiated logout (OIDC RP-Initiated Logout 1.0 sections 2-3). With a valid id_token_hint for
 * the browser's session, or naming a session by `sid` when no cookie came (an SSO session, or the
 * OAuth session of a grant without one), the session ends at once; otherwise the user confirms
 * (CSRF-protected).
 * post_logout_redirect_uri must equal one of the client's registered redirect URIs (Keycloak-style);
 * an unregistered one is an error page, never a redirect.
 */
export class BrowserLogoutFlow {
  constructor(
    private readonly kit: FlowKit,
    /** The token endpoint's refresh families and their terminator: a hint's `sid` may name a family. */
    private readonly families: RefreshFamilyRepository,
    private readonly terminator: SessionTerminator,
  ) {}

  async begin(ctx: StepContext, p: LogoutParams): Promise<FlowReply> {
    const d = this.kit.d;
    const realm = await d.realms.get(ctx.realm);
    if (!realm) return realmNotFound();
    // The gateway marks repeated and over-long parameters with a NUL (flow-context.ts); such a
    // state must not be echoed, nor such a hint reported as forged.
    if (Object.values(p).some((v) => v.includes("\u0000"))) return errorReply("invalid_request", "A parameter was repeated or too long.");

    let hint: IdTokenHint | undefined;
    if (p.idTokenHint) {
      hint = await readIdTokenHint(d.keys, realm, ctx.baseUrl, p.idTokenHint) ?? undefined;
      if (!hint) return errorReply("invalid_request", "The id_token_hint is not valid.");
    }
    const clientId = p.clientId || hint?.clientId || "";
    if (p.clientId && hint && hint.clientId !== p.clientId) return errorReply("invalid_request", "client_id does not match the id_token_hint.");
    // A client_id the realm does not know is refused, redirect or not (Keycloak's "Invalid parameter: client_id").
    if (p.clientId && !(await d.clients.get(realm.name, p.clientId))) return errorReply("invalid_request", "Invalid parameter: client_id");
    let redirect = "";
    if (p.postLogoutRedirectUri) {
      if (!clientId) return errorReply("invalid_request", "post_logout_redirect_uri requires client_id or id_token_hint.");
      const client = await d.clients.get(realm.name, clientId);
      if (!client || !client.enabled || !client.redirectUris.includes(p.postLogoutRedirectUri)) {
        return errorReply("invalid_request", "The post_logout_redirect_uri is not registered for this application.");
      }
      redirect = p.postLogoutRedirectUri;
    }

    const session = await this.kit.resolveSession(realm, ctx.ssoCookie);
    if (!session) {
      // No session cookie came: a cross-site POST (SameSite=Lax withholds the cookie) or another
      // browser. The hint's `sid` still names the session the RP wants ended, and an RP holding
      // the user's ID token may end it (RP-Initiated Logout 1.0 section 2; Keycloak does the same):
      // answering "logged out" while the session and its refresh tokens lived on would be false.
      if (hint?.sid) await this.endNamed(realm, ctx, clientId, hint);
      return this.done(redirect, p.state, true);
    }
    if (hint && hint.sub === session.userId && (!hint.sid || hint.sid === session._id)) {
      await this.end(realm, ctx, clientId, session);
      return this.done(redirect, p.state, true);
    }
    if (!ctx.browserId) return errorReply("invalid_request", "Cookies are required to log out.");
    const tx = await this.kit.newTransaction(realm, ctx, {
      kind: "logout", step: "logout_confirm", clientId, clientName: clientId, scope: "",
      logoutSessionId: session._id, postLogoutRedirectUri: redirect, logoutState: p.state,
    });
    return pageOf(tx, "logout_confirm", { username: session.username });
  }

  async confirm(ctx: StepContext, confirmed: boolean): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["logout_confirm"]);
    if ("outcome" in loaded) return loaded;
    const { realm, tx } = loaded;
    if (!(await this.kit.d.txs.finish(tx))) return staleTransaction();
    if (!confirmed) return { outcome: { kind: "page", page: { step: "logged_out", message: "You are still logged in." } } };
    await this.endIfSame(realm, tx.logoutSessionId ?? "", tx.clientId, ctx);
    return this.done(tx.postLogoutRedirectUri ?? "", tx.logoutState ?? "", true);
  }

  /**
   * Ends the session a hint's `sid` names, if it is the hint's user's. An SSO session first; when
   * none has that id, the sid is a refresh family's own id: a grant without a browser SSO session
   * (the password grant, for one) starts a family whose tokens carry `sid` = the family id
   * (refresh-families.ts), and Keycloak's logout ends that session as it ends the user session its
   * password grant created. It ends as an admin's revocation of it does (revokeFamily: its refresh
   * tokens and, by `fid`, its access tokens stop working; its client is told over the back channel,
   * OIDC Back-Channel Logout 1.0 section 2.5). An offline session is not a login session and
   * survives logout (OIDC Core 1.0 section 11; Keycloak keeps it too). A family of an SSO session
   * gives its tokens that session's sid, never its own id, so a hint naming one by its id is not
   * one of its tokens: nothing ends.
   */
  private async endNamed(realm: FlowRealm, ctx: StepContext, clientId: string, hint: IdTokenHint): Promise<void> {
    const named = await this.kit.d.sessions.repo.findById(realm.id, hint.sid);
    if (named) {
      if (named.userId === hint.sub) await this.end(realm, ctx, clientId, named);
      return;
    }
    const family = await this.families.get(realm.id, hint.sid);
    if (!family || family.userId !== hint.sub || family.ssoSessionId !== "" || family.offline) return;
    // Its LOGOUT goes with the revocation through the outbox, only if this request revokes it.
    await this.terminator.revokeFamily(realm, family._id, true, (stamp) => this.kit.d.events.message(realm, ctx, null, {
      type: "LOGOUT", clientId, userId: family.userId, sessionId: family._id, details: { username: family.username },
    }, stamp));
  }

  /** Its LOGOUT goes with the session's end through the outbox, only if this request ends it. */
  private async end(realm: FlowRealm, ctx: StepContext, clientId: string, session: SsoSessionRecord): Promise<void> {
    await this.kit.d.sessions.end(realm.id, session._id, "logout", {
      known: session,
      also: (stamp) => this.kit.d.events.message(realm, ctx, null, {
        type: "LOGOUT", clientId, userId: session.userId, sessionId: session._id, details: { username: session.username },
      }, stamp),
    });
  }

  /** Ends the session the confirmation was for, if the browser still holds it; the event names the request's client. */
  private async endIfSame(realm: FlowRealm, sessionId: string, clientId: string, ctx: StepContext): Promise<void> {
    const current = await this.kit.resolveSession(realm, ctx.ssoCookie);
    if (current && current._id === sessionId) await this.end(realm, ctx, clientId, current);
  }

  private done(redirect: string, state: string, clear: boolean): FlowReply {
    const base = clear ? { clearSsoCookie: true } : {};
    if (redirect) return { ...base, outcome: { kind: "redirect", uri: withQuery(redirect, { state }) }, formActionOrigin: formActionSourceOf(redirect) };
    return { ...base, outcome: { kind: "page", page: { step: "logged_out", message: "You are logged out." } } };
  }
}
