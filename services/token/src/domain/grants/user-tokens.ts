import type { Clock } from "../../../../kit/src/store/port.js";
import type { RefreshFamilies } from "../refresh-families.js";
import type { SsoSessionRecord } from "../sso-session.js";
import type { SsoSessionKeepAlive } from "../sso-session-keep-alive.js";
import { OFFLINE_ACCESS, usesRefreshTokens } from "../offline-access.js";
import type { Acr } from "../acr.js";
import type { PlannedAccessToken, ScopeGrant, TokenMinter } from "../token-minter.js";
import { forLogin, loginEndOf } from "../session-max.js";
import { newFamilyId } from "../refresh-family.js";
import { NO_SESSION, claimsSession, type ClaimsSession } from "../claims-session.js";
import type { ClientInfo } from "../client-directory.js";
import { invalidGrant, type GrantContext, type GrantResult } from "./grant-context.js";

export interface UserLogin {
  userId: string;
  username: string;
  /** The SSO session the tokens are issued in, as read; null when there is none (password grant). */
  ssoSession: Pick<SsoSessionRecord, "_id" | "expiresAt" | "createdAt" | "rememberMe"> | null;
  authTime: number;
  amr: string[];
  /** Whether the user authenticated for this grant or the SSO session did (acr.ts). */
  acr: Acr;
  nonce: string;
  /**
   * The family id to use: the authorization code grant's, so a replay can find it; the one
   * planLogin chose for a login without an SSO session, whose family is its session.
   */
  familyId?: string;
  /** The access token's jti and exp, already recorded (authorization code grant, so a replay can revoke it). */
  accessToken?: PlannedAccessToken;
  /** The audience a token exchange narrowed the tokens to, kept by the refresh family. */
  audience?: string;
  /** The administrator impersonating the user (the SSO session's), for the `impersonator` claim. */
  impersonator?: { id: string; username: string };
}

/** A login with the session its tokens will belong to, known before its claims are resolved. */
export interface PlannedLogin {
  login: UserLogin;
  session: ClaimsSession;
}

/**
 * The session UserTokens.issue gives the tokens of `login` (their `sid`), for the claims resolved
 * before them (TokenMinter.grant): the SSO session; without one the refresh family, whose id is
 * therefore chosen here; without refresh tokens none (a password grant's). `client` is the one
 * the tokens are issued to.
 */
export function planLogin(client: ClientInfo, login: UserLogin): PlannedLogin {
  if (login.ssoSession) return { login, session: claimsSession(login.ssoSession._id, login.authTime) };
  if (!usesRefreshTokens(client)) return { login, session: NO_SESSION };
  const familyId = login.familyId ?? newFamilyId();
  return { login: { ...login, familyId }, session: claimsSession(familyId, login.authTime) };
}

/**
 * Issues a user's token pair: a refresh family (one store write) when the client uses refresh
 * tokens, offline (spec 2.6) when `offline_access` was granted, which only such a client gets
 * (offline-access.ts), then the signed JWTs. An online refresh token's SSO session is kept alive
 * as long as the token (SsoSessionKeepAlive), and refresh_expires_in is whichever of the two ends
 * first (RFC 6749 section 5.1).
 */
export class UserTokens {
  constructor(
    private readonly minter: TokenMinter,
    private readonly families: RefreshFamilies,
    private readonly keepAlive: SsoSessionKeepAlive,
    private readonly clock: Clock,
  ) {}

  async issue(ctx: GrantContext, login: UserLogin, grant: ScopeGrant): Promise<GrantResult> {
    const withRefresh = usesRefreshTokens(ctx.client);
    const offline = withRefresh && grant.names.includes(OFFLINE_ACCESS);
    let refreshToken = "";
    let refreshExpiresIn = 0;
    let familyId = "";
    const ssoSessionId = login.ssoSession?._id ?? "";
    let sid = ssoSessionId;
    if (withRefresh) {
      const sessionEnds = login.ssoSession && !offline ? await this.keepAlive.extend(ctx.realm, login.ssoSession) : Infinity;
      if (sessionEnds === null) throw invalidGrant("Session not active");
      const started = await this.families.start({
        realm: ctx.realm, client: ctx.client, userId: login.userId, username: login.username,
        ssoSessionId, ...(login.ssoSession ? { sessionStartedAt: login.ssoSession.createdAt, rememberMe: login.ssoSession.rememberMe } : {}), offline, scope: grant.names.join(" "), authTime: login.authTime,
        amr: login.amr, acr: login.acr, ipAddress: ctx.params.ipAddress, ...(login.familyId ? { familyId: login.familyId } : {}),
        // RFC 9449 section 5: a public client's refresh tokens are bound to its DPoP key; a
        // confidential client's are bound to it already by its authentication.
        ...(ctx.dpopJkt && ctx.client.clientType === "PUBLIC" ? { dpopJkt: ctx.dpopJkt } : {}),
        ...(login.audience ? { audience: login.audience } : {}),
      });
      refreshToken = started.token;
      refreshExpiresIn = Math.round((Math.min(started.family.expiresAt, sessionEnds) - this.clock.now()) / 1000);
      familyId = started.family._id;
      sid = started.family.sid;
    }
    const minted = await this.minter.mint(ctx.realm, ctx.issuer, ctx.client, {
      userId: login.userId, sid, familyId, authTime: login.authTime, amr: login.amr, acr: login.acr, nonce: login.nonce,
      ...(ctx.dpopJkt ? { jkt: ctx.dpopJkt } : {}), ...(login.impersonator ? { impersonator: login.impersonator } : {}),
      // An offline token's login has no end; an online one's began with its SSO session, or now.
      ...(offline ? {} : loginEndOf(forLogin(ctx.realm, login.ssoSession?.rememberMe), login.ssoSession?.createdAt ?? this.clock.now())),
    }, grant, login.accessToken);
    return {
      accessToken: minted.accessToken, expiresIn: minted.expiresIn, refreshToken, refreshExpiresIn,
      idToken: minted.idToken, scope: minted.scope, sessionState: sid, userId: login.userId,
      details: { scope: minted.scope, ...(offline ? { refresh_token_type: "Offline" } : refreshToken ? { refresh_token_type: "Refresh" } : {}) },
    };
  }
}
