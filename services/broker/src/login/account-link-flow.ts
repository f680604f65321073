import { randomUUID } from "node:crypto";
import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { ClientService } from "../../../../gen/iam/directory/v1/client_pb.js";
import { AuthorizationFlowService } from "../../../../gen/iam/token/v1/authorization_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import { accountLinkHash, accountLinkHashMatches } from "../domain/account-link-hash.js";
import { isRegisteredRedirect, withLinkError } from "../domain/link-redirect.js";
import type { IdentityProviderRecord } from "../domain/identity-provider.js";
import type { RealmLookup, RealmRef } from "../domain/realm-ref.js";
import type { BrokerEvent, BrokerEvents } from "../events/broker-events.js";
import type { LinkRepository } from "../store/link-repository.js";
import type { AccountLinkBinding, LoginStateRecord } from "../store/login-state-repository.js";
import type { ProviderRepository } from "../store/provider-repository.js";
import type { AccountLinker } from "./account-linker.js";
import { BrokerFailure } from "./broker-failure.js";
import type { BrokerResult, BrowserCall } from "./broker-login.js";
import type { UpstreamLeg } from "./upstream-leg.js";

/** Keycloak's account console client: the one its account API makes link URIs for. */
const ACCOUNT_CONSOLE = "account-console";
const MAX_NONCE = 256;

export interface LinkUriRequest {
  realm: string;
  alias: string;
  userId: string;
  sessionId: string;
  clientId: string;
  redirectUri: string;
}

export interface LinkStartCall extends BrowserCall {
  clientId: string;
  redirectUri: string;
  nonce: string;
  hash: string;
  ssoCookie: string;
}

/**
 * Keycloak's client-initiated account linking. A client holding a token of the user's SSO session
 * gets (from the account API) or builds the link URI `/broker/{alias}/link` with a nonce and
 * hash = SHA-256(nonce + session + client + alias); the browser opens it with its SSO cookie; the
 * session must be the hash's and have the client in it; the upstream login then runs as a
 * brokered login's does, and its callback links the upstream account to the session's user
 * instead of signing anyone in. Failures Keycloak sends back to the client go to the client's
 * registered redirect_uri with `link_error` and `nonce`; the others are error pages.
 */
export class AccountLinkFlow {
  private readonly clients: Client<typeof ClientService>;
  private readonly sso: Client<typeof AuthorizationFlowService>;

  constructor(
    private readonly realms: RealmLookup,
    private readonly providers: ProviderRepository,
    private readonly links: LinkRepository,
    private readonly leg: UpstreamLeg,
    private readonly accounts: AccountLinker,
    private readonly events: BrokerEvents,
    private readonly cfg: { publicUrl: string },
    transports: { directory: Transport; token: Transport },
    private readonly count: (result: "linked" | "error") => void = () => {},
  ) {
    this.clients = createClient(ClientService, transports.directory);
    this.sso = createClient(AuthorizationFlowService, transports.token);
  }

  /**
   * The account API's `GET linked-accounts/{alias}` (Keycloak's LinkedAccountsResource): a fresh
   * nonce and the hash over the caller's session. Keycloak answers 400 for an unknown provider and
   * makes a URI even for a linked one; here an unknown provider is 404, as everywhere in Tessera,
   * and a provider the user is linked to already is 409 (its link would be refused at the end).
   */
  async linkUri(req: LinkUriRequest): Promise<{ accountLinkUri: string; nonce: string; hash: string }> {
    const realm = await this.realms.published(req.realm);
    if (!req.redirectUri) throw IamError.invalid("redirectUri", "redirectUri is required");
    const p = await this.providers.findByAlias(realm.id, req.alias);
    if (!p) throw new IamError({ code: "notFound", reason: "identity_provider_not_found", message: `identity provider "${req.alias}" not found` });
    if (!p.enabled) throw IamError.invalid("alias", `identity provider "${req.alias}" is disabled`, "identity_provider_disabled");
    const registered = await this.redirectUrisOf(realm, req.clientId);
    if (!isRegisteredRedirect(registered ?? [], req.redirectUri)) {
      throw IamError.invalid("redirectUri", `redirectUri is not a redirect URI registered for ${req.clientId}`, "invalid_redirect_uri");
    }
    // Keycloak's SESSION_NOT_ACTIVE: a token of no SSO session (a password grant) cannot be linked from.
    if (!req.sessionId) throw new IamError({ code: "invalidArgument", reason: "session_not_active", message: "the access token belongs to no browser session" });
    if ((await this.links.listByUser(realm.id, req.userId)).some((l) => l.alias === p.alias)) {
      throw IamError.conflict(`the account is already linked to identity provider "${p.alias}"`, "alias", "already_linked");
    }
    const nonce = randomUUID();
    const hash = accountLinkHash(nonce, req.sessionId, req.clientId, p.alias);
    const uri = new URL(`${this.cfg.publicUrl.replace(/\/+$/, "")}/realms/${encodeURIComponent(realm.name)}/broker/${encodeURIComponent(p.alias)}/link`);
    uri.search = new URLSearchParams({ client_id: req.clientId, redirect_uri: req.redirectUri, nonce, hash }).toString();
    return { accountLinkUri: uri.href, nonce, hash };
  }

  /** `GET /broker/{alias}/link`, in Keycloak's order of checks (IdentityBrokerService.clientInitiatedAccountLinking). */
  async start(call: LinkStartCall): Promise<BrokerResult> {
    const realm = await this.realms.published(call.realm);
    const event = (e: Omit<BrokerEvent, "type" | "alias">, error?: string): Promise<void> => this.events.record(realm, {
      type: error ? "CLIENT_INITIATED_ACCOUNT_LINKING_ERROR" : "CLIENT_INITIATED_ACCOUNT_LINKING", alias: call.alias,
      ipAddress: call.ipAddress, ...(call.clientId ? { clientId: call.clientId } : {}), ...e, ...(error ? { error } : {}),
    });
    const page = async (error: string, description: string, eventError: string, e: Omit<BrokerEvent, "type" | "alias"> = {}): Promise<BrokerResult> => {
      await event(e, eventError);
      return { kind: "error", error, description, status: 400 };
    };
    const registered = call.clientId ? await this.redirectUrisOf(realm, call.clientId) : null;
    if (!registered) return page("invalid_request", "The application is unknown or disabled.", "client_not_found");
    if (!isRegisteredRedirect(registered, call.redirectUri)) return page("invalid_request", "The redirect_uri is not registered for this application.", "invalid_redirect_uri");
    if (!call.nonce || !call.hash) return page("invalid_request", "The nonce and hash parameters are required.", "invalid_request");
    // The nonce travels back to the client and waits in the state: a UUID in Keycloak, bounded here.
    if (call.nonce.length > MAX_NONCE || call.hash.length > MAX_NONCE) return page("invalid_request", "The nonce or hash parameter is too long.", "invalid_request");
    const back = async (error: string, e: Omit<BrokerEvent, "type" | "alias"> = {}): Promise<BrokerResult> => {
      await event(e, error);
      return { kind: "redirect", location: withLinkError(call.redirectUri, error, call.nonce) };
    };

    const session = call.ssoCookie ? await this.sso.resolveSsoCookie({ realm: realm.name, ssoCookie: call.ssoCookie }) : undefined;
    if (!session?.found) return back("not_logged_in");
    const who = { userId: session.userId, sessionId: session.sessionId };
    // Keycloak looks for a client session of client_id whose hash matches: the client must have
    // signed in through this very session, and the hash names it, the session and the provider.
    if (!session.clientIds.includes(call.clientId) || !accountLinkHashMatches(call.hash, call.nonce, session.sessionId, call.clientId, call.alias)) {
      return page("invalid_request", "The account link request is not valid for this session.", "invalid_token", who);
    }
    let p: IdentityProviderRecord;
    try {
      p = await this.leg.provider(realm, call.alias);
    } catch (e) {
      if (!(e instanceof BrokerFailure)) throw e;
      return back(e.error === "identity_provider_not_found" ? "unknown_identity_provider" : e.error, who);
    }
    const link: AccountLinkBinding = { ...who, clientId: call.clientId, redirectUri: call.redirectUri, nonce: call.nonce };
    const location = await this.leg.begin(realm, p, call.browserId, { link });
    await event({ ...who, details: { redirect_uri: call.redirectUri } });
    return { kind: "redirect", location };
  }

  /**
   * The upstream's callback for a link-mode state (IdentityBrokerService.performAccountLinking):
   * the session that asked must still be the browser's; the upstream account is then linked to its
   * user and the browser goes back to the client's redirect_uri. As Keycloak, a failure goes back
   * to the account console with its error; another client's browser gets an error page.
   */
  async callback(realm: RealmRef, call: BrowserCall, st: LoginStateRecord, link: AccountLinkBinding, q: { code: string; error: string; iss: string; ssoCookie: string }): Promise<BrokerResult> {
    const who = { userId: link.userId, sessionId: link.sessionId, clientId: link.clientId, ipAddress: call.ipAddress };
    try {
      const session = q.ssoCookie ? await this.sso.resolveSsoCookie({ realm: realm.name, ssoCookie: q.ssoCookie }) : undefined;
      if (!session?.found || session.sessionId !== link.sessionId || session.userId !== link.userId) {
        // Keycloak's BROKER_LINKING_SESSION_EXPIRED: shown, never sent to the client.
        throw new BrokerFailure("link_session_expired", "The session that asked for this link has ended. Sign in and link the account again.", 400);
      }
      const { p, profile } = await this.leg.finish(realm, st, call.alias, q);
      await this.accounts.linkSignedIn(realm, p, link.userId, profile);
      await this.events.record(realm, {
        type: "FEDERATED_IDENTITY_LINK", alias: p.alias, ...who,
        details: { identity_provider_identity: profile.username ?? "", redirect_uri: link.redirectUri },
      });
      this.count("linked");
      return { kind: "redirect", location: link.redirectUri };
    } catch (e) {
      if (!(e instanceof BrokerFailure)) throw e;
      this.count("error");
      await this.events.record(realm, { type: "FEDERATED_IDENTITY_LINK_ERROR", alias: call.alias, ...who, error: e.eventError });
      if (e.error === "link_session_expired" || link.clientId !== ACCOUNT_CONSOLE) return { kind: "error", error: e.error, description: e.description, status: e.status };
      return { kind: "redirect", location: withLinkError(link.redirectUri, e.error, link.nonce) };
    }
  }

  /** The enabled client's registered redirect URIs; null for an unknown or disabled client. */
  private async redirectUrisOf(realm: RealmRef, clientId: string): Promise<string[] | null> {
    try {
      const { client } = await this.clients.getClient({ realm: realm.name, clientId });
      return client && client.enabled ? client.redirectUris : null;
    } catch (e) {
      if (ConnectError.from(e).code === Code.NotFound) return null;
      throw e;
    }
  }
}
