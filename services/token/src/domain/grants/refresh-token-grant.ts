import type { Clock } from "../../../../kit/src/store/port.js";
import type { SsoSessionRepository } from "../../store/sso-session-repository.js";
import type { RefreshFamilies } from "../refresh-families.js";
import { OFFLINE_ACCESS, splitScope, type TokenMinter } from "../token-minter.js";
import { invalidGrant, requireParam, type Grant, type GrantContext, type GrantResult } from "./grant-context.js";

/**
 * RFC 6749 section 6: a refresh token is bound to its client, rotated on every use (one
 * conditional update), and the scope never grows. A `scope` narrower than the original grant
 * gives tokens of that scope (access token `scope` and claims, an ID token only with `openid`);
 * the family keeps the original, so a later refresh without `scope` gets the original grant back
 * ("treated as equal to the scope originally granted"), as Keycloak keeps the refresh token's
 * scope. An online token also needs its SSO session.
 */
export class RefreshTokenGrant implements Grant {
  constructor(
    private readonly families: RefreshFamilies,
    private readonly sessions: SsoSessionRepository,
    private readonly minter: TokenMinter,
    private readonly clock: Clock,
  ) {}

  async issue(ctx: GrantContext): Promise<GrantResult> {
    const token = requireParam(ctx.params.refreshToken, "refresh_token");
    const family = await this.families.check(ctx.realm, token, ctx.client.clientId);
    if (family.ssoSessionId && !family.offline && !(await this.sessions.findById(ctx.realm.id, family.ssoSessionId))) {
      await this.families.repo.remove(ctx.realm.id, family._id);
      throw invalidGrant("the session has ended");
    }
    const ceiling = family.scope.split(" ").filter(Boolean);
    // An omitted (or empty) scope means the original grant (RFC 6749 section 6).
    const asked = splitScope(ctx.params.scope);
    const grant = await this.minter.grant(ctx.realm, ctx.client, family.userId, asked?.length ? asked : ceiling, ceiling);
    const rotated = await this.families.rotate(ctx.realm, family);
    const minted = await this.minter.mint(ctx.realm, ctx.issuer, ctx.client, {
      userId: family.userId, sid: family.sid, familyId: family._id, authTime: family.authTime, amr: family.amr,
    }, grant);
    return {
      accessToken: minted.accessToken, expiresIn: minted.expiresIn, refreshToken: rotated.token,
      refreshExpiresIn: Math.round((rotated.family.expiresAt - this.clock.now()) / 1000),
      idToken: minted.idToken, scope: minted.scope, sessionState: family.sid, userId: family.userId,
      details: { scope: minted.scope, refresh_token_type: family.offline || ceiling.includes(OFFLINE_ACCESS) ? "Offline" : "Refresh" },
    };
  }
}
