import type { Identification } from "../../../kit/src/authentication-flows/flow-plan.js";
import type { ClientInfo } from "../domain/client-directory.js";
import type { FlowRealm } from "./flow-realms.js";
import type { FlowKit, StepContext } from "./flow-kit.js";
import { pageOf, type FlowReply } from "./flow-reply.js";
import type { LoginTransactionRecord } from "./login-transaction.js";

/** Keycloak's deny-access message. */
export const ACCESS_DENIED_MESSAGE = "Access denied.";
/** A passkey sign-in where the flow wants the password: the login page asks for the password instead. */
export const METHOD_REFUSED_MESSAGE = "Please sign in with your username and password.";

/** The user just identified, as the login step that identified them saw them. */
export interface IdentifiedUser {
  userId: string;
  identifiedBy: Identification;
  otpConfigured: boolean;
  passkeyConfigured: boolean;
  /** Their pending required actions (directory RequiredAction names). */
  pendingActions: string[];
}

/** What the login transaction carries of the flow: next() in login-steps.ts reads these. */
export type FlowFields = Required<Pick<LoginTransactionRecord, "otpRequired" | "passkeyRequired" | "passkeyEnrol" | "emailOtpRequired" | "pendingActions">> & Pick<LoginTransactionRecord, "pluginSteps">;

/**
 * The browser flow in force (the client's browserFlowOverride, else the realm's browserFlow)
 * turned into the transaction's fields once the user is identified: null for the built-in flow
 * (the caller keeps today's fields), else the owed steps. A REQUIRED or applying otp step for a
 * user without TOTP leads to its enrolment (Keycloak's CONFIGURE_TOTP); a passkey step for a
 * user without a passkey to its registration. A deny step answers the login page with Keycloak's
 * "Access denied." and a LOGIN_ERROR event, before any session exists.
 */
export async function browserFlowFields(
  kit: FlowKit, realm: FlowRealm, tx: LoginTransactionRecord, ctx: StepContext, client: ClientInfo | null, user: IdentifiedUser,
): Promise<FlowFields | FlowReply | null> {
  const flows = kit.d.flows;
  if (!flows) return null;
  const plan = await flows.plan({ realm, client: client ?? null }, "browser", user);
  if (!plan) return null;
  if (plan.deny || plan.methodRefused) {
    await kit.d.events.record(realm, ctx, tx, { type: "LOGIN_ERROR", userId: user.userId, error: plan.deny ? "access_denied" : "invalid_authentication_method" });
    return pageOf(tx, "login", { message: plan.deny ? ACCESS_DENIED_MESSAGE : METHOD_REFUSED_MESSAGE });
  }
  const actions = plan.requiredActions ? user.pendingActions : [];
  const enrolOtp = plan.otp && !user.otpConfigured;
  return {
    otpRequired: plan.otp && user.otpConfigured,
    passkeyRequired: plan.passkey && user.passkeyConfigured,
    passkeyEnrol: plan.passkey && !user.passkeyConfigured,
    emailOtpRequired: plan.emailOtp,
    // Each runs once the other factors are given (login-steps.ts next()).
    ...(plan.plugins.length > 0 ? { pluginSteps: plan.plugins } : {}),
    // The realm's "MFA required" still asks for TOTP enrolment (a required action), whatever the flow.
    pendingActions: enrolOtp ? ["CONFIGURE_TOTP", ...actions.filter((a) => a !== "CONFIGURE_TOTP")] : actions,
  };
}
