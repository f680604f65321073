import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { ClientService, type Client as ClientMessage, type ConsentScreenScope } from "../../../../gen/iam/directory/v1/client_pb.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { ReadCache } from "../../../kit/src/read-cache.js";
import { clientSigningAlg, type SigningAlg } from "./signing-alg.js";

/** What the token service needs to know of a client (spec 2.3), without its secret. */
export interface ClientInfo {
  id: string;
  clientId: string;
  name: string;
  clientType: "CONFIDENTIAL" | "PUBLIC";
  enabled: boolean;
  redirectUris: string[];
  webOrigins: string[];
  grantTypes: string[];
  requireConsent: boolean;
  backchannelLogoutUri: string;
  backchannelLogoutSessionRequired: boolean;
  /** How it authenticates (OIDC Core 1.0 section 9): client_secret_basic/post/jwt, private_key_jwt or none. */
  tokenEndpointAuthMethod: string;
  /**
   * Its public keys by value (RFC 7517 JWK Set): private_key_jwt's assertions and request objects
   * are verified with them; no keys when it has none.
   */
  jwks: { keys: Array<Record<string, unknown>> };
  /** Where it publishes them instead; "" when not set. */
  jwksUri: string;
  /** Its default and optional client scopes' names (what /auth may ask for besides openid). */
  scopeNames: string[];
  /** The same scopes, in name order, as the consent screen sees them (consent-scopes.ts). */
  scopes: ClientScopeInfo[];
  /** "" (signed, any supported alg), "any" (signed or unsigned), "none" (unsigned only), or one alg. */
  requestObjectSignatureAlg: string;
  /** RFC 9126 section 6: authorization requests must come through PAR. */
  requirePushedAuthorizationRequests: boolean;
  /** RFC 9449: token requests without a DPoP proof are refused. */
  dpopBoundAccessTokens: boolean;
  /** RFC 9449 section 8: the client's proofs must carry a server nonce. */
  dpopNonceRequired: boolean;
  /** It may exchange tokens aimed at it for tokens aimed at another client (RFC 8693; Keycloak's standard token exchange). */
  standardTokenExchangeEnabled: boolean;
  /** The algorithm of its ID tokens (OIDC Dynamic Client Registration 1.0 section 2); "" for the realm's. */
  idTokenSignedResponseAlg: SigningAlg | "";
  /** The algorithm of its access tokens (Keycloak's `access.token.signed.response.alg`); "" for the realm's. */
  accessTokenSignedResponseAlg: SigningAlg | "";
  /** The security profile its requests are held to: "" or "fapi2-security" (FAPI 2.0 Security Profile). */
  clientProfile: string;
  /**
   * Some mapper of its scopes writes to introspection otherwise than to the access token
   * (`introspection.token.claim`): introspecting its tokens resolves the claims (introspected-claims.ts).
   */
  introspectionClaimsDiffer: boolean;
  /** Authentication flow aliases used instead of the realm's (absent: the realm's). */
  browserFlowOverride?: string;
  directGrantFlowOverride?: string;
}

/** One of a client's scopes as the consent screen sees it (iam.directory.v1.ConsentScreenScope). */
export interface ClientScopeInfo {
  name: string;
  /** Every token of the client carries it; else only when requested. */
  isDefault: boolean;
  /** Listed on the consent screen. */
  onConsentScreen: boolean;
  /** What the consent screen shows for it. */
  consentText: string;
}

/** A cached entry lives at most this long even without an invalidation event. */
const MAX_AGE_MS = 30_000;

/** A one-way verifier of a client's secret (see ClientService.GetClientCredentialVerifier). */
export interface SecretVerifier {
  salt: Buffer;
  digest: Buffer;
}

/** What the cache holds per client: its configuration and the verifier of its secret. */
export interface ClientCredentials {
  info: ClientInfo;
  /** Undefined for PUBLIC clients and clients without a secret. */
  verifier: SecretVerifier | undefined;
}

/**
 * Client configuration cached in the token service (docs/performance.md): read from the
 * directory's ClientService once, with the verifier of the client's secret and its scopes' names,
 * so the token endpoint authenticates clients without any RPC when warm. Dropped in every replica on
 * `iam.directory.v1.client.updated` (update, delete and secret regeneration publish it) and, the
 * realm's clients (all without a realm), on `token-config.changed` (a scope or its assignment changed; see cache-watchers.ts),
 * and after MAX_AGE_MS as a safety net for a missed event: a regenerated
 * secret stops working within the event's delivery time, at worst MAX_AGE_MS.
 *
 * On a ReadCache: the client_id comes from the request, so "no such client" is never cached (a
 * client created a moment later works at once, and made-up ids cannot fill memory) and the
 * entries are bounded.
 */
export class ClientDirectory {
  private readonly client: Client<typeof ClientService>;
  private readonly cache: ReadCache<ClientCredentials>;

  constructor(transport: Transport, clock: Clock) {
    this.client = createClient(ClientService, transport);
    this.cache = new ReadCache(MAX_AGE_MS, () => clock.now());
  }

  /** The client, or null when the realm has no such client. */
  async get(realm: string, clientId: string): Promise<ClientInfo | null> {
    return (await this.credentials(realm, clientId))?.info ?? null;
  }

  /** credentials' answer when cached, else undefined. */
  cachedCredentials(realm: string, clientId: string): ClientCredentials | undefined {
    return this.cache.peek(credentialsKey(realm, clientId));
  }

  /** The client and its secret's verifier, or null when the realm has no such client. */
  credentials(realm: string, clientId: string): Promise<ClientCredentials | null> {
    return this.cache.get(credentialsKey(realm, clientId), async () => {
      try {
        const res = await this.client.getClientCredentialVerifier({ realm, clientId });
        if (!res.client) return null;
        const verifier = res.verifier.length > 0 ? { salt: Buffer.from(res.verifierSalt), digest: Buffer.from(res.verifier) } : undefined;
        return { info: { ...toInfo(res.client, res.scopeNames, res.scopes), introspectionClaimsDiffer: res.introspectionClaimsDiffer }, verifier };
      } catch (e) {
        if (e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.InvalidArgument)) return null;
        throw e;
      }
    });
  }

  /** Checks a client_secret_jwt assertion's signature where the secret lives (ClientService.VerifyClientSecretJwt); rejects when it fails. */
  async verifyClientSecretJwt(realm: string, clientId: string, assertion: string): Promise<void> {
    await this.client.verifyClientSecretJwt({ realm, clientId, assertion });
  }

  /** Drops one client, a realm's clients, or (no realm) every client. */
  invalidate(realm?: string, clientId?: string): void {
    if (realm === undefined) this.cache.dropWhere("");
    else if (clientId !== undefined) this.cache.drop(credentialsKey(realm, clientId));
    else this.cache.dropWhere(`${realm}\0`);
  }
}

function toInfo(c: ClientMessage, scopeNames: string[], scopes: ConsentScreenScope[]): Omit<ClientInfo, "introspectionClaimsDiffer"> {
  return {
    id: c.id,
    clientId: c.clientId,
    name: c.name,
    clientType: c.clientType === "PUBLIC" ? "PUBLIC" : "CONFIDENTIAL",
    enabled: c.enabled,
    redirectUris: [...c.redirectUris],
    webOrigins: [...c.webOrigins],
    grantTypes: [...c.grantTypes],
    requireConsent: c.requireConsent,
    backchannelLogoutUri: c.backchannelLogoutUri,
    backchannelLogoutSessionRequired: c.backchannelLogoutSessionRequired,
    tokenEndpointAuthMethod: c.tokenEndpointAuthMethod || (c.clientType === "PUBLIC" ? "none" : "client_secret_basic"),
    jwksUri: c.jwksUri,
    scopeNames: [...scopeNames],
    jwks: { keys: Array.isArray(c.jwks?.keys) ? (c.jwks.keys as Array<Record<string, unknown>>) : [] },
    requestObjectSignatureAlg: c.requestObjectSignatureAlg,
    requirePushedAuthorizationRequests: c.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: c.dpopBoundAccessTokens,
    dpopNonceRequired: c.dpopNonceRequired,
    standardTokenExchangeEnabled: c.standardTokenExchangeEnabled,
    idTokenSignedResponseAlg: clientSigningAlg(c.idTokenSignedResponseAlg),
    accessTokenSignedResponseAlg: clientSigningAlg(c.accessTokenSignedResponseAlg),
    clientProfile: c.clientProfile,
    ...(c.browserFlowOverride ? { browserFlowOverride: c.browserFlowOverride } : {}),
    ...(c.directGrantFlowOverride ? { directGrantFlowOverride: c.directGrantFlowOverride } : {}),
    scopes: scopes.map((s) => ({ name: s.name, isDefault: s.isDefault, onConsentScreen: s.onConsentScreen, consentText: s.consentText })),
  };
}

function credentialsKey(realm: string, clientId: string): string {
  return `${realm}\0${clientId}`;
}
