import type { ConnectRouter } from "@connectrpc/connect";
import { ClientRegistrationService } from "../../../gen/iam/directory/v1/client_registration_pb.js";
import type { ServiceDeps } from "../../kit/src/module.js";
import type { Outbox } from "../../kit/src/bus/outbox.js";
import type { Subscription } from "../../kit/src/bus/port.js";
import type { RealmAccess } from "./domain/realm-access.js";
import type { ClientAdmin } from "./domain/client-admin.js";
import { RegistrationAdmin } from "./domain/registration-admin.js";
import { DynamicRegistration } from "./domain/dynamic-registration.js";
import { InitialAccessTokenRepository } from "./store/initial-access-token-repository.js";
import { ClientRegistrationRepository } from "./store/client-registration-repository.js";
import { RegistrationPolicyRepository } from "./store/registration-policy-repository.js";
import { subscribeRegistrationCascade } from "./events/registration-cascade.js";
import { clientRegistrationRpc } from "./rpc/client-registration-rpc.js";

/** Dynamic client registration (RFC 7591, RFC 7592) on top of the clients slice's ClientAdmin. */
export async function buildDynamicRegistrationSlice(deps: ServiceDeps, outbox: Outbox, realms: RealmAccess, clients: ClientAdmin) {
  const { store, bus, clock, logger } = deps;
  const tokens = await InitialAccessTokenRepository.open(store);
  const registrations = await ClientRegistrationRepository.open(store);
  const policies = await RegistrationPolicyRepository.open(store);
  const admin = new RegistrationAdmin(realms, tokens, policies, outbox, clock);
  const registration = new DynamicRegistration(realms, clients, admin, tokens, registrations, policies, outbox, clock);
  let subs: Subscription[] = [];
  return {
    routes(router: ConnectRouter) {
      router.service(ClientRegistrationService, clientRegistrationRpc(admin, registration));
    },
    async start() {
      subs = await subscribeRegistrationCascade(bus, { registration, tokens, registrations, policies }, logger);
    },
    async stop() {
      for (const s of subs) await s.stop();
      subs = [];
    },
  };
}
