import type { ServiceImpl } from "@connectrpc/connect";
import { RegistrationService, VerifyEmailOutcome } from "../../../../gen/iam/directory/v1/registration_pb.js";
import type { SelfRegistration } from "../domain/self-registration.js";

/** Thin handlers: check -> domain -> convert. */
export function registrationRpc(registration: SelfRegistration): ServiceImpl<typeof RegistrationService> {
  return {
    async registerUser(req) {
      return registration.register(req.realm, {
        username: req.username, email: req.email, firstName: req.firstName, lastName: req.lastName, password: req.password,
      });
    },
    async sendOwnVerificationEmail(req) {
      return { email: await registration.sendVerification(req.realm, req.userId) };
    },
    async verifyEmail(req) {
      const r = await registration.verify(req.realm, req.key);
      return { outcome: VerifyEmailOutcome[r.outcome], userId: r.userId, email: r.email };
    },
  };
}
