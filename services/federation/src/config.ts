import { int, type Env } from "../../kit/src/config.js";
import { readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";

export interface FederationConfig {
  common: CommonConfig;
  /** How often a replica looks for providers whose periodic sync is due (TESSERA_FEDERATION_SYNC_CHECK_SECONDS). */
  syncCheckSeconds: number;
  /** Life of a sync lease unless renewed (TESSERA_FEDERATION_SYNC_LEASE_SECONDS): how soon a dead holder's run is taken over. */
  syncLeaseSeconds: number;
  /** Entries per RFC 2696 page in a sync (TESSERA_FEDERATION_SYNC_PAGE_SIZE). */
  syncPageSize: number;
}

export function loadFederationConfig(env: Env): FederationConfig {
  return {
    common: readCommonConfig(env),
    syncCheckSeconds: int(env, "TESSERA_FEDERATION_SYNC_CHECK_SECONDS", 10, 1, 3600),
    syncLeaseSeconds: int(env, "TESSERA_FEDERATION_SYNC_LEASE_SECONDS", 60, 2, 3600),
    syncPageSize: int(env, "TESSERA_FEDERATION_SYNC_PAGE_SIZE", 500, 1, 10_000),
  };
}
