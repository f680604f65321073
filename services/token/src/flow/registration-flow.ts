import { Code, ConnectError } from "@connectrpc/connect";
import { RequiredAction } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import { safeEqual, sha256Hex } from "../../../kit/src/crypto/random.js";
import { errorReply, realmNotFound, pageOf, staleTransaction, type FlowReply } from "./flow-reply.js";
import type { FlowKit, StepContext } from "./flow-kit.js";
import type { LoginSteps } from "./login-steps.js";
import { messagesOf } from "./policy-messages.js";

export interface RegistrationForm {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  confirmation: string;
}

const NOT_ALLOWED = (): FlowReply => errorReply("registration_not_allowed", "Registration is not allowed in this realm.", 403);

/**
 * Self-service registration (spec 2.1 registrationAllowed), a branch of the login
 * transaction: the login page links here, the form creates the user through the directory's
 * RegisterUser (the Admin API's creation rules and password policy), records REGISTER, and the
 * login continues as that user (required actions such as VERIFY_EMAIL, then the session).
 */
export class RegistrationFlow {
  constructor(private readonly kit: FlowKit, private readonly steps: LoginSteps) {}

  /** The form (a GET: the transaction must be this browser's and still at the login page). */
  async begin(ctx: StepContext): Promise<FlowReply> {
    const realm = await this.kit.d.realms.get(ctx.realm);
    if (!realm) return realmNotFound();
    if (!ctx.transactionId || !ctx.browserId) return staleTransaction();
    if (!realm.registrationAllowed) return NOT_ALLOWED();
    const tx = await this.kit.d.txs.find(realm.id, ctx.transactionId);
    if (!tx || tx.step !== "login" || tx.kind === "logout" || !safeEqual(tx.browserHash, sha256Hex(ctx.browserId))) return staleTransaction();
    return pageOf(tx, "register", {});
  }

  async submit(ctx: StepContext, form: RegistrationForm): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["login"]);
    if ("outcome" in loaded) return loaded;
    const { realm, tx } = loaded;
    if (!realm.registrationAllowed) return NOT_ALLOWED();
    const values = { username: form.username.trim().slice(0, 255), email: form.email.trim().slice(0, 255), firstName: form.firstName.slice(0, 255), lastName: form.lastName.slice(0, 255) };
    const again = (messages: string[]): FlowReply => pageOf(tx, "register", { ...values, messages });
    const missing: string[] = [];
    if (!values.username) missing.push("Please specify a username.");
    if (!form.password) missing.push("Please specify a password.");
    else if (form.password !== form.confirmation) missing.push("The password confirmation does not match.");
    if (missing.length) return again(missing);
    let registered: { userId: string; username: string };
    try {
      registered = await this.kit.d.registration.registerUser({ realm: realm.name, ...values, password: form.password });
    } catch (e) {
      const ce = ConnectError.from(e);
      if (ce.code === Code.FailedPrecondition) return NOT_ALLOWED();
      if (ce.code === Code.InvalidArgument || ce.code === Code.AlreadyExists) return again(messagesOf(ce.rawMessage));
      throw e;
    }
    const status = await this.kit.d.auth.getUserStatus({ realm: realm.name, userId: registered.userId });
    const moved = await this.kit.d.txs.advance(tx, {
      step: "otp", userId: registered.userId, username: registered.username, otpRequired: false,
      pendingActions: status.requiredActions.map((a) => RequiredAction[a]).filter((a) => a !== "UNSPECIFIED"),
      amr: ["pwd"], authTime: this.kit.now(),
    });
    if (!moved) return staleTransaction();
    await this.kit.d.events.record(realm, ctx, moved, {
      type: "REGISTER", details: { register_method: "form", ...(values.email ? { email: values.email } : {}) },
    });
    return this.steps.next(realm, moved, ctx);
  }
}
