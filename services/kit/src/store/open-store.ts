import type { Clock, Store } from "./port.js";
import { SqliteStore } from "./sqlite-store.js";

export type OpenStoreOptions =
  | {
      kind: "sqlite";
      /** A file path, or ":memory:". */
      path: string;
      clock?: Clock;
      sweepIntervalMs?: number;
      synchronous?: "full" | "normal";
    }
  | {
      kind: "mongodb";
      uri: string;
      database: string;
      clock?: Clock;
      /** Real MongoDB only (FerretDB refuses TTL indexes); see MongoStoreOptions. */
      nativeTtl?: boolean;
      sweepIntervalMs?: number;
      serverSelectionTimeoutMS?: number;
    };

/** The one place a service turns its store configuration into a Store (TESSERA_STORE). */
export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  switch (opts.kind) {
    case "sqlite":
      return new SqliteStore(opts);
    case "mongodb": {
      // Loaded only when configured: the MongoDB driver (with mongoose) was the largest single cost
      // of an embedded start, about 0.4 s of a core, for a store embedded mode never opens.
      const { MongoStore } = await import("./mongo-store.js");
      return MongoStore.open(opts);
    }
  }
}
