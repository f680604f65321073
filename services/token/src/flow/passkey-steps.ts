import { AuthOutcome, RequiredAction } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import type { FlowKit, StepContext } from "./flow-kit.js";
import { pageOf, staleTransaction, type FlowReply } from "./flow-reply.js";
import { DISABLED_MESSAGE, type LoginSteps } from "./login-steps.js";
import { browserFlowFields } from "./browser-flow-plan.js";
import type { ClientInfo } from "../domain/client-directory.js";
import { INVALID_PASSKEY_MESSAGE, passkeyPage, promptPasskey, relyingParty, takeChallenge } from "./passkey-ceremony.js";

/**
 * The passkey steps of the login page (WebAuthn Level 2): "Sign in with a passkey" (a discoverable
 * credential names its user, so no username is typed), the passkey as a second factor after a
 * password, and registering a passkey (kc_action=webauthn-register-passwordless). Each submit takes
 * the transaction's challenge once (takeChallenge) before the directory verifies the response.
 */
export class PasskeySteps {
  constructor(private readonly kit: FlowKit, private readonly steps: LoginSteps) {}

  /** From the login page: an assertion with no allowCredentials (section 5.1.4: the authenticator picks). */
  async beginLogin(ctx: StepContext): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["login", "passkey"]);
    if ("outcome" in loaded) return loaded;
    const { realm, tx } = loaded;
    if (tx.userId) return staleTransaction();
    if (tx.kind !== "saml") {
      const client = await this.kit.currentClient(realm, ctx, tx);
      if ("outcome" in client) return client;
    }
    return promptPasskey(this.kit, realm, tx, ctx, "passkey", "");
  }

  async submit(ctx: StepContext, credential: string): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["passkey"]);
    if ("outcome" in loaded) return loaded;
    const { realm } = loaded;
    const taken = await takeChallenge(this.kit, loaded.tx);
    if (!taken) return staleTransaction();
    const secondFactor = !!taken.tx.userId;
    const res = await this.kit.d.passkeys.verifyAuthentication({
      realm: realm.name, userId: taken.tx.userId ?? "", rp: relyingParty(ctx, realm), expectedChallenge: taken.challenge, responseJson: credential,
    });
    const credentialType = secondFactor ? "webauthn" : "webauthn-passwordless";
    if (res.outcome !== AuthOutcome.OK) {
      await this.kit.d.events.record(realm, ctx, { ...taken.tx, credentialType }, {
        type: "LOGIN_ERROR", ...(res.userId ? { userId: res.userId } : {}), error: res.eventError || "invalid_user_credentials",
      });
      // A new challenge for the next try: the one just used is gone.
      const again = await promptPasskey(this.kit, realm, taken.tx, ctx, "passkey", taken.tx.userId ?? "");
      if (again.outcome.kind !== "page") return again;
      again.outcome.page.message = res.outcome === AuthOutcome.DISABLED ? DISABLED_MESSAGE : INVALID_PASSKEY_MESSAGE;
      return again;
    }
    // RFC 8176 section 2: "hwk" proof of possession of a hardware-secured key; "user" when the
    // authenticator verified the user (a PIN or biometric), which makes a passkey alone two factors.
    const amr = [...new Set([...taken.tx.amr, "hwk", ...(res.userVerified ? ["user"] : [])])];
    if (secondFactor) {
      const moved = await this.kit.d.txs.advance(taken.tx, { step: "otp", amr, credentialType }, ["passkeyOptions"]);
      if (!moved) return staleTransaction();
      return this.steps.next(realm, moved, ctx);
    }
    const status = await this.kit.d.auth.getUserStatus({ realm: realm.name, userId: res.userId });
    if (!status.exists || !status.enabled) return pageOf(taken.tx, "login", { message: DISABLED_MESSAGE });
    const pendingActions = status.requiredActions.map((a) => RequiredAction[a]).filter((a) => a !== "UNSPECIFIED" && a !== "CONFIGURE_TOTP");
    // Read for its flow override only: next() checks the client before any session, as it did.
    const client: ClientInfo | null = taken.tx.kind === "saml" ? null : await this.kit.d.clients.get(realm.name, taken.tx.clientId);
    // A custom browser flow decides what a passkey sign-in still owes (browser-flow-plan.ts).
    const fields = await browserFlowFields(this.kit, realm, taken.tx, ctx, client, {
      userId: res.userId, identifiedBy: "hwk", otpConfigured: status.otpConfigured, passkeyConfigured: true, pendingActions,
    });
    if (fields && "outcome" in fields) return fields;
    const moved = await this.kit.d.txs.advance(taken.tx, {
      step: "otp", userId: res.userId, username: res.username, credentialType,
      ...(fields ?? { otpRequired: false, passkeyRequired: false, pendingActions }),
      amr, authTime: this.kit.now(),
    }, ["passkeyOptions"]);
    if (!moved) return staleTransaction();
    return this.steps.next(realm, moved, ctx);
  }

  /** The registration page's post: the attestation (attestation "none", section 8.7) verified and stored. */
  async submitRegistration(ctx: StepContext, credential: string, label: string): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["passkey_register"]);
    if ("outcome" in loaded) return loaded;
    const { realm } = loaded;
    const taken = await takeChallenge(this.kit, loaded.tx);
    if (!taken || !taken.tx.userId) return staleTransaction();
    const res = await this.kit.d.passkeys.verifyRegistration({
      realm: realm.name, userId: taken.tx.userId, rp: relyingParty(ctx, realm), expectedChallenge: taken.challenge, responseJson: credential, label,
    });
    if (!res.verified) {
      const again = await promptPasskey(this.kit, realm, taken.tx, ctx, "passkey_register", taken.tx.userId);
      if (again.outcome.kind === "page") {
        again.outcome.page.message = res.error === "credential_exists" ? "This passkey is registered already." : "The passkey could not be registered.";
      }
      return again;
    }
    await this.kit.d.events.record(realm, ctx, taken.tx, { type: "UPDATE_CREDENTIAL", details: { credential_type: "webauthn-passwordless" } });
    const moved = await this.kit.d.txs.advance(taken.tx, { step: "otp", passkeyRegistered: true }, ["passkeyOptions"]);
    if (!moved) return staleTransaction();
    return this.steps.next(realm, moved, ctx);
  }
}

