import type { ConnectRouter } from "@connectrpc/connect";
import { RegistrationService } from "../../../gen/iam/directory/v1/registration_pb.js";
import { CredentialResetService } from "../../../gen/iam/directory/v1/credential_reset_pb.js";
import { CredentialReset } from "./domain/credential-reset.js";
import { PasswordChange } from "./domain/password-change.js";
import { credentialResetRpc } from "./rpc/credential-reset-rpc.js";
import type { ServiceDeps } from "../../kit/src/module.js";
import type { DirectoryConfig } from "./config.js";
import type { PasswordHasher } from "./domain/password-hasher.js";
import type { RealmAdmin } from "./domain/realm-admin.js";
import { RealmLookup } from "./domain/realm-lookup.js";
import { RealmMailer } from "./domain/realm-mailer.js";
import { SelfRegistration } from "./domain/self-registration.js";
import { UserAdmin } from "./domain/user-admin.js";
import { UserCredentials } from "./domain/user-credentials.js";
import type { UserWrites } from "./domain/user-writes.js";
import { UserMail } from "./domain/user-mail.js";
import { ExecuteActions } from "./domain/execute-actions.js";
import { ClientRepository } from "./store/client-repository.js";
import { UserEvents } from "./events/user-events.js";
import { registrationRpc } from "./rpc/registration-rpc.js";
import { CredentialRepository } from "./store/credential-repository.js";
import { MembershipRepository } from "./store/membership-repository.js";
import { RealmRepository } from "./store/realm-repository.js";
import { UsedVerifyKeyRepository } from "./store/used-verify-key-repository.js";
import { UserRepository } from "./store/user-repository.js";

/** Self-service registration, email verification and password reset, composed apart from module.ts. */
export async function buildRegistrationSlice(deps: ServiceDeps, config: DirectoryConfig, realmAdmin: RealmAdmin, hasher: PasswordHasher, writes: UserWrites) {
  const { store, bus, clock, secrets } = deps;
  const lookup = new RealmLookup(await RealmRepository.open(store));
  const users = await UserRepository.open(store);
  const events = new UserEvents(writes.outbox, clock);
  const credentialRepo = await CredentialRepository.open(store);
  const credentials = new UserCredentials(lookup, users, credentialRepo, hasher, events, writes.passwordChanges, clock);
  const memberships = await MembershipRepository.open(store);
  const admin = new UserAdmin(lookup, users, credentials, memberships, writes, events, clock);
  const mailer = new RealmMailer(realmAdmin);
  const mail = new UserMail(lookup, users, mailer, events, secrets, config.publicUrl, clock);
  const usedKeys = await UsedVerifyKeyRepository.open(store);
  const registration = new SelfRegistration(lookup, users, admin, mail, usedKeys, secrets, clock);
  const reset = new CredentialReset(lookup, users, credentialRepo, credentials, new PasswordChange(lookup, users, credentialRepo, credentials),
    mailer, usedKeys, secrets, config.publicUrl, clock);
  const actions = new ExecuteActions(lookup, users, await ClientRepository.open(store), mailer, events, usedKeys, secrets, config.publicUrl, clock);
  return {
    routes(router: ConnectRouter) {
      router.service(RegistrationService, registrationRpc(registration));
      router.service(CredentialResetService, credentialResetRpc(reset, actions));
    },
  };
}
