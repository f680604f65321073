import { normaliseUserCode } from "../domain/user-code.js";
import { SSO_REUSED } from "../domain/acr.js";
import { errorReply, realmNotFound, pageOf, type FlowReply } from "./flow-reply.js";
import type { AuthorizationFlow } from "./authorization-flow.js";
import type { FlowKit, StepContext } from "./flow-kit.js";

/**
 * The device verification page (RFC 8628 section 3.3): the user enters the user code (or arrives
 * with it in verification_uri_complete), logs in unless an SSO session exists, sees the client and
 * scopes, and approves or denies (LoginSteps.submitConsent -> DeviceCodeRepository.decide).
 */
export class DeviceVerification {
  constructor(private readonly kit: FlowKit, private readonly authorization: AuthorizationFlow) {}

  async begin(ctx: StepContext, userCode: string): Promise<FlowReply> {
    const d = this.kit.d;
    const realm = await d.realms.get(ctx.realm);
    if (!realm) return realmNotFound();
    const code = normaliseUserCode(userCode);
    if (!code) return { outcome: { kind: "page", page: { step: "device_enter_code" } } };
    const device = await d.devices.findPendingByUserCode(realm.id, code);
    if (!device || device.expiresAt <= this.kit.now()) {
      return { outcome: { kind: "page", page: { step: "device_enter_code", userCode, message: "Invalid or expired code. Please check the code and try again." } } };
    }
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
