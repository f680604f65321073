import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { RequiredAction } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import type { UserService } from "../../../../gen/iam/directory/v1/user_pb.js";
import type { FlowRealm } from "./flow-realms.js";
import { errorReply, pageOf, staleTransaction, type FlowReply } from "./flow-reply.js";
import type { FlowKit, StepContext } from "./flow-kit.js";
import type { LoginTransactionRecord } from "./login-transaction.js";

/** Keycloak's termsAndConditionsDeclined message: the login's end when the terms are declined. */
export const TERMS_DECLINED_MESSAGE = "You need to agree to Terms and Conditions";

export interface ProfileFields {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
}

type Next = (realm: FlowRealm, tx: LoginTransactionRecord, ctx: StepContext) => Promise<FlowReply>;

/**
 * The two required actions whose pages only a login shows: Keycloak's Terms and Conditions
 * (TermsAndConditions) and Update Profile (UpdateProfile). Each runs once the user is
 * authenticated and before a session exists (LoginSteps.next), on a page bound to the transaction,
 * its browser and its CSRF token like the other steps; a post for a step that is not the
 * transaction's gets the stale page. The directory removes the action from the user's list with
 * the write that carries it out.
 */
export class ProfileAndTermsSteps {
  constructor(private readonly kit: FlowKit, private readonly users: Client<typeof UserService>, private readonly next: Next) {}

  /** Reached from LoginSteps.next. */
  async promptTerms(tx: LoginTransactionRecord): Promise<FlowReply> {
    const moved = tx.step === "terms" ? tx : await this.kit.d.txs.advance(tx, { step: "terms" });
    if (!moved) return staleTransaction();
    return pageOf(moved, "terms");
  }

  /**
   * Accepted: recorded on the user (terms-acceptance.ts) and the login goes on. Declined: the login
   * ends with Keycloak's message and no session or code, its LOGIN_ERROR carrying Keycloak's
   * rejected_by_user (what Keycloak records when a required action fails) and the action's name.
   */
  async submitTerms(ctx: StepContext, accept: boolean): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["terms"]);
    if ("outcome" in loaded) return loaded;
    const { realm, tx } = loaded;
    if (!accept) {
      if (!(await this.kit.d.txs.finish(tx))) return staleTransaction();
      await this.kit.d.events.record(realm, ctx, tx, {
        type: tx.kind === "actions" ? "EXECUTE_ACTIONS_ERROR" : "LOGIN_ERROR", error: "rejected_by_user",
        details: { custom_required_action: "TERMS_AND_CONDITIONS" },
      });
      return errorReply("access_denied", TERMS_DECLINED_MESSAGE, 403);
    }
    await this.kit.d.auth.acceptTerms({ realm: realm.name, userId: tx.userId ?? "" });
    const moved = await this.kit.d.txs.advance(tx, { step: "otp", pendingActions: withoutAction(tx, "TERMS_AND_CONDITIONS") });
    if (!moved) return staleTransaction();
    return this.next(realm, moved, ctx);
  }

  /** Reached from LoginSteps.next: the form with the user's profile as it is. */
  async promptProfile(realm: FlowRealm, tx: LoginTransactionRecord): Promise<FlowReply> {
    const moved = tx.step === "update_profile" ? tx : await this.kit.d.txs.advance(tx, { step: "update_profile" });
    if (!moved) return staleTransaction();
    const own = await this.users.getOwnProfile({ realm: realm.name, userId: tx.userId ?? "" });
    const u = own.user;
    return pageOf(moved, "update_profile", {
      username: u?.username ?? "", email: u?.email ?? "", firstName: u?.firstName ?? "", lastName: u?.lastName ?? "", usernameEditable: own.usernameEditable,
    });
  }

  /**
   * The profile as the account console changes it (the directory's UpdateOwnProfile: the same
   * checks, the username only under editUsernameAllowed), the action removed in the same write.
   * A refusal shows the form again with the message and the values typed. Events as the account
   * API records them: UPDATE_PROFILE (with previous_/updated_username on a rename), and
   * UPDATE_EMAIL when the address changed.
   */
  async submitProfile(ctx: StepContext, fields: ProfileFields): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["update_profile"]);
    if ("outcome" in loaded) return loaded;
    const { realm, tx } = loaded;
    const own = await this.users.getOwnProfile({ realm: realm.name, userId: tx.userId ?? "" });
    const typed = { email: fields.email.trim(), firstName: fields.firstName.trim(), lastName: fields.lastName.trim() };
    const again = (message: string): FlowReply => pageOf(tx, "update_profile", {
      username: own.usernameEditable ? fields.username : own.user?.username ?? "", ...typed, usernameEditable: own.usernameEditable, message,
    });
    // Keycloak's default user profile requires all three (its missingEmailMessage and the like).
    const missing = !typed.email ? "Please specify email." : !typed.firstName ? "Please specify first name." : !typed.lastName ? "Please specify last name." : "";
    if (missing) return again(missing);
    let r;
    try {
      r = await this.users.updateOwnProfile({
        realm: realm.name, userId: tx.userId ?? "", ...typed, ...(own.usernameEditable ? { username: fields.username.trim() } : {}), completeUpdateProfile: true,
      });
    } catch (e) {
      const ce = ConnectError.from(e);
      if (ce.code === Code.InvalidArgument || ce.code === Code.AlreadyExists) return again(ce.rawMessage);
      throw e;
    }
    const username = r.user?.username ?? r.previousUsername;
    await this.kit.d.events.record(realm, ctx, tx, {
      type: "UPDATE_PROFILE", ...(username !== r.previousUsername ? { details: { previous_username: r.previousUsername, updated_username: username } } : {}),
    });
    if (r.user && r.user.email !== r.previousEmail) {
      await this.kit.d.events.record(realm, ctx, tx, { type: "UPDATE_EMAIL", details: { previous_email: r.previousEmail, updated_email: r.user.email } });
    }
    // A new address is not verified: where the realm (or the user's list) asks for a verified one,
    // VERIFY_EMAIL comes next, as Keycloak evaluates the required actions again.
    const pending = withoutAction(tx, "UPDATE_PROFILE");
    if (r.user && r.user.email !== r.previousEmail && !pending.includes("VERIFY_EMAIL")) {
      const status = await this.kit.d.auth.getUserStatus({ realm: realm.name, userId: tx.userId ?? "" });
      if (status.requiredActions.includes(RequiredAction.VERIFY_EMAIL)) pending.push("VERIFY_EMAIL");
    }
    const moved = await this.kit.d.txs.advance(tx, { step: "otp", username, pendingActions: pending });
    if (!moved) return staleTransaction();
    return this.next(realm, moved, ctx);
  }
}

function withoutAction(tx: LoginTransactionRecord, done: string): string[] {
  return (tx.pendingActions ?? []).filter((a) => a !== done);
}
