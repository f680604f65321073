import type { ConnectRouter } from "@connectrpc/connect";
import { BrokerService } from "../../../gen/iam/broker/v1/broker_pb.js";
import { IdentityProviderService } from "../../../gen/iam/broker/v1/identity_provider_pb.js";
import { BrokerLoginService } from "../../../gen/iam/broker/v1/broker_login_pb.js";
import type { ServiceDeps, ServiceModule } from "../../kit/src/module.js";
import type { Subscription } from "../../kit/src/bus/port.js";
import { Outbox } from "../../kit/src/bus/outbox.js";
import { checkHealth } from "../../kit/src/health.js";
import type { BrokerConfig } from "./config.js";
import { ProviderRepository } from "./store/provider-repository.js";
import { LinkRepository } from "./store/link-repository.js";
import { LoginStateRepository } from "./store/login-state-repository.js";
import { RealmLookup } from "./domain/realm-ref.js";
import { ProviderAdmin } from "./domain/provider-admin.js";
import { MapperAdmin } from "./domain/mapper-admin.js";
import { MapperRepository } from "./store/mapper-repository.js";
import { LinkAdmin } from "./domain/link-admin.js";
import { BrokerEvents } from "./events/broker-events.js";
import { startBrokerConsumers } from "./events/consumers.js";
import { UpstreamClient } from "./login/upstream-client.js";
import { AccountLinker } from "./login/account-linker.js";
import { MapperApplier } from "./login/mapper-applier.js";
import { BrokerLogin } from "./login/broker-login.js";
import { UpstreamLeg } from "./login/upstream-leg.js";
import { AccountLinkFlow } from "./login/account-link-flow.js";
import { providerRpc } from "./rpc/provider-rpc.js";
import { loginRpc } from "./rpc/login-rpc.js";
import { RealmTransferService } from "../../../gen/iam/kit/v1/realm_transfer_pb.js";
import { BrokerTransfer } from "./domain/broker-transfer.js";
import { lazyService } from "../../kit/src/rpc/lazy-service.js";

/** Composition of the broker service (identity providers, broker login states, federated links), shared by the embedded runner and main.ts. */
export async function buildBroker(deps: ServiceDeps, config: BrokerConfig): Promise<ServiceModule> {
  const { store, bus, clock, secrets, logger } = deps;
  const providers = await ProviderRepository.open(store);
  const links = await LinkRepository.open(store);
  const mappers = await MapperRepository.open(store);
  const states = await LoginStateRepository.open(store);
  const realms = new RealmLookup(deps.transports.directory);
  // Provider writes stage their admin events through it (kit events/audited-write.ts).
  const outbox = await Outbox.open(store, bus, clock, logger, { soleProcess: deps.soleProcess ?? false });
  const admin = new ProviderAdmin(providers, links, mappers, realms, outbox, secrets, clock, config.outbound);
  const mapperAdmin = new MapperAdmin(mappers, providers, realms, outbox, clock);
  const linkAdmin = new LinkAdmin(links, realms, deps.transports.directory);
  const upstream = new UpstreamClient(config.outbound, secrets, clock);
  const accounts = new AccountLinker(links, deps.transports.directory, clock, logger, new MapperApplier(mappers, deps.transports.directory, logger));
  const logins = deps.metrics.counter("tessera_broker_logins_total", "Brokered logins by result", ["result"]);
  const events = new BrokerEvents(bus, clock);
  const leg = new UpstreamLeg(providers, states, upstream, secrets, clock, { publicUrl: config.publicUrl, stateTtlMs: config.stateTtlSeconds * 1000 });
  const linking = new AccountLinkFlow(realms, providers, links, leg, accounts, events, { publicUrl: config.publicUrl }, deps.transports, (result) => logins.inc({ result }));
  const login = new BrokerLogin(providers, states, realms, leg, linking, accounts, events, secrets, clock, deps.transports.directory, (result) => logins.inc({ result }));
  let subs: Subscription[] = [];

  return {
    name: "broker",
    routes(router: ConnectRouter) {
      router.service(BrokerService, { health: async () => ({ health: await checkHealth("broker", store, bus) }) });
      router.service(IdentityProviderService, providerRpc(admin, linkAdmin, mapperAdmin));
      router.service(BrokerLoginService, loginRpc(login, linking));
      // Realm export and import (and zod's schemas) load at their first call: a faster cold start.
      router.service(RealmTransferService, lazyService(RealmTransferService, async () =>
        (await import("./rpc/realm-transfer-rpc.js")).realmTransferRpc(realms, new BrokerTransfer(realms, providers, links, mappers, secrets, config.outbound, () => clock.now()))));
    },
    async start() {
      subs = await startBrokerConsumers(bus, providers, links, states, logger, mappers);
      await outbox.start();
    },
    async stop() {
      // The outbox last: it marks this process gone, and a consumer stopping may still be writing.
      await Promise.all(subs.map((s) => s.stop()));
      await outbox.stop();
    },
  };
}
