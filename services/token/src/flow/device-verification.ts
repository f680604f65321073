import { normaliseUserCode } from "../domain/user-code.js";
import { SSO_REUSED } from "../domain/acr.js";
import { FailureLimiter, type FailureLimits } from "../domain/failure-limiter.js";
import type { FailureWindowRepository } from "../store/failure-window-repository.js";
import { errorReply, realmNotFound, pageOf, type FlowReply } from "./flow-reply.js";
import type { AuthorizationFlow } from "./authorization-flow.js";
import { rateLimitAddress } from "../../../kit/src/rate-limit-address.js";
import type { FlowKit, StepContext } from "./flow-kit.js";

/** The bound on failed user-code lookups unless configured (TESSERA_DEVICE_USER_CODE_FAILURES / _WINDOW_SECONDS). */
export const USER_CODE_FAILURES: FailureLimits = { limit: 10, windowMs: 60_000 };

export const TOO_MANY_USER_CODES = "Too many invalid or expired codes were entered. Please try again later.";

/**
 * The device verification page (RFC 8628 section 3.3): the user enters the user code (or arrives
 * with it in verification_uri_complete), logs in unless an SSO session exists, sees the client and
 * scopes, and approves or denies (LoginSteps.submitConsent -> DeviceCodeRepository.decide).
 *
 * Failed lookups are bounded per realm and client IP (RFC 8628 section 5.1: the user code's
 * ~2^34.6 combinations are only safe with the verification endpoint rate-limited): past
 * `limit` invalid or expired codes within the window, every lookup from that IP, a right code
 * included, is a 429 page with Retry-After until the oldest failure leaves the window. This
 * bound is always on, unlike the realm's rateLimitPerIp (0, off, by default), which the gateway
 * also applies to these lookups. It is kept here, where the lookup's outcome is known, rather
 * than in the gateway, which would have to read failure out of the rendered page; and so it
 * also binds a first-party caller of BeginDeviceVerification over gRPC. The counts live in the
 * token service's store, so in a cluster every replica counts against the one bound.
 */
export class DeviceVerification {
  private readonly failures: FailureLimiter;

  constructor(private readonly kit: FlowKit, private readonly authorization: AuthorizationFlow, windows: FailureWindowRepository, limits: FailureLimits = USER_CODE_FAILURES) {
    this.failures = new FailureLimiter(windows, kit.d.clock, limits);
  }

  async begin(ctx: StepContext, userCode: string): Promise<FlowReply> {
    const d = this.kit.d;
    const realm = await d.realms.get(ctx.realm);
    if (!realm) return realmNotFound();
    const code = normaliseUserCode(userCode);
    if (!code) return { outcome: { kind: "page", page: { step: "device_enter_code" } } };
    // The realm's id, not its name: a realm deleted and created again under the name starts afresh.
    // An IPv6 client counts by its /64 (rate-limit-address.ts).
    const key = `${realm.id}\0${rateLimitAddress(ctx.ipAddress)}`;
    // Counted as a failure before the lookup, taken back when the code is found: concurrent
    // guesses cannot all pass before the first of them is known to have failed.
    const attempt = await this.failures.attempt(key);
    if (attempt.retryAfter > 0) {
      return { outcome: { kind: "error", error: "too_many_requests", description: TOO_MANY_USER_CODES, status: 429, retryAfter: attempt.retryAfter } };
    }
    const device = await d.devices.findPendingByUserCode(realm.id, code);
    if (!device || device.expiresAt <= this.kit.now()) {
      return { outcome: { kind: "page", page: { step: "device_enter_code", userCode, message: "Invalid or expired code. Please check the code and try again." } } };
    }
    await attempt.succeeded();
    if (!ctx.browserId) return errorReply("invalid_request", "Cookies are required to log in.");
    const client = await d.clients.get(realm.name, device.clientId);
    if (!client || !client.enabled) return errorReply("invalid_client", "The application is unknown or disabled.");
    const fields = {
      kind: "device" as const, clientId: client.clientId, clientName: client.name || client.clientId, scope: device.scope,
      deviceCodeId: device._id, userCode: device.userCode,
    };
    // As at /auth: the SSO session approves only for a user who may still use it and owes no
    // required action; otherwise the login page, whose steps run UPDATE_PASSWORD, CONFIGURE_TOTP...
    // before the consent (a device must not be connected past a pending password reset or MFA setup).
    const { session, pendingActions } = await this.kit.liveSession(realm, ctx.ssoCookie);
    if (session && !pendingActions) {
      const tx = await this.kit.newTransaction(realm, ctx, {
        ...fields, step: "consent", userId: session.userId, username: session.username, amr: session.amr,
        authTime: session.authTime, ssoSessionId: session._id, acr: SSO_REUSED,
      });
      return this.authorization.complete(realm, tx, session, ctx, undefined, client);
    }
    const tx = await this.kit.newTransaction(realm, ctx, {
      ...fields, step: "login", ...(session ? { priorSessionId: session._id } : {}),
    });
    return pageOf(tx, "login", { username: session?.username });
  }
}
