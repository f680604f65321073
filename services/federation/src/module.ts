import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { ConnectRouter } from "@connectrpc/connect";
import { FederationService } from "../../../gen/iam/federation/v1/federation_pb.js";
import type { ServiceDeps, ServiceModule } from "../../kit/src/module.js";
import type { Subscription } from "../../kit/src/bus/port.js";
import { Outbox } from "../../kit/src/bus/outbox.js";
import { checkHealth } from "../../kit/src/health.js";
import type { FederationConfig } from "./config.js";
import { ProviderRepository } from "./store/provider-repository.js";
import { RealmLookup } from "./domain/realm-ref.js";
import { DirectoryUsers } from "./domain/directory-users.js";
import { ProviderAdmin } from "./domain/provider-admin.js";
import { LdapSync } from "./domain/ldap-sync.js";
import { SyncScheduler } from "./domain/sync-scheduler.js";
import { LdapLogin } from "./domain/ldap-login.js";
import { federationRpc } from "./rpc/federation-rpc.js";
import { startFederationConsumers } from "./events/consumers.js";
import { RealmTransferService } from "../../../gen/iam/kit/v1/realm_transfer_pb.js";
import { FederationTransfer } from "./domain/federation-transfer.js";
import { lazyService } from "../../kit/src/rpc/lazy-service.js";

/** Composition of the federation service (LDAP providers, sync, bind login), shared by the embedded runner and main.ts. */
export async function buildFederation(deps: ServiceDeps, config: FederationConfig): Promise<ServiceModule> {
  const { store, bus, clock, secrets, logger } = deps;
  const repo = await ProviderRepository.open(store);
  const outbox = await Outbox.open(store, bus, clock, logger, { soleProcess: deps.soleProcess ?? false });
  const users = new DirectoryUsers(deps.transports.directory);
  const realms = new RealmLookup(deps.transports.directory);
  const admin = new ProviderAdmin(repo, realms, users, secrets, outbox, clock, logger);
  const credentialOf = admin.credentialOf.bind(admin);
  const sync = new LdapSync(users, credentialOf, clock, logger, config.syncPageSize);
  const scheduler = new SyncScheduler(repo, sync, clock, logger, {
    holder: `${hostname()}:${process.pid}:${randomUUID()}`,
    leaseMs: config.syncLeaseSeconds * 1000,
    checkMs: config.syncCheckSeconds * 1000,
  });
  const login = new LdapLogin(repo, credentialOf, logger);
  let subs: Subscription[] = [];
  return {
    name: "federation",
    routes(router: ConnectRouter) {
      const health = async () => ({ health: await checkHealth("federation", store, bus) });
      router.service(FederationService, federationRpc({ admin, scheduler, login, repo }, health));
      // Realm export and import (and zod's schemas) load at their first call: a faster cold start.
      router.service(RealmTransferService, lazyService(RealmTransferService, async () =>
        (await import("./rpc/realm-transfer-rpc.js")).realmTransferRpc(realms, new FederationTransfer(realms, repo, secrets, () => clock.now()))));
    },
    async start() {
      subs = await startFederationConsumers(bus, repo, logger);
      await outbox.start();
      scheduler.start();
    },
    async stop() {
      await scheduler.stop();
      await Promise.all(subs.map((s) => s.stop()));
      await outbox.stop();
    },
  };
}
