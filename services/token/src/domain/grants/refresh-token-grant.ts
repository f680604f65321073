import type { Clock } from "../../../../kit/src/store/port.js";
import type { SsoSessionRepository } from "../../store/sso-session-repository.js";
import type { RefreshFamilies } from "../refresh-families.js";
import type { RefreshFamilyRecord } from "../refresh-family.js";
import type { SsoSessionKeepAlive } from "../sso-session-keep-alive.js";
import { OFFLINE_ACCESS } from "../offline-access.js";
import { acrOf } from "../acr.js";
import { splitScope, withAudience, type TokenMinter } from "../token-minter.js";
import { claimsSession } from "../claims-session.js";
import { forLogin, loginEndOf } from "../session-max.js";
import { invalidGrant, requireParam, type Grant, type GrantContext, type GrantResult } from "./grant-context.js";

/**
 * RFC 6749 section 6: a refresh token is bound to its client, rotated on every use (one
 * conditional update), and the scope never grows. A `scope` narrower than the original grant
 * gives tokens of that scope (access token `scope` and claims, an ID token only with `openid`);
 * the family keeps the original, so a later refresh without `scope` gets the original grant back
 * ("treated as equal to the scope originally granted"), as Keycloak keeps the refresh token's
 * scope. An online token also needs its SSO session, which the refresh keeps alive as long as the
 * new token (SsoSessionKeepAlive); refresh_expires_in is whichever of the two ends first.
 */
export class RefreshTokenGrant implements Grant {
  constructor(
    private readonly families: RefreshFamilies,
    private readonly sessions: SsoSessionRepository,
    private readonly keepAlive: SsoSessionKeepAlive,
    private readonly minter: TokenMinter,
    private readonly clock: Clock,
  ) {}

  async issue(ctx: GrantContext): Promise<GrantResult> {
    const token = requireParam(ctx.params.refreshToken, "refresh_token");
    const family = await this.families.check(ctx.realm, token, ctx.client);
    // RFC 9449 section 5: a bound refresh token only with a proof by the same key.
    if (family.dpopJkt && family.dpopJkt !== ctx.dpopJkt) throw invalidGrant("the refresh token is bound to a DPoP key this request does not prove");
    const online = family.ssoSessionId !== "" && !family.offline;
    const session = online ? await this.sessions.findById(ctx.realm.id, family.ssoSessionId) : null;
    if (online && !session) return this.sessionEnded(ctx, family);
    const ceiling = family.scope.split(" ").filter(Boolean);
    // An omitted (or empty) scope means the original grant (RFC 6749 section 6).
    const asked = splitScope(ctx.params.scope);
    const resolved = await this.minter.grant(ctx.realm, ctx.client, family.userId, claimsSession(family.sid, family.authTime), asked?.length ? asked : ceiling, ceiling);
    // A family a token exchange started keeps the audience it chose (RFC 8693 section 2.1).
    const grant = family.audience ? withAudience(resolved, family.audience) : resolved;
    // An offline session lasts while its user may have one: without the offline_access role now
    // (removed from the user, or the role deleted) it ends, whichever scope this refresh asks for.
    // Before, a refresh naming the scope was invalid_scope and one narrowing it away succeeded.
    if (family.offline && !grant.realmRoles.includes(OFFLINE_ACCESS)) {
      await this.families.repo.remove(ctx.realm.id, family._id);
      throw invalidGrant("the user may no longer obtain offline tokens");
    }
    const rotated = await this.families.rotate(ctx.realm, family);
    // After the rotation, so only the request that consumed the token extends the session; a
    // logout that ended it meanwhile is not undone (the extension is conditional).
    const sessionEnds = session ? await this.keepAlive.extend(ctx.realm, session) : Infinity;
    if (sessionEnds === null) return this.sessionEnded(ctx, family);
    const minted = await this.minter.mint(ctx.realm, ctx.issuer, ctx.client, {
      userId: family.userId, sid: family.sid, familyId: family._id, authTime: family.authTime, amr: family.amr, acr: acrOf(family.acr),
      ...(ctx.dpopJkt ? { jkt: ctx.dpopJkt } : {}), ...(session?.impersonator ? { impersonator: session.impersonator } : {}),
      ...(family.offline ? {} : loginEndOf(forLogin(ctx.realm, family.rememberMe), family.sessionStartedAt ?? family.createdAt)),
    }, grant);
    return {
      accessToken: minted.accessToken, expiresIn: minted.expiresIn, refreshToken: rotated.token,
      refreshExpiresIn: Math.round((Math.min(rotated.family.expiresAt, sessionEnds) - this.clock.now()) / 1000),
      idToken: minted.idToken, scope: minted.scope, sessionState: family.sid, userId: family.userId,
      details: { scope: minted.scope, refresh_token_type: family.offline || ceiling.includes(OFFLINE_ACCESS) ? "Offline" : "Refresh" },
    };
  }

  private async sessionEnded(ctx: GrantContext, family: RefreshFamilyRecord): Promise<never> {
    await this.families.repo.remove(ctx.realm.id, family._id);
    throw invalidGrant("Session not active");
  }
}
