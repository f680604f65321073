import type { ConnectRouter } from "@connectrpc/connect";
import { RealmTransferService } from "../../../gen/iam/kit/v1/realm_transfer_pb.js";
import { RealmImportService } from "../../../gen/iam/directory/v1/realm_import_pb.js";
import type { ServiceDeps } from "../../kit/src/module.js";
import type { Outbox } from "../../kit/src/bus/outbox.js";
import type { RealmAdmin } from "./domain/realm-admin.js";
import { RealmRepository } from "./store/realm-repository.js";
import { RealmTransferRepository } from "./store/realm-transfer-repository.js";
import { RoleRepository } from "./store/role-repository.js";
import { ClientScopeRepository } from "./store/client-scope-repository.js";
import { RealmDefaults } from "./domain/realm-defaults.js";
import { RealmLookup } from "./domain/realm-lookup.js";
import { RealmExport } from "./domain/realm-export.js";
import { IMPORT_LEASE_MS, RealmImportJournal } from "./domain/realm-import.js";
import { RealmImportWriter } from "./domain/realm-import-writer.js";
import { lazyService } from "../../kit/src/rpc/lazy-service.js";
import { lazyImport } from "../../kit/src/runtime/lazy-import.js";

// The handlers check documents with zod's schemas (some 95 modules, 830 KB of source): imported at
// the first export or import call rather than at start (faster cold start).
const transferRpc = lazyImport(() => import("./rpc/realm-transfer-rpc.js"));

/** The directory's part of realm export and import (DESIGN 3), and the import's journal. */
export async function buildRealmTransferSlice(deps: ServiceDeps, realms: RealmAdmin, outbox: Outbox) {
  const { store, secrets, clock, logger } = deps;
  const realmRepo = await RealmRepository.open(store);
  const repo = await RealmTransferRepository.open(store);
  const defaults = await RealmDefaults.open(store, await RoleRepository.open(store), await ClientScopeRepository.open(store), clock);
  const journal = new RealmImportJournal(realmRepo, realms, secrets, outbox, clock, logger);
  const rpcDeps = {
    lookup: new RealmLookup(realmRepo),
    exporter: new RealmExport(repo, secrets),
    journal,
    writer: new RealmImportWriter(repo, realmRepo, secrets, clock),
    ensureDefaults: (realm: Parameters<RealmDefaults["ensure"]>[0]) => defaults.ensure(realm),
    plugins: deps.plugins,
  };
  let timer: NodeJS.Timeout | undefined;
  const sweep = (everything: boolean) => journal.sweep(everything).catch((e: unknown) => logger.error({ err: e }, "realm import sweep failed"));
  return {
    routes(router: ConnectRouter) {
      router.service(RealmTransferService, lazyService(RealmTransferService, async () => (await transferRpc()).realmTransferRpc(rpcDeps)));
      router.service(RealmImportService, lazyService(RealmImportService, async () => (await transferRpc()).realmImportRpc(rpcDeps)));
    },
    /** Rolls back imports a stopped importer left: all of them at once when no other process shares the store. */
    async start() {
      await sweep(deps.soleProcess ?? false);
      timer = setInterval(() => void sweep(false), IMPORT_LEASE_MS / 4);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
    },
  };
}
