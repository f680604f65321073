import { bool, ConfigError, int, oneOf, optStr, str, url, LOG_LEVELS, type Env, type LogLevel } from "../config.js";
import type { ServiceName } from "../module.js";
import { readPluginSettings, type PluginSettings } from "../plugins/plugin-settings.js";

/** The settings every process reads the same way (DESIGN 4, "Config": fixed names). */
export interface CommonConfig {
  store: "sqlite" | "mongodb";
  /** Embedded mode: where SQLite files and generated secrets live. */
  dataDir: string;
  /** Embedded mode: "full" syncs every commit (survives a power loss), "normal" only checkpoints. */
  sqliteSync: "full" | "normal";
  mongodbUri: string | undefined;
  /** Each service uses database `<prefix>_<service>`. */
  mongodbDatabasePrefix: string;
  natsUrl: string | undefined;
  masterKey: string | undefined;
  /**
   * The admin API key as the operator gave it: the gateway's Admin REST credential, and in cluster
   * mode what first-party backends present to the services' gRPC APIs (rpc/service-auth.ts).
   */
  adminApiKey: string | undefined;
  logLevel: LogLevel;
  /** Enables native Mongo TTL indexes (off by default: FerretDB refuses them). */
  mongoNativeTtl: boolean;
  /**
   * How long a store operation waits for a reachable MongoDB server before the request is answered
   * 503: a caller told "unavailable" soon can retry, one kept waiting out an outage cannot.
   */
  mongodbSelectionTimeoutMs: number;
  /**
   * Cluster mode: how processes call the services. "frames" (default) is the lean internal hop
   * (rpc/frame-transport.ts); "connect" is the Connect protocol, as first-party backends use.
   */
  internalTransport: "frames" | "connect";
  /** Connections each process opens to each service for the frames hop, used in turn. */
  internalConnections: number;
  /** Addresses of the services in cluster mode. */
  serviceUrls: Record<ServiceName, string | undefined>;
  /** TESSERA_PLUGINS and its companions: every process loads the plugins (plugins/plugin-loader.ts). */
  plugins: PluginSettings;
}

export function readCommonConfig(env: Env): CommonConfig {
  const store = oneOf(env, "TESSERA_STORE", ["sqlite", "mongodb"] as const, "sqlite");
  const mongodbUri = optStr(env, "TESSERA_MONGODB_URI");
  if (store === "mongodb" && !mongodbUri) {
    // Fail at boot, naming the variable, rather than at the first query.
    str(env, "TESSERA_MONGODB_URI");
  }
  return {
    store,
    dataDir: str(env, "TESSERA_DATA_DIR", "./data"),
    sqliteSync: oneOf(env, "TESSERA_SQLITE_SYNC", ["full", "normal"] as const, "full"),
    mongodbUri: mongodbUri ? url(env, "TESSERA_MONGODB_URI") : undefined,
    mongodbDatabasePrefix: str(env, "TESSERA_MONGODB_DB_PREFIX", "tessera"),
    natsUrl: optStr(env, "TESSERA_NATS_URL") ? url(env, "TESSERA_NATS_URL") : undefined,
    masterKey: optMasterKey(env),
    adminApiKey: optStr(env, "TESSERA_ADMIN_API_KEY"),
    logLevel: oneOf(env, "TESSERA_LOG_LEVEL", LOG_LEVELS, "info"),
    mongoNativeTtl: bool(env, "TESSERA_MONGODB_NATIVE_TTL", false),
    mongodbSelectionTimeoutMs: int(env, "TESSERA_MONGODB_SELECTION_TIMEOUT_MS", 2_000, 100, 120_000),
    internalTransport: oneOf(env, "TESSERA_INTERNAL_TRANSPORT", ["frames", "connect"] as const, "frames"),
    internalConnections: int(env, "TESSERA_INTERNAL_CONNECTIONS", 1, 1, 16),
    serviceUrls: {
      directory: serviceUrl(env, "directory"),
      token: serviceUrl(env, "token"),
      saml: serviceUrl(env, "saml"),
      broker: serviceUrl(env, "broker"),
      federation: serviceUrl(env, "federation"),
      audit: serviceUrl(env, "audit"),
    },
    plugins: readPluginSettings(env),
  };
}

function serviceUrl(env: Env, service: ServiceName): string | undefined {
  const name = `TESSERA_${service.toUpperCase()}_URL`;
  return optStr(env, name) ? url(env, name) : undefined;
}

export function gatewayPort(env: Env): number {
  return int(env, "TESSERA_PORT", 8080, 0, 65535);
}

/**
 * TESSERA_MASTER_KEY checked at boot, so a short or mistyped key stops the process naming the
 * variable instead of failing at the first secret sealed (AES-256-GCM needs exactly 32 bytes).
 */
function optMasterKey(env: Env): string | undefined {
  const v = optStr(env, "TESSERA_MASTER_KEY");
  if (v === undefined) return undefined;
  const problem = masterKeyProblem(v);
  if (problem) throw new ConfigError("TESSERA_MASTER_KEY", problem);
  return v;
}

/** What is wrong with `v` as a master key (32 bytes, base64url), or undefined when it is one. The value is never echoed. */
export function masterKeyProblem(v: string): string | undefined {
  const bytes = /^[A-Za-z0-9_+/-]+={0,2}$/.test(v) ? Buffer.from(v, "base64url").length : -1;
  if (bytes === 32) return undefined;
  const got = bytes < 0 ? `${v.length} characters that are not base64url` : `${bytes} bytes`;
  return `must be 32 random bytes in base64url (43 characters; e.g. openssl rand -base64 32 | tr '+/' '-_' | tr -d '='), got ${got}`;
}
