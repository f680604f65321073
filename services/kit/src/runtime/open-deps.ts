import { join } from "node:path";
import type { CommonConfig } from "./common-config.js";
import type { ServiceName } from "../module.js";
import type { Store, Clock } from "../store/port.js";
import { openStore } from "../store/open-store.js";

/**
 * The store of one service: SQLite at `<dataDir>/<service>.db` (embedded; ":memory:" data dir for
 * tests), or MongoDB database `<prefix>_<service>` (cluster).
 */
export function openServiceStore(name: ServiceName, common: CommonConfig, clock: Clock): Promise<Store> {
  if (common.store === "mongodb") {
    return openStore({
      kind: "mongodb",
      uri: common.mongodbUri as string,
      database: `${common.mongodbDatabasePrefix}_${name}`,
      nativeTtl: common.mongoNativeTtl,
      serverSelectionTimeoutMS: common.mongodbSelectionTimeoutMs,
      clock,
    });
  }
  const path = common.dataDir === ":memory:" ? ":memory:" : join(common.dataDir, `${name}.db`);
  return openStore({ kind: "sqlite", path, clock, synchronous: common.sqliteSync });
}
