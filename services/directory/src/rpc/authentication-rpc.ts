import type { ServiceImpl } from "@connectrpc/connect";
import { AuthOutcome, AuthenticationService, RequiredAction } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import type { PasswordAuthenticator, AuthOutcomeName } from "../domain/password-authenticator.js";
import type { OtpCredentials } from "../domain/otp-credentials.js";
import type { PasswordChange } from "../domain/password-change.js";
import type { UserStatusReader } from "../domain/user-status.js";
import type { RequiredActionName } from "../domain/required-actions.js";
import type { PasskeyCredentials } from "../domain/passkey-credentials.js";
import type { RealmLookup } from "../domain/realm-lookup.js";
import type { TermsAcceptance } from "../domain/terms-acceptance.js";

/** Thin handlers: check -> domain -> convert. */
export function authenticationRpc(
  passwords: PasswordAuthenticator, otp: OtpCredentials, change: PasswordChange, status: UserStatusReader,
  passkeys: PasskeyCredentials, realms: RealmLookup, terms: TermsAcceptance,
): ServiceImpl<typeof AuthenticationService> {
  return {
    async authenticatePassword(req) {
      const r = await passwords.authenticate({ realm: req.realm, username: req.username, password: req.password });
      // Whether the user has a passkey, TOTP or not: the built-in flow makes it the second factor of a
      // user without TOTP (docs/passkeys.md), a custom flow may ask it of anyone (docs/authentication-flows.md).
      const passkeyConfigured = r.outcome === "OK" && await passkeys.configured(await realms.byName(req.realm), r.userId);
      return {
        passkeyConfigured,
        outcome: outcomeToProto(r.outcome), userId: r.userId, username: r.username, otpRequired: r.otpRequired,
        requiredActions: r.requiredActions.map(actionToProto), eventError: r.eventError, locale: r.locale,
      };
    },
    async verifyOtp(req) {
      const r = await otp.verify(req.realm, req.userId, req.code);
      return { outcome: outcomeToProto(r.outcome), eventError: r.eventError };
    },
    async beginOtpEnrollment(req) {
      const r = await otp.begin(req.realm, req.userId);
      return { secret: r.secret, otpauthUri: r.otpauthUri };
    },
    async confirmOtpEnrollment(req) {
      return otp.confirm(req.realm, req.userId, req.code);
    },
    async changePassword(req) {
      await change.change(req.realm, req.userId, req.newPassword);
      return {};
    },
    async getUserStatus(req) {
      const s = await status.status(req.realm, req.userId);
      const passkeyConfigured = s.exists && await passkeys.configured(await realms.byName(req.realm), req.userId);
      return { ...s, passkeyConfigured, requiredActions: s.requiredActions.map(actionToProto) };
    },
    async acceptTerms(req) {
      return { acceptedAt: BigInt(await terms.accept(req.realm, req.userId)) };
    },
  };
}

function outcomeToProto(o: AuthOutcomeName): AuthOutcome {
  return AuthOutcome[o];
}

function actionToProto(a: RequiredActionName): RequiredAction {
  return RequiredAction[a];
}
