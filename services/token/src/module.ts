import type { ConnectRouter } from "@connectrpc/connect";
import { TokenService } from "../../../gen/iam/token/v1/token_pb.js";
import type { ServiceDeps, ServiceModule } from "../../kit/src/module.js";
import type { Subscription } from "../../kit/src/bus/port.js";
import type { TokenConfig } from "./config.js";
import { SigningKeyRepository } from "./store/signing-key-repository.js";
import { KeyRing } from "./domain/key-ring.js";
import { KeyMaintenance } from "./domain/key-maintenance.js";
import { DirectoryRealms } from "./domain/directory-realms.js";
import { RealmMetadata } from "./domain/realm-metadata.js";
import { DiscoveryScopes } from "./domain/discovery-scopes.js";
import { startTokenConsumers } from "./events/consumers.js";
import { watchTokenCaches } from "./events/cache-watchers.js";
import { watchUserRevocations } from "./events/user-revocation-watch.js";
import { signingKeyAnnouncer } from "./events/key-events.js";
import { tokenRpc } from "./rpc/token-rpc.js";
import { buildOAuth } from "./oauth-module.js";
import { buildBrowserFlow, type BrowserFlow } from "./flow/browser-flow.js";
import { RealmTransferService } from "../../../gen/iam/kit/v1/realm_transfer_pb.js";
import { KeyTransfer } from "./domain/key-transfer.js";
import { lazyService } from "../../kit/src/rpc/lazy-service.js";

const DAY_MS = 86_400_000;

/** Composition of the token service, shared by the embedded runner and main.ts. */
export async function buildToken(deps: ServiceDeps, config: TokenConfig): Promise<ServiceModule> {
  const { store, bus, clock, secrets, logger } = deps;
  const keyRepo = await SigningKeyRepository.open(store);
  const keys = new KeyRing(keyRepo, secrets, clock, { announce: signingKeyAnnouncer(bus, clock, logger) });
  const realms = new DirectoryRealms(deps.transports.directory);
  const maintenance = new KeyMaintenance(keys, realms, {
    rotationMs: config.keyRotationDays * DAY_MS,
    checkIntervalMs: config.keyCheckIntervalSeconds * 1000,
  }, logger);
  let browserFlow: BrowserFlow | undefined;
  const oauth = await buildOAuth(deps, keys, {
    publicUrl: config.publicUrl,
    outbound: config.outbound,
    dropRealmAlso: async (realmId) => { await browserFlow?.dropRealm(realmId); },
    dropClientAlso: async (realmId, clientId, upTo) => { await browserFlow?.dropClient(realmId, clientId, upTo); },
    dropUserAlso: async (realmId, userId) => { await browserFlow?.dropUser(realmId, userId); },
  });
  const { realms: realmSettings, clients, serviceAccountGrants, sso: sessions, codes, devices, pushed, familyRepo: families, terminator, outbox } = oauth.parts;
  const discoveryScopes = new DiscoveryScopes(deps.transports.directory, clock);
  const metadata = new RealmMetadata(realms, keys, discoveryScopes, { resolve: (name) => realmSettings.find(name) });
  browserFlow = await buildBrowserFlow(deps, keys, { realms: realmSettings, clients, sessions, codes, devices, pushed, families, terminator, outbox }, {
    limit: config.userCodeFailures, windowMs: config.userCodeFailureWindowSeconds * 1000,
  });
  let subs: Subscription[] = [];

  return {
    name: "token",
    routes(router: ConnectRouter) {
      router.service(TokenService, tokenRpc(metadata, store, bus));
      // Realm export and import (and zod's schemas) load at their first call: a faster cold start.
      router.service(RealmTransferService, lazyService(RealmTransferService, async () =>
        (await import("./rpc/realm-transfer-rpc.js")).realmTransferRpc(realms, new KeyTransfer(keyRepo, secrets))));
      oauth.routes(router);
      browserFlow!.routes(router);
    },
    async start() {
      subs = await watchTokenCaches(bus, { realms: realmSettings, clients, serviceAccountGrants, keys, discoveryScopes }, logger);
      subs.push(...await watchUserRevocations(bus, oauth.parts.recentRevocations));
      subs.push(...await startTokenConsumers(bus, keys, logger));
      await oauth.start();
      maintenance.start();
    },
    async stop() {
      await maintenance.stop();
      await oauth.stop();
      await Promise.all(subs.map((s) => s.stop()));
      // Last: a subscription still stopping may drop a deleted realm's transactions.
      await browserFlow?.close();
    },
  };
}
