import type { ConnectRouter } from "@connectrpc/connect";
import { SamlService } from "../../../gen/iam/saml/v1/saml_pb.js";
import { ServiceProviderService } from "../../../gen/iam/saml/v1/service_provider_pb.js";
import { IdpService } from "../../../gen/iam/saml/v1/idp_pb.js";
import type { ServiceDeps, ServiceModule } from "../../kit/src/module.js";
import type { Subscription } from "../../kit/src/bus/port.js";
import { checkHealth } from "../../kit/src/health.js";
import type { SamlConfig } from "./config.js";
import { ServiceProviderRepository } from "./store/service-provider-repository.js";
import { IdpKeyRepository } from "./store/idp-key-repository.js";
import { RealmLookup } from "./domain/realm-ref.js";
import { ServiceProviderAdmin } from "./domain/sp-admin.js";
import { IdpKeys } from "./domain/idp-keys.js";
import { IdpAdmin } from "./domain/idp-admin.js";
import { Outbox } from "../../kit/src/bus/outbox.js";
import { startSamlConsumers } from "./events/consumers.js";
import { serviceProviderRpc } from "./rpc/service-provider-rpc.js";
import { idpRpc } from "./rpc/idp-rpc.js";
import { SamlSsoService } from "../../../gen/iam/saml/v1/sso_pb.js";
import { SsoStore } from "./sso/sso-store.js";
import { DirectoryReader } from "./sso/user-profile.js";
import { lazyFlows } from "./sso/lazy-flows.js";
import { ssoRpc } from "./sso/sso-rpc.js";
import { RealmTransferService } from "../../../gen/iam/kit/v1/realm_transfer_pb.js";
import { SamlTransfer } from "./domain/saml-transfer.js";
import { lazyService } from "../../kit/src/rpc/lazy-service.js";

/** Composition of the saml service, shared by the embedded runner and main.ts. */
export async function buildSaml(deps: ServiceDeps, config: SamlConfig): Promise<ServiceModule> {
  const { store, bus, clock, secrets, logger } = deps;
  const spRepo = await ServiceProviderRepository.open(store);
  const keyRepo = await IdpKeyRepository.open(store);
  const realms = new RealmLookup(deps.transports.directory);
  // Service-provider writes stage their admin events through it (kit events/audited-write.ts).
  const outbox = await Outbox.open(store, bus, clock, logger, { soleProcess: deps.soleProcess ?? false });
  const sps = new ServiceProviderAdmin(spRepo, realms, outbox, clock);
  const keys = new IdpKeys(keyRepo, secrets, clock, { rsaBits: config.keyBits, graceMs: config.keyGraceSeconds * 1000 });
  const idp = new IdpAdmin(realms, keys, outbox, config.publicUrl, spRepo);
  const ssoStore = await SsoStore.open(store);
  const directory = new DirectoryReader(deps.transports.directory);
  const flows = lazyFlows(spRepo, ssoStore, keys, directory, clock, config.publicUrl);
  let subs: Subscription[] = [];

  return {
    name: "saml",
    routes(router: ConnectRouter) {
      router.service(SamlService, { health: async () => ({ health: await checkHealth("saml", store, bus) }) });
      router.service(ServiceProviderService, serviceProviderRpc(sps));
      router.service(IdpService, idpRpc(idp));
      router.service(SamlSsoService, ssoRpc(flows));
      // Realm export and import (and zod's schemas) load at their first call: a faster cold start.
      router.service(RealmTransferService, lazyService(RealmTransferService, async () =>
        (await import("./rpc/realm-transfer-rpc.js")).realmTransferRpc(realms, new SamlTransfer(spRepo, keyRepo, secrets, () => clock.now()))));
    },
    async start() {
      subs = await startSamlConsumers(bus, spRepo, keyRepo, logger, ssoStore);
      await outbox.start();
    },
    async stop() {
      // The outbox last: it marks this process gone, and a consumer stopping may still be writing.
      await Promise.all(subs.map((s) => s.stop()));
      await outbox.stop();
    },
  };
}
