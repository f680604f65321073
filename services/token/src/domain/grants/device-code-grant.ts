import { sha256Hex } from "../../../../kit/src/crypto/random.js";
import type { SecretBox } from "../../../../kit/src/crypto/secret-box.js";
import { IamError } from "../../../../kit/src/errors.js";
import type { Clock } from "../../../../kit/src/store/port.js";
import type { DeviceCodeRepository } from "../../store/device-code-repository.js";
import type { SsoSessionRepository } from "../../store/sso-session-repository.js";
import { deviceCodeExpiry } from "../device-authorization.js";
import { splitScope, type TokenMinter } from "../token-minter.js";
import { invalidGrant, requireParam, type Grant, type GrantContext, type GrantResult } from "./grant-context.js";
import { planLogin, type UserTokens } from "./user-tokens.js";
import { issuedTo } from "../client-binding.js";
import { acrOf } from "../acr.js";

/** RFC 8628 section 3.5: the interval grows by 5 s on each slow_down. */
const SLOW_DOWN_STEP = 5;

/**
 * RFC 8628 section 3.4-3.5: the device polls with its device_code until the user decided on
 * the verification page. Errors: authorization_pending, slow_down, expired_token, access_denied.
 * An approved code hands out its tokens once, and only while the SSO session that approved it
 * lives: as an authorization code (authorization-code-grant.ts), a code whose session ended
 * (logout, admin revoke, user disabled...) before the poll is consumed and refused with
 * invalid_grant (RFC 6749 section 5.2; Keycloak alike), offline_access included: an offline
 * session too starts from a live login, and the code grant refuses it the same way.
 */
export class DeviceCodeGrant implements Grant {
  constructor(
    private readonly codes: DeviceCodeRepository,
    private readonly sessions: SsoSessionRepository,
    private readonly minter: TokenMinter,
    private readonly tokens: UserTokens,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
  ) {}

  async issue(ctx: GrantContext): Promise<GrantResult> {
    const deviceCode = requireParam(ctx.params.deviceCode, "device_code");
    const now = this.clock.now();
    const record = await this.codes.findByHash(sha256Hex(deviceCode));
    if (!record || record.realmId !== ctx.realm.id) {
      // The store forgets expired codes; a code of ours says itself when it expired.
      const expiry = deviceCodeExpiry(this.secrets, deviceCode, ctx.realm.id, ctx.client.clientId);
      if (expiry !== null && expiry <= now) throw IamError.oauth("expired_token", "the device code has expired");
      throw invalidGrant("invalid device code");
    }
    if (!issuedTo(record, ctx.client)) throw invalidGrant("device code was issued to another client");
    if (record.expiresAt <= now) throw IamError.oauth("expired_token", "the device code has expired");
    if (record.status === "denied") throw IamError.oauth("access_denied", "the user denied the authorization");
    if (record.status === "pending") {
      const tooSoon = record.lastPolledAt > 0 && now < record.lastPolledAt + record.interval * 1000;
      await this.codes.recordPoll(record._id, now, tooSoon ? record.interval + SLOW_DOWN_STEP : record.interval);
      if (tooSoon) throw IamError.oauth("slow_down", "polling too fast");
      throw IamError.oauth("authorization_pending", "the user has not yet decided");
    }
    const approved = await this.codes.consumeApproved(record._id, now);
    if (!approved || !approved.userId) throw invalidGrant("device code was already used");
    const session = approved.ssoSessionId ? await this.sessions.findById(ctx.realm.id, approved.ssoSessionId) : null;
    if (!session) throw invalidGrant("the session that approved the device code has ended");
    const { login, session: claimsSession } = planLogin(ctx.client, {
      userId: approved.userId, username: session.username, ssoSession: session,
      authTime: approved.authTime ?? now, amr: approved.amr ?? [], acr: acrOf(approved.acr), nonce: "",
    });
    const grant = await this.minter.grant(ctx.realm, ctx.client, approved.userId, claimsSession, splitScope(approved.scope) ?? []);
    return this.tokens.issue(ctx, login, grant);
  }
}
