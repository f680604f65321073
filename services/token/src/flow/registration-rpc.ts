import type { ServiceImpl } from "@connectrpc/connect";
import { RegistrationFlowService } from "../../../../gen/iam/token/v1/registration_flow_pb.js";
import { contextOf, wrap } from "./flow-rpc.js";
import type { EmailVerificationStep } from "./email-verification-step.js";
import type { RegistrationFlow } from "./registration-flow.js";

/** Thin handlers: check -> domain -> convert. */
export function registrationFlowRpc(registration: RegistrationFlow, email: EmailVerificationStep): ServiceImpl<typeof RegistrationFlowService> {
  return {
    async beginRegistration(req) {
      return wrap(await registration.begin(contextOf(req.context)));
    },
    async submitRegistration(req) {
      return wrap(await registration.submit(contextOf(req.context), {
        username: req.username, email: req.email, firstName: req.firstName, lastName: req.lastName,
        password: req.password, confirmation: req.confirmation,
      }));
    },
    async resendVerificationEmail(req) {
      return wrap(await email.resend(contextOf(req.context)));
    },
    async verifyEmail(req) {
      return wrap(await email.verify(contextOf(req.context), req.key));
    },
  };
}
