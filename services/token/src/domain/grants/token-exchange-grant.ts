import { IamError } from "../../../../kit/src/errors.js";
import type { AccessTokens } from "../access-tokens.js";
import { acrOf, type Acr } from "../acr.js";
import type { ClientDirectory } from "../client-directory.js";
import { OFFLINE_ACCESS, usesRefreshTokens } from "../offline-access.js";
import { audiencesOf, splitScope, withAudience, type ScopeGrant, type TokenMinter } from "../token-minter.js";
import type { RefreshFamilyRepository } from "../../store/refresh-family-repository.js";
import type { SsoSessionRepository } from "../../store/sso-session-repository.js";
import { planLogin, type PlannedLogin, type UserLogin, type UserTokens } from "./user-tokens.js";
import { claimsSession } from "../claims-session.js";
import { invalidGrant, invalidRequest, requireParam, type Grant, type GrantContext, type GrantResult } from "./grant-context.js";

export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
/** RFC 8693 section 3: the token type identifiers this exchange takes and issues. */
export const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
export const REFRESH_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:refresh_token";

/**
 * Standard token exchange (RFC 8693; Keycloak's internal-to-internal "standard token exchange"):
 * a CONFIDENTIAL client allowed to (ClientInfo.standardTokenExchangeEnabled, checked by the
 * endpoint) trades an active access token of this realm that is aimed at it (its `aud` names the
 * client, Keycloak's rule) for one aimed at another client of the realm (`audience`).
 *
 * - The scope only narrows: a `scope` must lie within the subject token's (`invalid_scope`
 *   otherwise), and without one the new token holds the subject token's scopes the client has.
 *   offline_access is never exchanged (an offline session is the user's consent to one client).
 * - The audience must be one the client's own mappers give this user's tokens (audience mappers,
 *   the roles scope's audience resolve), as Keycloak requires ("available" audiences): the
 *   permission alone never lets a client aim tokens at any client of the realm. An unknown or
 *   unavailable audience is `invalid_target` (RFC 8693 section 2.2.2).
 * - The new token keeps the subject token's session (`sid`, `fid`): it dies with it, and never
 *   outlives the subject token.
 * - `requested_token_type` refresh_token adds a refresh token, for a client that uses refresh
 *   tokens and a subject token of a login with one; the family keeps the audience for its refreshes.
 * - No delegation (`actor_token`) and no `resource` (RFC 8707): both are refused, not ignored.
 */
export class TokenExchangeGrant implements Grant {
  constructor(
    private readonly access: AccessTokens,
    private readonly clients: ClientDirectory,
    private readonly families: RefreshFamilyRepository,
    private readonly sessions: SsoSessionRepository,
    private readonly minter: TokenMinter,
    private readonly userTokens: UserTokens,
  ) {}

  async issue(ctx: GrantContext): Promise<GrantResult> {
    const { realm, client } = ctx;
    const x = ctx.params.exchange;
    if (client.clientType === "PUBLIC") throw IamError.oauth("unauthorized_client", "a PUBLIC client may not exchange tokens");
    if (x?.actorToken) throw invalidRequest("actor_token (delegation) is not supported");
    if (x?.resource) throw IamError.oauth("invalid_target", "resource is not supported: name the target client in audience");
    const subjectToken = requireParam(x?.subjectToken ?? "", "subject_token");
    const subjectType = requireParam(x?.subjectTokenType ?? "", "subject_token_type");
    if (subjectType !== ACCESS_TOKEN_TYPE) throw invalidRequest(`subject_token_type must be ${ACCESS_TOKEN_TYPE}`);
    const requestedType = x?.requestedTokenType || ACCESS_TOKEN_TYPE;
    if (requestedType !== ACCESS_TOKEN_TYPE && requestedType !== REFRESH_TOKEN_TYPE) {
      throw invalidRequest(`requested_token_type must be ${ACCESS_TOKEN_TYPE} or ${REFRESH_TOKEN_TYPE}`);
    }
    if (requestedType === REFRESH_TOKEN_TYPE && !usesRefreshTokens(client)) {
      throw invalidRequest("the client does not use refresh tokens: requested_token_type refresh_token is not allowed");
    }
    const active = await this.access.activeLogin(realm, ctx.issuer, subjectToken);
    if (!active) throw invalidGrant("subject_token is not active");
    const subject = active.payload;
    if (!audiencesOf(subject.aud).includes(client.clientId)) {
      throw IamError.oauth("access_denied", "the client is not within the subject token's audience", "permissionDenied");
    }
    const held = typeof subject.scope === "string" ? subject.scope.split(" ").filter(Boolean) : [];
    const asked = splitScope(ctx.params.scope);
    if (asked?.includes(OFFLINE_ACCESS)) throw IamError.oauth("invalid_scope", "offline_access cannot be obtained by token exchange");
    const wider = asked?.find((s) => !held.includes(s));
    if (wider) throw IamError.oauth("invalid_scope", `scope "${wider}" exceeds the subject token's scope`);
    const ceiling = held.filter((s) => s !== OFFLINE_ACCESS);
    const userId = subject.sub!;
    const audience = x?.audience ?? "";
    const fid = typeof subject.fid === "string" ? subject.fid : "";
    const sid = typeof subject.sid === "string" ? subject.sid : "";
    // The login the new tokens belong to, before their claims are resolved (plugin mappers see
    // it): a new refresh family's, or else the subject token's.
    const refresh = requestedType === REFRESH_TOKEN_TYPE ? await this.refreshLogin(ctx, fid, audience) : undefined;
    const session = refresh?.session ?? claimsSession(sid, active.authTime);
    let grant = await this.minter.grant(realm, client, userId, session, asked?.length ? asked : ceiling, ceiling);
    if (audience) grant = await this.aimed(realm.name, client.clientId, grant, audience);

    const details: Record<string, string> = {
      scope: grant.names.join(" "), subject_token_client_id: typeof subject.azp === "string" ? subject.azp : "",
      requested_token_type: requestedType, ...(audience ? { audience } : {}),
    };
    if (refresh) return this.withRefresh(ctx, refresh.login, grant, details);
    const acr = typeof subject.acr === "string" && (subject.acr === "0" || subject.acr === "1") ? (subject.acr as Acr) : undefined;
    const minted = await this.minter.mint(realm, ctx.issuer, client, {
      userId, sid, familyId: fid, ...(acr ? { acr } : {}),
      // RFC 9449: a DPoP proof with the request binds the new token to its key, as for every grant.
      ...(ctx.dpopJkt ? { jkt: ctx.dpopJkt } : {}),
      // Never past the subject token: an exchange does not extend what the user's login granted.
      loginEndsAt: (subject.exp ?? 0) * 1000,
    }, grant);
    return {
      accessToken: minted.accessToken, expiresIn: minted.expiresIn, refreshToken: "", refreshExpiresIn: 0, idToken: "",
      scope: minted.scope, sessionState: sid, userId, details, issuedTokenType: ACCESS_TOKEN_TYPE,
    };
  }

  /**
   * The grant aimed at `audience` alone, when that is a client of the realm the grant may reach:
   * one of the audiences the token would carry without the parameter (the mapped ones, or the
   * requesting client itself when no mapper names any).
   */
  private async aimed(realmName: string, clientId: string, grant: ScopeGrant, audience: string): Promise<ScopeGrant> {
    const target = await this.clients.get(realmName, audience);
    if (!target || !target.enabled) throw IamError.oauth("invalid_target", `audience "${audience}" is not a client of this realm`);
    const mapped = audiencesOf(grant.accessClaims.aud);
    if (!(mapped.length ? mapped : [clientId]).includes(audience)) {
      throw IamError.oauth("invalid_target", `audience "${audience}" is not available to the client`);
    }
    return withAudience(grant, audience);
  }

  /**
   * The login of a new refresh family of the client, in the subject token's SSO session when it
   * has one. Its facts (user, auth_time, amr, acr) come from the subject token's own refresh
   * family, so a subject token without one (client_credentials, or a client without refresh
   * tokens) is refused.
   */
  private async refreshLogin(ctx: GrantContext, fid: string, audience: string): Promise<PlannedLogin> {
    const family = fid ? await this.families.get(ctx.realm.id, fid) : null;
    if (!family) throw invalidRequest("the subject token has no refresh session: requested_token_type refresh_token is not available");
    const online = family.ssoSessionId !== "" && !family.offline;
    const session = online ? await this.sessions.findById(ctx.realm.id, family.ssoSessionId) : null;
    if (online && !session) throw invalidGrant("subject_token is not active");
    return planLogin(ctx.client, {
      userId: family.userId, username: family.username, ssoSession: session, authTime: family.authTime, amr: family.amr,
      acr: acrOf(family.acr), nonce: "", ...(audience ? { audience } : {}),
    });
  }

  /** Access and refresh token of `login` (refreshLogin). */
  private async withRefresh(ctx: GrantContext, login: UserLogin, grant: ScopeGrant, details: Record<string, string>): Promise<GrantResult> {
    const result = await this.userTokens.issue(ctx, login, grant);
    // RFC 8693 section 2.2.1: the issued token is the access token; no ID token (none was asked for).
    return { ...result, idToken: "", details: { ...details, ...result.details }, issuedTokenType: REFRESH_TOKEN_TYPE };
  }
}
