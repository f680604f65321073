import type { ConnectRouter, Transport } from "@connectrpc/connect";
import type { Logger } from "pino";
import type { Store, Clock } from "./store/port.js";
import type { Bus } from "./bus/port.js";
import type { Metrics } from "./metrics.js";
import type { SecretBox } from "./crypto/secret-box.js";
import type { PluginRegistry } from "./plugins/plugin-registry.js";

export const SERVICE_NAMES = ["directory", "token", "saml", "broker", "federation", "audit"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** What a service's module.ts receives, in both run modes (DESIGN 2 and 4). */
export interface ServiceDeps {
  store: Store;
  bus: Bus;
  logger: Logger;
  metrics: Metrics;
  /** Transports to the other services; a service only ever holds generated clients over these. */
  transports: Record<ServiceName, Transport>;
  secrets: SecretBox;
  clock: Clock;
  /**
   * No other process uses this store (embedded mode on SQLite, its data directory locked:
   * data-dir-lock.ts). Work a crashed predecessor left mid-way (an outbox entry under its lease)
   * is then taken over at start instead of once the lease runs out.
   */
  soleProcess?: boolean;
  /** The plugins TESSERA_PLUGINS loaded (plugins/plugin-loader.ts); none when absent. */
  plugins?: PluginRegistry;
}

export interface HealthReport {
  service: ServiceName;
  ready: boolean;
  store: { up: boolean; detail: string };
  bus: { up: boolean; detail: string };
  heapUsedRatio: number;
  heapUsedBytes: number;
}

/** What a service's module.ts returns: the embedded runner and main.ts both use it. */
export interface ServiceModule {
  name: ServiceName;
  /** Registers the service's Connect routes. */
  routes(router: ConnectRouter): void;
  /** Starts consumers and timers. Called once every module of the process is built and bound. */
  start(): Promise<void>;
  /** Stops consumers and timers (not the store or bus, which the runner owns). */
  stop(): Promise<void>;
}
