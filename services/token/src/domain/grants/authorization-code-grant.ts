import { createHash } from "node:crypto";
import { sha256Hex, safeEqual } from "../../../../kit/src/crypto/random.js";
import type { Clock } from "../../../../kit/src/store/port.js";
import type { AuthorizationCodeRepository } from "../../store/authorization-code-repository.js";
import type { AuthorizationCodeRecord } from "../authorization-code.js";
import type { RevokedTokenRepository } from "../../store/revoked-token-repository.js";
import type { SsoSessionRepository } from "../../store/sso-session-repository.js";
import { familyIdOfCode } from "../refresh-family.js";
import type { SessionTerminator } from "../session-terminator.js";
import { planAccessToken, splitScope, type PlannedAccessToken, type TokenMinter } from "../token-minter.js";
import { invalidGrant, requireParam, type Grant, type GrantContext, type GrantResult } from "./grant-context.js";
import { planLogin, type UserTokens } from "./user-tokens.js";
import { issuedTo } from "../client-binding.js";
import { acrOf } from "../acr.js";

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * RFC 6749 section 4.1.3: the code is consumed once (conditional update) within 60 s, bound to
 * the client, the redirect_uri and the PKCE challenge (RFC 7636 section 4.6, S256 only, DESIGN 5).
 * A second redemption is refused and revokes the tokens the first one issued (section 4.1.2): the
 * refresh family, whose id is derived from the code, and the access token, whose jti and exp the
 * consuming write recorded (a client without the refresh_token grant has no family, and its access
 * token no `fid` to die with). Issuing thus costs no write beyond the consumption and the family.
 */
export class AuthorizationCodeGrant implements Grant {
  constructor(
    private readonly codes: AuthorizationCodeRepository,
    private readonly sessions: SsoSessionRepository,
    private readonly terminator: SessionTerminator,
    private readonly minter: TokenMinter,
    private readonly tokens: UserTokens,
    private readonly revoked: RevokedTokenRepository,
    private readonly clock: Clock,
  ) {}

  async issue(ctx: GrantContext): Promise<GrantResult> {
    const code = requireParam(ctx.params.code, "code");
    const now = this.clock.now();
    const hash = sha256Hex(code);
    // The jti is fixed before the code is consumed, so a replay racing this request revokes it too.
    const access = planAccessToken(ctx.realm, now);
    const consumed = await this.codes.consume(hash, now, access);
    const record = consumed.record;
    if (!record) {
      const seen = await this.codes.findByHash(hash);
      if (seen && seen.realmId === ctx.realm.id && seen.consumedAt !== undefined) {
        // The deny list is stored (and swept only after the token's exp), so the revocation outlives a restart.
        if (seen.issuedAccessJti && seen.issuedAccessExpiresAt) await this.revoked.add(ctx.realm.id, seen.issuedAccessJti, seen.issuedAccessExpiresAt);
        // Marked before the family is revoked: a first redemption that has not created it yet
        // finds the mark once it has (below), so the family cannot outlive the replay.
        await this.codes.markReplayed(hash, now);
        await this.terminator.revokeFamily(ctx.realm, seen.issuedFamilyId ?? familyIdOfCode(hash));
        throw invalidGrant("authorization code was already used");
      }
      throw invalidGrant("invalid authorization code");
    }
    // The consume is on the disk before any answer: with the refresh family's flush when there is
    // one (no flush of its own), else with one of its own; a refused redemption burns the code too.
    try {
      const issued = await this.redeem(ctx, record, hash, access, now);
      await consumed.durable();
      return issued;
    } catch (e) {
      await consumed.durable().catch(() => undefined);
      throw e;
    }
  }

  /** The checks of a code this request consumed, and its tokens. */
  private async redeem(ctx: GrantContext, record: AuthorizationCodeRecord, hash: string, access: PlannedAccessToken, now: number): Promise<GrantResult> {
    if (record.realmId !== ctx.realm.id) throw invalidGrant("invalid authorization code");
    if (record.usableUntil <= now) throw invalidGrant("authorization code expired");
    if (!issuedTo(record, ctx.client)) throw invalidGrant("authorization code was issued to another client");
    // RFC 6749 section 4.1.3: redirect_uri must be identical to the authorization request's.
    if (record.redirectUri && ctx.params.redirectUri !== record.redirectUri) throw invalidGrant("redirect_uri does not match");
    this.checkPkce(ctx, record.codeChallenge, record.codeChallengeMethod);
    // RFC 9449 section 10: a code the authorization request bound (dpop_jkt) only with that key's proof.
    if (record.dpopJkt && record.dpopJkt !== ctx.dpopJkt) throw invalidGrant("the DPoP proof's key does not match the authorization request's dpop_jkt");
    const session = record.ssoSessionId ? await this.sessions.findById(ctx.realm.id, record.ssoSessionId) : null;
    if (!session) throw invalidGrant("the session of the authorization code has ended");
    const { login, session: claimsSession } = planLogin(ctx.client, {
      userId: record.userId, username: session.username, ssoSession: session, authTime: record.authTime,
      amr: record.amr, acr: acrOf(record.acr), nonce: record.nonce, familyId: familyIdOfCode(hash), accessToken: access,
      ...(session.impersonator ? { impersonator: session.impersonator } : {}),
    });
    const grant = await this.minter.grant(ctx.realm, ctx.client, record.userId, claimsSession, splitScope(record.scope) ?? []);
    const issued = await this.tokens.issue(ctx, login, grant);
    // A replay refused while this redemption was issuing found no family to revoke. It marked the
    // code first, so either this read sees the mark, or the replay's revocation came after the
    // family was stored and removed it. One read per redemption, no write.
    if (issued.refreshToken && (await this.codes.findByHash(hash))?.replayedAt !== undefined) {
      await this.terminator.revokeFamily(ctx.realm, familyIdOfCode(hash));
      throw invalidGrant("authorization code was already used");
    }
    return issued;
  }

  private checkPkce(ctx: GrantContext, challenge: string, method: string): void {
    const verifier = ctx.params.codeVerifier;
    if (!challenge) {
      // DESIGN 5: PUBLIC clients must use PKCE; a verifier without a challenge is a downgrade attempt.
      if (ctx.client.clientType === "PUBLIC") throw invalidGrant("PKCE is required for public clients");
      if (verifier) throw invalidGrant("code_verifier sent for a code without a code_challenge");
      return;
    }
    if (method !== "S256") throw invalidGrant("unsupported code_challenge_method");
    if (!verifier) throw invalidGrant("code_verifier is required");
    if (!VERIFIER.test(verifier)) throw invalidGrant("malformed code_verifier");
    const computed = createHash("sha256").update(verifier, "ascii").digest("base64url");
    if (!safeEqual(computed, challenge)) throw invalidGrant("PKCE verification failed");
  }
}
