import type { Clock } from "../../../../kit/src/store/port.js";
import type { RefreshFamilies } from "../refresh-families.js";
import { OFFLINE_ACCESS, type PlannedAccessToken, type ScopeGrant, type TokenMinter } from "../token-minter.js";
import type { GrantContext, GrantResult } from "./grant-context.js";

export interface UserLogin {
  userId: string;
  username: string;
  /** "" when the grant has no SSO session (password grant). */
  ssoSessionId: string;
  authTime: number;
  amr: string[];
  nonce: string;
  /** The family id to use (authorization code grant, so a replay can find it). */
  familyId?: string;
  /** The access token's jti and exp, already recorded (authorization code grant, so a replay can revoke it). */
  accessToken?: PlannedAccessToken;
}

/**
 * Issues a user's token pair: a refresh family (one store write) when the client uses refresh
 * tokens or asked for `offline_access` (an offline token, spec 2.6), then the signed JWTs.
 */
export class UserTokens {
  constructor(private readonly minter: TokenMinter, private readonly families: RefreshFamilies, private readonly clock: Clock) {}

  async issue(ctx: GrantContext, login: UserLogin, grant: ScopeGrant): Promise<GrantResult> {
    const offline = grant.names.includes(OFFLINE_ACCESS);
    const withRefresh = offline || ctx.client.grantTypes.includes("refresh_token");
    let refreshToken = "";
    let refreshExpiresIn = 0;
    let familyId = "";
    let sid = login.ssoSessionId;
    if (withRefresh) {
      const started = await this.families.start({
        realm: ctx.realm, clientId: ctx.client.clientId, userId: login.userId, username: login.username,
        ssoSessionId: login.ssoSessionId, offline, scope: grant.names.join(" "), authTime: login.authTime,
        amr: login.amr, ipAddress: ctx.params.ipAddress, ...(login.familyId ? { familyId: login.familyId } : {}),
      });
      refreshToken = started.token;
      refreshExpiresIn = Math.round((started.family.expiresAt - this.clock.now()) / 1000);
      familyId = started.family._id;
      sid = started.family.sid;
    }
    const minted = await this.minter.mint(ctx.realm, ctx.issuer, ctx.client, {
      userId: login.userId, sid, familyId, authTime: login.authTime, amr: login.amr, nonce: login.nonce,
    }, grant, login.accessToken);
    return {
      accessToken: minted.accessToken, expiresIn: minted.expiresIn, refreshToken, refreshExpiresIn,
      idToken: minted.idToken, scope: minted.scope, sessionState: sid, userId: login.userId,
      details: { scope: minted.scope, ...(offline ? { refresh_token_type: "Offline" } : refreshToken ? { refresh_token_type: "Refresh" } : {}) },
    };
  }
}
