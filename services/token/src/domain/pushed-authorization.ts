import { randomToken, sha256Hex } from "../../../kit/src/crypto/random.js";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock, Doc } from "../../../kit/src/store/port.js";
import { checkAuthorizationRequest, markOverLong } from "../flow/authorization-request.js";
import { readRequestObject } from "../flow/request-object.js";
import type { PushedRequestRepository } from "../store/pushed-request-repository.js";
import type { ClientInfo } from "./client-directory.js";
import type { ClientAuth, PresentedClient } from "./client-auth.js";
import type { OAuthEvents } from "./oauth-events.js";
import type { OAuthRealm } from "./realm-settings.js";
import type { DpopBinding } from "./dpop-binding.js";

/** RFC 9126 section 2.2: the request_uri's URN prefix. */
export const PAR_URN_PREFIX = "urn:ietf:params:oauth:request_uri:";
/** RFC 9126 section 2.2 suggests a short lifetime; Keycloak's default is 60 seconds. */
export const PAR_LIFETIME_S = 60;

/** A pushed authorization request: the parameters the authorization endpoint will use. */
export interface PushedRequestRecord extends Doc {
  realmId: string;
  /** The client that pushed it; only it may use the request_uri. */
  clientId: string;
  /** The authorization request's parameters, a request object's already verified and merged in. */
  params: Record<string, string>;
  createdAt: number;
  expiresAt: number;
}

/** Client authentication parameters: never authorization parameters (RFC 9126 section 2.1). */
const CLIENT_AUTH_PARAMS = ["client_secret", "client_assertion", "client_assertion_type"];

/**
 * The pushed authorization request endpoint (RFC 9126 section 2) and the authorization endpoint's
 * use of its request_uris (section 4). The request is checked as the authorization endpoint checks
 * it (request object, redirect_uri, response type, PKCE, scopes), so its errors reach the client
 * here, in RFC 6749 format (section 2.3), rather than at the browser.
 */
export class PushedAuthorizations {
  constructor(
    private readonly repo: PushedRequestRepository,
    private readonly auth: ClientAuth,
    private readonly events: OAuthEvents,
    private readonly clock: Clock,
    /** RFC 9449 section 10.1; without it a DPoP header is not read (tests of PAR alone). */
    private readonly dpop?: DpopBinding,
  ) {}

  /**
   * Authenticates the client as the token endpoint does (RFC 9126 section 2: the same methods) and
   * stores its request; records PUSHED_AUTHORIZATION_REQUEST or its _ERROR (Keycloak's names).
   */
  async push(realm: OAuthRealm, issuer: string, presented: PresentedClient, form: Record<string, string>, ipAddress: string, dpopProof = ""): Promise<{ requestUri: string; expiresIn: number }> {
    let clientId = presented.clientId;
    try {
      const client = await this.auth.authenticate(realm.name, presented);
      clientId = client.clientId;
      const pushed = await this.store(realm, issuer, client, form, dpopProof);
      await this.events.record(realm, { type: "PUSHED_AUTHORIZATION_REQUEST", clientId, ipAddress });
      return pushed;
    } catch (e) {
      if (e instanceof IamError) {
        await this.events.record(realm, { type: "PUSHED_AUTHORIZATION_REQUEST_ERROR", clientId, ipAddress, error: e.oauthError ?? e.reason });
      }
      throw e;
    }
  }

  /** Stores the request of an authenticated client; its request_uri and lifetime (section 2.2). */
  private async store(realm: OAuthRealm, issuer: string, client: ClientInfo, form: Record<string, string>, dpopProof: string): Promise<{ requestUri: string; expiresIn: number }> {
    if (form.request_uri !== undefined) throw IamError.oauth("invalid_request", "request_uri must not be sent to the pushed authorization request endpoint.");
    if (form.client_id && form.client_id !== client.clientId) throw IamError.oauth("invalid_request", "client_id does not match the authenticated client.");
    // The authorization endpoint's length limits, which its query parsing would have applied.
    const params = markOverLong(Object.fromEntries(Object.entries(form).filter(([k]) => !CLIENT_AUTH_PARAMS.includes(k))));
    params.client_id = client.clientId;
    const now = this.clock.now();
    const object = await readRequestObject(params, client, issuer, now);
    if (object.error) throw IamError.oauth(object.error.error, object.error.description);
    const check = checkAuthorizationRequest(object.params, client);
    if (!check.ok) throw IamError.oauth(check.error, check.description);
    const jkt = this.dpop ? await this.dpop.forPushedRequest(realm.name, issuer, client, dpopProof, object.params.dpop_jkt) : "";
    if (jkt) object.params.dpop_jkt = jkt;
    const reference = randomToken(32);
    await this.repo.insert({
      _id: sha256Hex(reference), realmId: realm.id, clientId: client.clientId, params: object.params,
      createdAt: now, expiresAt: now + PAR_LIFETIME_S * 1000,
    });
    return { requestUri: `${PAR_URN_PREFIX}${reference}`, expiresIn: PAR_LIFETIME_S };
  }

  /** The pushed parameters, once, for the client that pushed them; null when unknown, used, expired or another client's. */
  async take(realm: OAuthRealm, clientId: string, requestUri: string): Promise<Record<string, string> | null> {
    if (!requestUri.startsWith(PAR_URN_PREFIX) || !clientId) return null;
    const record = await this.repo.take(realm.id, sha256Hex(requestUri.slice(PAR_URN_PREFIX.length)), clientId);
    return record ? record.params : null;
  }
}
