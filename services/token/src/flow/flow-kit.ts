import type { PluginStepRunner } from "../domain/plugin-step-runner.js";
import type { PasskeyService } from "../../../../gen/iam/directory/v1/passkey_pb.js";
import type { AuthenticationFlows } from "../domain/authentication-flows.js";
import type { Client } from "@connectrpc/connect";
import type { UserService } from "../../../../gen/iam/directory/v1/user_pb.js";
import { RequiredAction, type AuthenticationService } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import type { RegistrationService } from "../../../../gen/iam/directory/v1/registration_pb.js";
import { randomToken, safeEqual, sha256Hex } from "../../../kit/src/crypto/random.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { CODE_REMEMBERED_MS, codeUsableMs, type AuthorizationCodeRecord } from "../domain/authorization-code.js";
import type { ClientDirectory, ClientInfo } from "../domain/client-directory.js";
import { acrOf } from "../domain/acr.js";
import type { KeyRing } from "../domain/key-ring.js";
import type { Impersonator, SsoSessionRecord } from "../domain/sso-session.js";
import type { SsoSessions } from "../domain/sso-sessions.js";
import type { AuthorizationCodeRepository } from "../store/authorization-code-repository.js";
import type { DeviceCodeRepository } from "../store/device-code-repository.js";
import type { ConsentRepository } from "./consent-repository.js";
import { consentScopesOf, type ConsentScope } from "./consent-scopes.js";
import type { FlowEvents } from "./flow-events.js";
import { issuerOf, type FlowRealm, type FlowRealms } from "./flow-realms.js";
import { clientResponse, loginRequesterRefused, realmNotFound, staleTransaction, type FlowReply, type ResponseMode } from "./flow-reply.js";
import { TRANSACTION_TTL_MS, type LoginTransactionRecord, type TransactionStep } from "./login-transaction.js";
import type { PushedAuthorizations } from "../domain/pushed-authorization.js";
import type { LoginTransactionRepository } from "./login-transaction-repository.js";
import { cappedEnd, forLogin, pastMax } from "../domain/session-max.js";

/** Where and how an authorization response goes: the validated redirect_uri, the state, the mode. */
export interface ClientEndpoint {
  redirectUri: string;
  state: string;
  responseMode?: ResponseMode;
}

/** A session seen less than this long ago is not touched again just to slide its idle expiry. */
export const TOUCH_GRANULARITY_MS = 1_000;

/** What the browser flow is built from (module.ts composes it). */
export interface FlowDeps {
  realms: FlowRealms;
  clients: ClientDirectory;
  keys: KeyRing;
  txs: LoginTransactionRepository;
  consents: ConsentRepository;
  sessions: SsoSessions;
  codes: AuthorizationCodeRepository;
  devices: DeviceCodeRepository;
  /** PAR's stored requests (RFC 9126), shared with the OAuth half's push endpoint. */
  pushed: PushedAuthorizations;
  auth: Client<typeof AuthenticationService>;
  registration: Client<typeof RegistrationService>;
  passkeys: Client<typeof PasskeyService>;
  /** The users' own profiles (the UPDATE_PROFILE required action's page). */
  users: Client<typeof UserService>;
  events: FlowEvents;
  clock: Clock;
  /** The realm's and clients' authentication flows (absent: the built-in ones only). */
  flows?: AuthenticationFlows;
  /** The loaded plugins' authenticator steps (absent: no plugins, and a plugin step fails). */
  pluginSteps?: PluginStepRunner;
}

/** The browser's presentation of a step (iam.token.v1.FlowContext). */
export interface StepContext {
  realm: string;
  transactionId: string;
  csrfToken: string;
  browserId: string;
  ssoCookie: string;
  ipAddress: string;
  baseUrl: string;
}

/** A login transaction a form post may continue, with its (enabled) realm. */
export interface LoadedTransaction {
  realm: FlowRealm;
  tx: LoginTransactionRecord;
}

/**
 * A login's SSO session. `durable`: call before the answer goes out (the browser then holds its
 * cookie); after a later durable write of the token store it costs nothing more.
 */
export interface EstablishedSession {
  session: SsoSessionRecord;
  /** A new SSO cookie value to set with the answer. */
  cookie?: string;
  durable: () => Promise<void>;
}

const ALREADY_DURABLE = (): Promise<void> => Promise.resolve();

/** Operations shared by every part of the browser flow. */
export class FlowKit {
  constructor(readonly d: FlowDeps) {}

  now(): number {
    return this.d.clock.now();
  }

  /** A new transaction bound to this browser, with a fresh CSRF token. */
  async newTransaction(realm: FlowRealm, ctx: StepContext, fields: Partial<LoginTransactionRecord> & Pick<LoginTransactionRecord, "kind" | "step" | "clientId" | "clientName" | "scope">): Promise<LoginTransactionRecord> {
    const now = this.now();
    const tx: LoginTransactionRecord = {
      _id: randomToken(24), realmId: realm.id, realmName: realm.name, browserHash: sha256Hex(ctx.browserId),
      csrfToken: randomToken(24), amr: [], createdAt: now, expiresAt: now + TRANSACTION_TTL_MS, ...fields,
    };
    await this.d.txs.insert(tx);
    return tx;
  }

  /**
   * The transaction this POST continues, or the reply refusing it: the realm's 404 page when the
   * realm does not exist or is disabled (what the authorization endpoint answers for it, so a
   * form posted to such a realm is not called an expired login page), else the stale transaction
   * page when it is unknown or expired, presented by another browser, with a wrong CSRF token, or
   * not at one of `steps`.
   */
  async loadTransaction(ctx: StepContext, steps: TransactionStep[]): Promise<LoadedTransaction | FlowReply> {
    const realm = await this.d.realms.get(ctx.realm);
    if (!realm) return realmNotFound();
    if (!ctx.transactionId || !ctx.csrfToken || !ctx.browserId) return staleTransaction();
    const tx = await this.d.txs.find(realm.id, ctx.transactionId);
    if (!tx) return staleTransaction();
    if (!safeEqual(tx.browserHash, sha256Hex(ctx.browserId)) || !safeEqual(tx.csrfToken, ctx.csrfToken)) return staleTransaction();
    if (!steps.includes(tx.step)) return staleTransaction();
    return { realm, tx };
  }

  /** The live SSO session the cookie names (only its SHA-256 is stored). */
  async resolveSession(realm: FlowRealm, cookie: string): Promise<SsoSessionRecord | null> {
    if (!cookie) return null;
    const session = await this.d.sessions.repo.findByCookieHash(realm.id, sha256Hex(cookie));
    // Its end was capped when it was set; this also holds a bound lowered since (session-max.ts).
    return session && !pastMax(forLogin(realm, session.rememberMe), session.createdAt, this.now()) ? session : null;
  }

  /**
   * The browser's SSO session if its user may still use it: a session of a deleted or disabled user
   * ends here. `pendingActions` says the user owes a required action, so the session alone does not
   * complete a login (OIDC and SAML alike).
   */
  async liveSession(realm: FlowRealm, cookie: string): Promise<{ session: SsoSessionRecord | null; pendingActions: boolean }> {
    const session = await this.resolveSession(realm, cookie);
    if (!session) return { session: null, pendingActions: false };
    const status = await this.d.auth.getUserStatus({ realm: realm.name, userId: session.userId });
    if (!status.exists || !status.enabled) {
      await this.d.sessions.end(realm.id, session._id, status.exists ? "user_disabled" : "user_deleted", { known: session });
      return { session: null, pendingActions: false };
    }
    return { session, pendingActions: status.requiredActions.some((a) => a !== RequiredAction.UNSPECIFIED) };
  }

  /**
   * The session at the end of an interactive authentication: the browser's own session refreshed
   * when the same user re-authenticated (prompt=login, max_age), else a new one (a prior session
   * of another user, or one past SSO Session Max, ends). Returns the new cookie value when one must be set.
   * A new session is remembered when the login ticked "Remember me" (tx.rememberMe, only ever set
   * in a realm offering it); a re-authenticated one keeps its own choice, and so its bounds and
   * cookie, as Keycloak keeps the user session it re-authenticates.
   */
  async establishSession(realm: FlowRealm, tx: LoginTransactionRecord, ipAddress: string, impersonator?: Impersonator): Promise<EstablishedSession> {
    const now = this.now();
    const authTime = tx.authTime ?? now;
    if (tx.priorSessionId) {
      const prior = await this.d.sessions.repo.findById(realm.id, tx.priorSessionId);
      const bounds = forLogin(realm, prior?.rememberMe);
      // Re-authenticating (prompt=login, max_age) keeps the session, and so its start: SSO Session
      // Max counts from the login that opened it, as in Keycloak (session-max.ts).
      if (prior && prior.userId === tx.userId && !pastMax(bounds, prior.createdAt, now)) {
        const refreshed = await this.d.sessions.repo.reauthenticate(realm.id, prior._id, authTime, tx.amr, now, cappedEnd(bounds, prior.createdAt, now + bounds.refreshTokenLifespan * 1000));
        if (refreshed) return { session: refreshed, durable: ALREADY_DURABLE };
      } else if (prior) {
        await this.d.sessions.end(realm.id, prior._id, prior.userId === tx.userId ? "expired" : "logout", { known: prior });
      }
    }
    const cookie = randomToken(32);
    const bounds = forLogin(realm, tx.rememberMe);
    const session: SsoSessionRecord = {
      _id: crypto.randomUUID(), realmId: realm.id, realmName: realm.name, userId: tx.userId ?? "",
      // An authorization request's client is named at once, so issueCode need not write again.
      username: tx.username ?? "", cookieHash: sha256Hex(cookie), authTime, amr: tx.amr, clientIds: tx.kind === "authorize" ? [tx.clientId] : [],
      ipAddress, ...(impersonator ? { impersonator } : {}), ...(tx.rememberMe ? { rememberMe: true } : {}),
      createdAt: now, lastSeenAt: now, expiresAt: cappedEnd(bounds, now, now + bounds.refreshTokenLifespan * 1000),
    };
    // Staged: the code's write that follows makes it durable with the same flush (one flush per
    // login instead of two); the caller looks before answering, for the paths that write no code.
    const staged = await this.d.sessions.repo.stage(session);
    return { session, cookie, durable: () => staged.durable };
  }

  /**
   * Issues the authorization code (RFC 6749 section 4.1.2): 256-bit random, stored as its SHA-256,
   * usable 60 s; the response carries code, state and iss (RFC 9207), in the request's response mode.
   */
  async issueCode(realm: FlowRealm, tx: LoginTransactionRecord, session: SsoSessionRecord, baseUrl: string): Promise<FlowReply> {
    const req = tx.request;
    if (!req) throw new Error("authorization transaction without request");
    const now = this.now();
    const code = randomToken(32);
    // The client's profile may shorten the code's life (FAPI 2.0); read through the client cache.
    const profile = (await this.d.clients.get(realm.name, req.clientId))?.clientProfile ?? "";
    const record: AuthorizationCodeRecord = {
      _id: sha256Hex(code), realmId: realm.id, realmName: realm.name, clientId: req.clientId,
      ...(req.clientInternalId ? { clientInternalId: req.clientInternalId } : {}), redirectUri: req.redirectUri, userId: session.userId, ssoSessionId: session._id, scope: req.scope,
      nonce: req.nonce, codeChallenge: req.codeChallenge, codeChallengeMethod: req.codeChallengeMethod, ...(req.dpopJkt ? { dpopJkt: req.dpopJkt } : {}),
      authTime: session.authTime, amr: session.amr, acr: acrOf(tx.acr), createdAt: now, usableUntil: now + codeUsableMs(profile),
      expiresAt: now + CODE_REMEMBERED_MS,
    };
    await this.d.codes.insert(record);
    // Sliding the idle expiry by less than TOUCH_GRANULARITY_MS is not worth a write (a session
    // this login just established already names the client and was seen this instant).
    if (!session.clientIds.includes(req.clientId) || now - session.lastSeenAt >= TOUCH_GRANULARITY_MS) {
      const bounds = forLogin(realm, session.rememberMe);
      await this.d.sessions.repo.touch(realm.id, session._id, req.clientId, now, cappedEnd(bounds, session.createdAt, now + bounds.refreshTokenLifespan * 1000));
    }
    return clientResponse(req.redirectUri, req.responseMode ?? "query", { code, state: req.state, iss: issuerOf(baseUrl, realm.name) });
  }

  /** An error response to the registered redirect_uri (RFC 6749 section 4.1.2.1, RFC 9207), in the request's response mode. */
  errorResponse(realm: FlowRealm, to: ClientEndpoint, baseUrl: string, error: string, description: string): FlowReply {
    return clientResponse(to.redirectUri, to.responseMode ?? "query", { error, error_description: description, state: to.state, iss: issuerOf(baseUrl, realm.name) });
  }

  /**
   * The transaction's client as it is now, read through the client cache (which client.updated
   * drops): the login page may have been open for minutes, and an admin may have disabled or
   * deleted the client meanwhile, or changed its requireConsent. Keycloak checks the client at
   * every step of an authentication session; this is called where the flow decides (the end of
   * authentication, a consent's approval or denial), so the decision uses the current client.
   * A client disabled, deleted, or deleted and created again under the same clientId (the code
   * is bound to the first one's id) ends the transaction with a LOGIN_ERROR event and the refusal
   * page: never a redirect to it (RFC 6749 section 4.1.2.1). So does a request whose redirect_uri
   * the client no longer registers (an admin removed it): the code would go to a URI the client
   * gave up, which section 4.1.2.1 forbids as it forbids an unregistered one at the start.
   * `typedUsername`: what the login form sent, for the event, when the user is not known yet.
   */
  async currentClient(realm: FlowRealm, ctx: StepContext, tx: LoginTransactionRecord, typedUsername?: string): Promise<ClientInfo | FlowReply> {
    const client = await this.d.clients.get(realm.name, tx.clientId);
    const internalId = tx.request?.clientInternalId;
    const redirectUri = tx.request?.redirectUri;
    const sameClient = client !== null && (!internalId || client.id === internalId);
    if (sameClient && client.enabled && (!redirectUri || client.redirectUris.includes(redirectUri))) return client;
    const error = !sameClient ? "client_not_found" : !client.enabled ? "client_disabled" : "invalid_redirect_uri";
    await this.d.txs.finish(tx);
    await this.d.events.record(realm, ctx, tx, { type: "LOGIN_ERROR", error, ...(typedUsername ? { details: { username: typedUsername } } : {}) });
    return loginRequesterRefused(error);
  }

  /**
   * The scopes the consent page must list before this request gets a code, or null when no page
   * is due (OIDC Core 1.0 section 3.1.2.4). A device is always asked (RFC 8628 section 3.3: the
   * user confirms the device), with every scope its tokens carry. A client that requires consent
   * asks for what its tokens will carry and the user has not consented to yet, so a scope the
   * client gets later is asked for on the next request; everything again with prompt=consent
   * (OIDC Core 1.0 section 3.1.2.1); nothing when all of it was consented to (Keycloak asks then
   * neither). `client` is the client as it is now (currentClient): its requireConsent is decided
   * at the end of authentication, not when the login began.
   */
  async consentDue(realm: FlowRealm, tx: LoginTransactionRecord, client: ClientInfo, userId: string): Promise<ConsentScope[] | null> {
    if (tx.kind !== "device" && !client.requireConsent) return null;
    const listed = consentScopesOf(client, tx.scope);
    if (tx.kind === "device" || tx.request?.prompt.includes("consent")) return listed;
    const granted = new Set(await this.d.consents.granted(realm.id, userId, tx.clientId));
    const missing = listed.filter((s) => !granted.has(s.name));
    return missing.length ? missing : null;
  }
}

export function scopesOf(scope: string): string[] {
  return scope.split(" ").filter(Boolean);
}
