import type { SsoSessionRecord } from "../domain/sso-session.js";
import type { FlowRealm } from "./flow-realms.js";
import { errorReply, realmNotFound, pageOf, staleTransaction, type FlowReply } from "./flow-reply.js";
import type { FlowKit, StepContext } from "./flow-kit.js";
import type { LoginTransactionRecord } from "./login-transaction.js";
import { cappedEnd, forLogin } from "../domain/session-max.js";

export interface SamlLoginInput {
  /** The saml service's parked AuthnRequest (BeginSso pending_id). */
  pendingId: string;
  spEntityId: string;
  spName: string;
  /** SAML 2.0 core 3.4.1 ForceAuthn: never answer from the existing session. */
  forceAuthn: boolean;
  /** SAML 2.0 core 3.4.1 IsPassive: never show a page. */
  isPassive: boolean;
}

/** Who asked a SAML single logout: the LOGOUT event's client and address. */
export interface SamlLogoutBy {
  spEntityId: string;
  ipAddress: string;
}

/** The flow context of a logout that has no transaction: only the realm and the browser's address count. */
function samlContext(realm: FlowRealm, by: SamlLogoutBy): StepContext {
  return { realm: realm.name, transactionId: "", csrfToken: "", browserId: "", ssoCookie: "", ipAddress: by.ipAddress, baseUrl: "" };
}

/** Error of an IsPassive request that needs a page (the gateway answers the SP with NoPassive). */
export const SAML_NO_PASSIVE = "saml_no_passive";

/**
 * The browser half of SAML 2.0 Web Browser SSO (profiles 4.1.4.2) in the token service, which owns
 * SSO sessions and login transactions: a parked AuthnRequest is answered from the browser's SSO
 * session, or after the same login steps as OIDC (password, TOTP, required actions, lockout), in a
 * transaction of kind "saml" that ends with `saml_complete` instead of an authorization code.
 */
export class SamlLogin {
  constructor(private readonly kit: FlowKit) {}

  async begin(ctx: StepContext, input: SamlLoginInput): Promise<FlowReply> {
    const d = this.kit.d;
    const realm = await d.realms.get(ctx.realm);
    if (!realm) return realmNotFound();
    if (!input.pendingId) return errorReply("invalid_request", "The SAML request is missing.", 400);
    if (!ctx.browserId) return errorReply("invalid_request", "Cookies are required to log in.");

    const { session, pendingActions } = await this.kit.liveSession(realm, ctx.ssoCookie);
    if (session && !input.forceAuthn && !pendingActions) {
      // The SSO cookie authenticated this request: a LOGIN like any other, as for OIDC. The SAML
      // service records none: the login page's LOGIN (login-steps.ts) is the one for a new session.
      await d.events.record(realm, ctx, null, {
        type: "LOGIN", clientId: input.spEntityId, userId: session.userId, sessionId: session._id,
        details: { auth_method: "saml", username: session.username },
      });
      return samlCompleteReply(this.kit, realm, session, input.pendingId);
    }
    if (input.isPassive) return errorReply(SAML_NO_PASSIVE, "The service provider asked for a passive login and the user is not logged in.", 400);

    const tx = await this.kit.newTransaction(realm, ctx, {
      kind: "saml", step: "login", clientId: input.spEntityId, clientName: input.spName || input.spEntityId, scope: "",
      samlPendingId: input.pendingId, ...(session ? { priorSessionId: session._id } : {}),
    });
    return pageOf(tx, "login");
  }

  /**
   * Ends one SSO session (SAML single logout, profiles 4.4.3); sso-session.ended drives OIDC
   * back-channel logout. With `by`, the SP whose LogoutRequest asked, its LOGOUT event is staged
   * with the session's end through the outbox: recorded only by the request that ends the session,
   * and never lost to a crash that kept the end.
   */
  async endSession(realmName: string, sessionId: string, by?: SamlLogoutBy): Promise<{ ended: boolean; userId: string }> {
    const d = this.kit.d;
    const realm = await d.realms.get(realmName);
    if (!realm || !sessionId) return { ended: false, userId: "" };
    const session = by ? await d.sessions.repo.findById(realm.id, sessionId) : null;
    const ended = by && session
      ? await d.sessions.end(realm.id, sessionId, "logout", {
        known: session,
        also: (stamp) => d.events.message(realm, samlContext(realm, by), null, {
          type: "LOGOUT", clientId: by.spEntityId, userId: session.userId, sessionId: session._id,
          details: { auth_method: "saml", username: session.username },
        }, stamp),
      })
      : await d.sessions.end(realm.id, sessionId, "logout");
    return { ended: !!ended, userId: ended?.userId ?? "" };
  }
}

/** The last step of a "saml" transaction (AuthorizationFlow.complete): finished once, then saml_complete. */
export async function completeSamlLogin(kit: FlowKit, realm: FlowRealm, tx: LoginTransactionRecord, session: SsoSessionRecord): Promise<FlowReply> {
  if (!tx.samlPendingId || !(await kit.d.txs.finish(tx))) return staleTransaction();
  return samlCompleteReply(kit, realm, session, tx.samlPendingId);
}

async function samlCompleteReply(kit: FlowKit, realm: FlowRealm, session: SsoSessionRecord, pendingId: string): Promise<FlowReply> {
  const now = kit.now();
  // Keeps the session alive as an OIDC code would, without naming the SP as an OIDC client.
  const bounds = forLogin(realm, session.rememberMe);
  await kit.d.sessions.repo.touch(realm.id, session._id, undefined, now, cappedEnd(bounds, session.createdAt, now + bounds.refreshTokenLifespan * 1000));
  return { outcome: { kind: "saml_complete", pendingId, sessionId: session._id, userId: session.userId, authTime: session.authTime } };
}
