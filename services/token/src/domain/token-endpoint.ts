import { IamError } from "../../../kit/src/errors.js";
import type { ClientAuth, PresentedClient } from "./client-auth.js";
import type { ClientInfo } from "./client-directory.js";
import { GRANT_TYPES } from "./discovery.js";
import type { OAuthEvents } from "./oauth-events.js";
import type { OAuthRealm } from "./realm-settings.js";
import { invalidRequest, type Grant, type GrantResult, type TokenParams } from "./grants/grant-context.js";
import { LoginFailed } from "./grants/password-grant.js";
import type { DpopBinding } from "./dpop-binding.js";
import { TOKEN_EXCHANGE_GRANT } from "./grants/token-exchange-grant.js";

/** Login event types per grant (Keycloak's vocabulary). */
const EVENT_OF: Record<string, string> = {
  authorization_code: "CODE_TO_TOKEN",
  client_credentials: "CLIENT_LOGIN",
  password: "LOGIN",
  refresh_token: "REFRESH_TOKEN",
  "urn:ietf:params:oauth:grant-type:device_code": "CODE_TO_TOKEN",
  [TOKEN_EXCHANGE_GRANT]: "TOKEN_EXCHANGE",
};

/** The longest username an event records: the login page cuts what was typed there too. */
const MAX_USERNAME = 255;

/**
 * Answers that are part of the normal flow, not failures worth an event: RFC 8628 section 3.5's
 * polling, and RFC 9449 section 8's request for a nonce, which the client retries at once.
 */
const FLOW_ANSWERS = new Set(["authorization_pending", "slow_down", "use_dpop_nonce"]);

/**
 * The token endpoint (RFC 6749 section 3.2): client authentication first (section 2.3), then the
 * grant type (unsupported_grant_type), then whether this client may use it (unauthorized_client).
 */
export class TokenEndpoint {
  constructor(
    private readonly auth: ClientAuth,
    private readonly grants: Record<string, Grant>,
    private readonly events: OAuthEvents,
    private readonly dpop?: DpopBinding,
  ) {}

  async token(realm: OAuthRealm, issuer: string, presented: PresentedClient, params: TokenParams): Promise<GrantResult> {
    if (!params.grantType) throw invalidRequest("grant_type is required");
    const eventType = EVENT_OF[params.grantType];
    let client: ClientInfo;
    try {
      const authenticated = this.auth.authenticate(realm.name, presented);
      client = authenticated instanceof Promise ? await authenticated : authenticated;
    } catch (e) {
      if (eventType) await this.failed(realm, eventType, presented.clientId, params, e);
      throw e;
    }
    try {
      const grant = this.grants[params.grantType];
      if (!grant || !(GRANT_TYPES as readonly string[]).includes(params.grantType)) {
        throw IamError.oauth("unsupported_grant_type", `unsupported grant_type "${params.grantType}"`);
      }
      if (!mayUse(client, params.grantType)) {
        throw IamError.oauth("unauthorized_client", `the client may not use the ${params.grantType} grant`);
      }
      // RFC 9449 section 5: the proof is checked before the grant spends a code or rotates a token.
      const dpopJkt = this.dpop ? await this.dpop.forTokenRequest(realm.name, issuer, client, params.dpopProof ?? "") : "";
      const result = await grant.issue({ realm, issuer, client, params, dpopJkt });
      if (dpopJkt) result.dpopBound = true;
      const nonce = this.dpop?.nonceFor(realm.name, client);
      if (nonce) result.dpopNonce = nonce;
      // Checked here too, not only in record(): no promise at all when the realm keeps no events.
      if (realm.eventsEnabled) await this.events.record(realm, {
        type: eventType!, clientId: client.clientId, userId: result.userId, sessionId: result.sessionState,
        ipAddress: params.ipAddress, details: { grant_type: params.grantType, ...result.details },
      });
      return result;
    } catch (e) {
      if (eventType) await this.failed(realm, eventType, client.clientId, params, e);
      throw e;
    }
  }

  private async failed(realm: OAuthRealm, type: string, clientId: string, params: TokenParams, e: unknown): Promise<void> {
    if (!(e instanceof IamError)) return;
    const error = e instanceof LoginFailed ? e.eventError : e.oauthError ?? e.reason;
    if (FLOW_ANSWERS.has(error)) return;
    await this.events.record(realm, {
      type: `${type}_ERROR`, clientId, ipAddress: params.ipAddress, error, details: failureDetails(params),
      ...(e instanceof LoginFailed && e.userId ? { userId: e.userId } : {}),
    });
  }
}

/**
 * Whether the client may use the grant: the grant types it lists, and for token exchange its
 * exchange permission (Keycloak's per-client "Standard token exchange" switch, RFC 8693).
 */
function mayUse(client: ClientInfo, grantType: string): boolean {
  return grantType === TOKEN_EXCHANGE_GRANT ? client.standardTokenExchangeEnabled : client.grantTypes.includes(grantType);
}

/**
 * A failed request's event details: its grant_type, and for the password grant the username as
 * sent (as the login page records it, and Keycloak for direct grants), so an admin can see which
 * account was tried, an unknown one too. Never the password (DESIGN 4).
 */
function failureDetails(params: TokenParams): Record<string, string> {
  const username = params.grantType === "password" ? params.username.trim().slice(0, MAX_USERNAME) : "";
  return { grant_type: params.grantType, ...(username ? { username } : {}) };
}
