import { IamError } from "../../../kit/src/errors.js";
import type { AccessTokens } from "./access-tokens.js";
import { looksLikeJwt } from "./access-tokens.js";
import { invalidClient, type ClientAuth, type PresentedClient } from "./client-auth.js";
import type { ClientDirectory } from "./client-directory.js";
import type { OAuthEvents } from "./oauth-events.js";
import type { OAuthRealm } from "./realm-settings.js";
import type { RefreshFamilies } from "./refresh-families.js";
import type { SessionTerminator } from "./session-terminator.js";
import type { RevokedTokenRepository } from "../store/revoked-token-repository.js";
import type { SsoSessionRepository } from "../store/sso-session-repository.js";
import type { TokenMinter } from "./token-minter.js";
import type { IntrospectedClaims } from "./introspected-claims.js";
import { claimsSession } from "./claims-session.js";
import { invalidRequest } from "./grants/grant-context.js";
import type { DpopBinding, PresentedAccess } from "./dpop-binding.js";

/** What TokenOperations works with. */
export interface TokenOperationsParts {
  auth: ClientAuth;
  access: AccessTokens;
  families: RefreshFamilies;
  sessions: SsoSessionRepository;
  revoked: RevokedTokenRepository;
  terminator: SessionTerminator;
  minter: TokenMinter;
  introspected: IntrospectedClaims;
  clients: ClientDirectory;
  events: OAuthEvents;
  dpop?: DpopBinding;
}

/** Introspection (RFC 7662), revocation (RFC 7009), userinfo (OIDC Core 5.3), logout (spec 3). */
export class TokenOperations {
  private readonly auth: ClientAuth;
  private readonly access: AccessTokens;
  private readonly families: RefreshFamilies;
  private readonly sessions: SsoSessionRepository;
  private readonly revoked: RevokedTokenRepository;
  private readonly terminator: SessionTerminator;
  private readonly minter: TokenMinter;
  private readonly introspected: IntrospectedClaims;
  private readonly clients: ClientDirectory;
  private readonly events: OAuthEvents;
  private readonly dpop?: DpopBinding;

  constructor(parts: TokenOperationsParts) {
    ({
      auth: this.auth, access: this.access, families: this.families, sessions: this.sessions, revoked: this.revoked,
      terminator: this.terminator, minter: this.minter, introspected: this.introspected, clients: this.clients, events: this.events,
    } = parts);
    if (parts.dpop) this.dpop = parts.dpop;
  }

  /**
   * RFC 7662 section 2.2: `{active: false}` for anything not active, never an error. Section 2.1
   * requires authorization: a PUBLIC client authenticates with its client_id alone, which anyone
   * can send, so it is refused as `invalid_client` (section 4, token scanning; Keycloak does too).
   */
  async introspect(realm: OAuthRealm, issuer: string, presented: PresentedClient, token: string, ip: string): Promise<Record<string, unknown>> {
    const client = await this.auth.authenticate(realm.name, presented);
    if (client.clientType === "PUBLIC") throw invalidClient("public clients may not introspect tokens");
    if (!token) throw invalidRequest("token is required");
    let result: Record<string, unknown> = { active: false };
    if (looksLikeJwt(token)) {
      const active = await this.access.activeLogin(realm, issuer, token);
      const p = active?.payload;
      // The access token's login, as its claims are resolved for (plugin mappers see it).
      const claims = p && await this.introspected.of(realm, p, active.client, claimsSession(typeof p.sid === "string" ? p.sid : "", active.authTime));
      if (p && claims) {
        // RFC 9449 section 6.2: a bound token's cnf (kept with the claims) and its DPoP type.
        const username = claims.preferred_username ?? p.preferred_username;
        result = {
          ...claims, active: true, client_id: p.azp, token_type: p.cnf ? "DPoP" : "Bearer",
          ...(typeof username === "string" ? { username } : {}),
        };
      }
    } else {
      const f = await this.families.findCurrent(realm, token);
      const online = !!f && f.ssoSessionId !== "" && !f.offline;
      const session = online ? await this.sessions.findById(realm.id, f.ssoSessionId) : null;
      // As an access token, a refresh token of a client since disabled or deleted is not active.
      const issuedTo = f && await this.clients.get(realm.name, f.clientId);
      if (f && (!online || session) && issuedTo?.enabled) {
        // An online token ends with its SSO session when that ends first (sso-session-keep-alive.ts).
        result = {
          active: true, token_type: f.offline ? "Offline" : "Refresh", iss: issuer, sub: f.userId, username: f.username,
          client_id: f.clientId, azp: f.clientId, scope: f.scope, sid: f.sid,
          iat: Math.floor(f.lastRefreshAt / 1000), exp: Math.floor(Math.min(f.expiresAt, session?.expiresAt ?? Infinity) / 1000),
          ...(f.dpopJkt ? { cnf: { jkt: f.dpopJkt } } : {}),
        };
      }
    }
    await this.events.record(realm, { type: "INTROSPECT_TOKEN", clientId: client.clientId, ipAddress: ip, details: { active: String(result.active) } });
    return result;
  }

  /**
   * RFC 7009 section 2.1: a refresh token ends its family (and with it the activity of the access
   * tokens issued from it); an access token is remembered as revoked until it expires. Unknown or
   * invalid tokens succeed too (section 2.2); another client's token is refused.
   */
  async revoke(realm: OAuthRealm, issuer: string, presented: PresentedClient, token: string, ip: string): Promise<void> {
    const client = await this.auth.authenticate(realm.name, presented);
    if (!token) throw invalidRequest("token is required");
    let userId = "";
    if (looksLikeJwt(token)) {
      const p = await this.access.verify(realm, issuer, token);
      if (p) {
        if (p.azp !== client.clientId) throw invalidRequest("the token was issued to another client");
        await this.revoked.add(realm.id, p.jti!, (p.exp ?? 0) * 1000);
        userId = p.sub!;
      }
    } else {
      const f = await this.families.findIssuer(realm, token);
      if (f) {
        if (f.clientId !== client.clientId) throw invalidRequest("the token was issued to another client");
        await this.terminator.revokeFamily(realm, f._id, false);
        userId = f.userId;
      }
    }
    await this.events.record(realm, { type: "REVOKE_GRANT", clientId: client.clientId, userId, ipAddress: ip });
  }

  /**
   * OIDC Core 1.0 section 5.3; an inactive token is 401 invalid_token (RFC 6750 section 3.1). The
   * token must come from an OpenID Connect request (section 5.3: it holds `openid`); otherwise 403
   * insufficient_scope (RFC 6750 section 3.1), as Keycloak answers, e.g. a client_credentials or
   * plain OAuth token.
   */
  async userinfo(realm: OAuthRealm, issuer: string, accessToken: string, presented?: PresentedAccess): Promise<Record<string, unknown>> {
    const active = accessToken ? await this.access.activeLogin(realm, issuer, accessToken) : null;
    if (!active) throw IamError.oauth("invalid_token", "the access token is not active", "unauthenticated");
    const p = active.payload;
    // RFC 9449 section 7.1: a bound token only with a proof of its key.
    if (this.dpop) await this.dpop.checkResource(realm.name, issuer, accessToken, p, presented ?? { scheme: "Bearer", proof: "", method: "GET" });
    const scopes = typeof p.scope === "string" ? p.scope.split(" ").filter(Boolean) : [];
    if (!scopes.includes("openid")) throw IamError.oauth("insufficient_scope", "Missing openid scope", "permissionDenied");
    // The access token's login, as its tokens' claims were resolved for (plugin mappers see it).
    const session = claimsSession(typeof p.sid === "string" ? p.sid : "", active.authTime);
    return this.minter.userinfo(realm, p.sub!, String(p.azp ?? ""), scopes, session);
  }

  /** Spec 3 and 4.16: logout with a refresh token ends its session; 204 (the gateway). */
  async logout(realm: OAuthRealm, presented: PresentedClient, refreshToken: string, ip: string): Promise<void> {
    const client = await this.auth.authenticate(realm.name, presented);
    if (!refreshToken) throw invalidRequest("refresh_token is required");
    const family = await this.families.check(realm, refreshToken, client);
    // The LOGOUT event goes with the session's end through the outbox: a crash cannot keep the logout and lose its record.
    await this.terminator.logout(realm, family, (stamp) => this.events.message(realm, { type: "LOGOUT", clientId: client.clientId, userId: family.userId, sessionId: family.sid, ipAddress: ip }, stamp));
  }
}
