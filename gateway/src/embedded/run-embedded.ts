import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import type { Env } from "../../../services/kit/src/config.js";
import { createLogger } from "../../../services/kit/src/logger.js";
import { createMetrics } from "../../../services/kit/src/metrics.js";
import { SecretBox } from "../../../services/kit/src/crypto/secret-box.js";
import { systemClock, type Store } from "../../../services/kit/src/store/port.js";
import { MemoryBus } from "../../../services/kit/src/bus/memory-bus.js";
import { LazyTransport } from "../../../services/kit/src/rpc/lazy-transport.js";
import { createDirectTransport } from "../../../services/kit/src/rpc/direct-transport.js";
import { serverInterceptor } from "../../../services/kit/src/rpc/server-interceptor.js";
import { openServiceStore } from "../../../services/kit/src/runtime/open-deps.js";
import { SERVICE_NAMES, type ServiceModule, type ServiceName } from "../../../services/kit/src/module.js";
import { loadDirectoryConfig, type DirectoryConfig } from "../../../services/directory/src/config.js";
import { buildDirectory } from "../../../services/directory/src/module.js";
import { loadTokenConfig } from "../../../services/token/src/config.js";
import { buildToken } from "../../../services/token/src/module.js";
import { loadSamlConfig } from "../../../services/saml/src/config.js";
import { buildSaml } from "../../../services/saml/src/module.js";
import { loadBrokerConfig } from "../../../services/broker/src/config.js";
import { buildBroker } from "../../../services/broker/src/module.js";
import { loadFederationConfig } from "../../../services/federation/src/config.js";
import { buildFederation } from "../../../services/federation/src/module.js";
import { loadAuditConfig } from "../../../services/audit/src/config.js";
import { buildAudit } from "../../../services/audit/src/module.js";
import { loadGatewayConfig, type GatewayConfig } from "../config.js";
import { createGateway } from "../app.js";
import { createRpcClients } from "../rpc-clients.js";
import { HttpMetrics } from "../http/http-metrics.js";
import { AdminTokens } from "../admin/admin-tokens.js";
import { loadEmbeddedSecrets, type EmbeddedSecrets } from "./first-run-secrets.js";
import { closeGracefully } from "../http/graceful-close.js";
import { lockDataDir, type DataDirLock } from "./data-dir-lock.js";
import { openPlugins } from "../../../services/kit/src/plugins/plugin-loader.js";
import { listenOrExplain } from "../../../services/kit/src/runtime/startup-failure.js";

export interface EmbeddedSuite {
  url: string;
  port: number;
  secrets: EmbeddedSecrets;
  close(): Promise<void>;
}

/**
 * Embedded mode (DESIGN 2): the gateway and all six services in one process, calling each other
 * in memory (createDirectTransport: Connect clients and the same interceptors, no encoding), SQLite
 * under the data dir and the in-process bus. Config errors throw ConfigError (main-embedded.ts
 * turns them into an exit naming the variable).
 *
 * The order makes a failed start cost nothing: every setting is read first, then the data
 * directory is locked and the port bound (the refusals an operator meets most), and only then are
 * secrets generated; what must be printed is recorded in the data dir only once the start has
 * succeeded (EmbeddedSecrets.persist), so the next start prints it again.
 */
export async function startEmbedded(env: Env): Promise<EmbeddedSuite> {
  const configs = loadEmbeddedConfigs(env);
  const gw = configs.gateway;
  // One process per data directory, taken before anything in it is read or written; holding it
  // lets the services finish a crashed predecessor's interrupted writes at start
  // (ServiceDeps.soleProcess).
  const lock = gw.common.dataDir === ":memory:" ? undefined : lockDataDir(gw.common.dataDir);
  // Until the gateway is built, the bound port answers 503 (RFC 9110 section 15.6.4) rather than
  // leaving connections hanging.
  let handler: RequestListener = starting;
  const server: Server = createServer((req, res) => handler(req, res));
  try {
    await listenOrExplain(server, gw.port, gw.host, { port: "TESSERA_PORT", host: "TESSERA_HOST" });
    return await startHolding(env, configs, lock, server, (h) => { handler = h; });
  } catch (e) {
    if (server.listening) await new Promise((r) => server.close(r));
    lock?.release();
    throw e;
  }
}

function starting(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(503, { "content-type": "application/json", "retry-after": "1", "cache-control": "no-store" });
  res.end(JSON.stringify({ error: "unavailable", message: "Tessera is starting" }));
}

interface EmbeddedConfigs {
  gateway: GatewayConfig;
  directory: DirectoryConfig;
  token: ReturnType<typeof loadTokenConfig>;
  saml: ReturnType<typeof loadSamlConfig>;
  broker: ReturnType<typeof loadBrokerConfig>;
  federation: ReturnType<typeof loadFederationConfig>;
  audit: ReturnType<typeof loadAuditConfig>;
}

/** Every process's settings, read (and so checked) before the start touches anything. */
function loadEmbeddedConfigs(env: Env): EmbeddedConfigs {
  return {
    gateway: loadGatewayConfig(env),
    directory: loadDirectoryConfig(env),
    token: loadTokenConfig(env),
    saml: loadSamlConfig(env),
    broker: loadBrokerConfig(env),
    federation: loadFederationConfig(env),
    audit: loadAuditConfig(env),
  };
}

async function startHolding(
  env: Env, configs: EmbeddedConfigs, lock: DataDirLock | undefined, server: Server, serve: (h: RequestListener) => void,
): Promise<EmbeddedSuite> {
  const gw = configs.gateway;
  const common = gw.common;
  const logger = createLogger("tessera", common.logLevel);
  const secrets = loadEmbeddedSecrets({
    dataDir: common.dataDir,
    ...(common.masterKey ? { masterKey: common.masterKey } : {}),
    ...(gw.adminApiKey ? { apiKey: gw.adminApiKey } : {}),
    ...(env.TESSERA_ADMIN_USERNAME ? { adminUsername: env.TESSERA_ADMIN_USERNAME } : {}),
    ...(env.TESSERA_ADMIN_PASSWORD ? { adminPassword: env.TESSERA_ADMIN_PASSWORD } : {}),
  });
  // The SQLite stores live in the locked data directory; a MongoDB one may be shared.
  const soleProcess = common.store === "sqlite";
  const metrics = createMetrics({ defaultMetrics: true });
  // Loaded once and shared: in one process every extension point sees the same plugin instances.
  const plugins = await openPlugins(common.plugins, env, logger, metrics);
  const box = new SecretBox(secrets.masterKey);
  // The in-process bus, built here rather than through openBus: that module also brings the NATS
  // client (500 KB of source, about 50 ms of an embedded start), which only a cluster uses.
  const bus = new MemoryBus({ path: common.dataDir === ":memory:" ? ":memory:" : join(common.dataDir, "bus.db"), logger });

  const lazy = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
  const stores: Store[] = [];
  const deps = async (name: ServiceName) => {
    const store = await openServiceStore(name, common, systemClock);
    stores.push(store);
    return { store, bus, logger: logger.child({ service: name }), metrics, transports: lazy, secrets: box, clock: systemClock, soleProcess, plugins };
  };
  const directoryConfig = configs.directory;
  directoryConfig.adminUsername = secrets.admin?.username;
  directoryConfig.adminPassword = secrets.admin?.password;
  const modules: ServiceModule[] = [
    await buildDirectory(await deps("directory"), directoryConfig),
    await buildToken(await deps("token"), configs.token),
    await buildSaml(await deps("saml"), configs.saml),
    await buildBroker(await deps("broker"), configs.broker),
    await buildFederation(await deps("federation"), configs.federation),
    await buildAudit(await deps("audit"), configs.audit),
  ];
  for (const m of modules) {
    lazy[m.name].bind(createDirectTransport((r) => m.routes(r), {
      // No client-side contextPropagation: the caller's request context reaches serverInterceptor
      // through AsyncLocalStorage in process.
      serverInterceptors: [serverInterceptor(m.name, logger.child({ service: m.name }), metrics)],
      freezeMessages: gw.freezeRpcMessages,
    }));
  }
  for (const m of modules) await m.start();

  const httpMetrics = new HttpMetrics(metrics.registry);
  const gateway = createGateway({
    rpc: createRpcClients(lazy),
    logger,
    registries: [metrics.registry],
    httpMetrics,
    apiKeySha256: secrets.apiKeySha256,
    adminTokens: new AdminTokens(secrets.masterKey, `${gw.publicUrl}/admin`),
    trustProxy: gw.trustProxy,
    publicUrl: gw.publicUrl,
    bus,
  });
  httpMetrics.track(server);
  serve(gateway);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : gw.port;
  const url = gw.port === 0 && !env.TESSERA_PUBLIC_URL ? `http://localhost:${port}` : gw.publicUrl;
  secrets.persist();

  return {
    url,
    port,
    secrets,
    async close() {
      await closeGracefully(server);
      for (const m of modules) await m.stop();
      await bus.close();
      for (const s of stores) await s.close();
      lock?.release();
    },
  };
}
