import type { ConnectRouter } from "@connectrpc/connect";
import { AuthenticationService } from "../../../gen/iam/directory/v1/authentication_pb.js";
import { UserSecurityService } from "../../../gen/iam/directory/v1/user_security_pb.js";
import type { ServiceDeps } from "../../kit/src/module.js";
import type { Subscription } from "../../kit/src/bus/port.js";
import type { PasswordHasher } from "./domain/password-hasher.js";
import { RealmLookup } from "./domain/realm-lookup.js";
import { BruteForce } from "./domain/brute-force.js";
import { BruteForceAdmin } from "./domain/brute-force-admin.js";
import { PasswordAuthenticator } from "./domain/password-authenticator.js";
import { OtpCredentials } from "./domain/otp-credentials.js";
import { PasswordChange } from "./domain/password-change.js";
import { UserStatusReader } from "./domain/user-status.js";
import { UserImport } from "./domain/user-import.js";
import { UserCredentials } from "./domain/user-credentials.js";
import type { UserWrites } from "./domain/user-writes.js";
import { RealmRepository } from "./store/realm-repository.js";
import { UserRepository } from "./store/user-repository.js";
import { CredentialRepository } from "./store/credential-repository.js";
import { LoginFailureRepository } from "./store/login-failure-repository.js";
import { OtpRepository } from "./store/otp-repository.js";
import { UserEvents } from "./events/user-events.js";
import { startAuthenticationCascade } from "./events/authentication-cascade.js";
import { authenticationRpc } from "./rpc/authentication-rpc.js";
import { TermsAcceptance } from "./domain/terms-acceptance.js";
import { FederatedUserService } from "../../../gen/iam/directory/v1/federated_user_pb.js";
import { FederatedUsers } from "./domain/federated-users.js";
import { FederationFallback } from "./domain/federation-fallback.js";
import { federatedUserRpc } from "./rpc/federated-user-rpc.js";
import { userSecurityRpc } from "./rpc/user-security-rpc.js";
import { PasskeyService } from "../../../gen/iam/directory/v1/passkey_pb.js";
import { PasskeyCredentials } from "./domain/passkey-credentials.js";
import { PasskeyRepository } from "./store/passkey-repository.js";
import { passkeyRpc } from "./rpc/passkey-rpc.js";
import { AccountCredentials } from "./domain/account-credentials.js";

/**
 * Authentication (DESIGN 3: AuthenticatePassword, VerifyOtp; spec 3 brute force, 1.6 TOTP) and the
 * Admin API's MFA / brute-force administration and user import (spec 4.13, 4.2), composed apart
 * from module.ts so that file only registers and starts it. Every class reads `deps.clock`.
 */
export async function buildAuthenticationSlice(deps: ServiceDeps, hasher: PasswordHasher, writes: UserWrites) {
  const { store, bus, clock, secrets, logger } = deps;
  const lookup = new RealmLookup(await RealmRepository.open(store));
  const users = await UserRepository.open(store);
  const credentialRepo = await CredentialRepository.open(store);
  const otpRepo = await OtpRepository.open(store);
  const events = new UserEvents(writes.outbox, clock);
  const credentials = new UserCredentials(lookup, users, credentialRepo, hasher, events, writes.passwordChanges, clock);
  const bruteForce = new BruteForce(await LoginFailureRepository.open(store), users, writes.disabling, clock, logger);
  const otp = new OtpCredentials(lookup, users, otpRepo, bruteForce, secrets, writes.outbox, clock);
  const passkeyRepo = await PasskeyRepository.open(store);
  const passkeys = new PasskeyCredentials(lookup, users, passkeyRepo, bruteForce, writes.outbox, clock);
  const federated = new FederatedUsers(lookup, users, writes, clock);
  const federation = new FederationFallback(deps.transports.federation, federated);
  const passwords = new PasswordAuthenticator(lookup, users, credentialRepo, otpRepo, bruteForce, hasher, clock, federation);
  const change = new PasswordChange(lookup, users, credentialRepo, credentials);
  const status = new UserStatusReader(lookup, users, credentialRepo, otp, bruteForce, clock);
  const terms = new TermsAcceptance(lookup, users, clock);
  const importer = new UserImport(lookup, users, credentials, writes, events, clock);
  const admin = new BruteForceAdmin(lookup, users, bruteForce, writes.outbox);
  const account = new AccountCredentials(lookup, users, credentialRepo, otpRepo, passkeyRepo, passwords, change, clock);
  let subs: Subscription[] = [];

  return {
    routes(router: ConnectRouter) {
      router.service(AuthenticationService, authenticationRpc(passwords, otp, change, status, passkeys, lookup, terms));
      router.service(UserSecurityService, userSecurityRpc(otp, admin, importer, account));
      router.service(PasskeyService, passkeyRpc(passkeys));
      router.service(FederatedUserService, federatedUserRpc(federated));
    },
    async start() {
      subs = await startAuthenticationCascade(bus, [otp, passkeys, bruteForce], logger);
    },
    async stop() {
      for (const s of subs) await s.stop();
      subs = [];
      await bruteForce.drain();
    },
  };
}
