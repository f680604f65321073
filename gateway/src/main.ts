import { createServer } from "node:http";
import { ConfigError, withoutCredentials } from "../../services/kit/src/config.js";
import { listenOrExplain, startOrExit } from "../../services/kit/src/runtime/startup-failure.js";
import { createLogger } from "../../services/kit/src/logger.js";
import { createMetrics } from "../../services/kit/src/metrics.js";
import { sha256Hex } from "../../services/kit/src/crypto/random.js";
import { clusterTransports } from "../../services/kit/src/runtime/service-transports.js";
import { internalRpcToken } from "../../services/kit/src/rpc/service-auth.js";
import { loadGatewayConfig } from "./config.js";
import { openBus } from "../../services/kit/src/bus/open-bus.js";
import { createGateway } from "./app.js";
import { createRpcClients } from "./rpc-clients.js";
import { warmLazyImports } from "../../services/kit/src/runtime/lazy-import.js";
import { HttpMetrics } from "./http/http-metrics.js";
import { AdminTokens } from "./admin/admin-tokens.js";
import { closeGracefully } from "./http/graceful-close.js";

// Cluster mode: the gateway as its own process, calling the services over gRPC (DESIGN 2). Any
// failure to start is one line on stderr and exit 78 (startup-failure.ts).
const { config, server, bus, logger } = await startOrExit(async () => {
  const config = loadGatewayConfig(process.env);
  if (!config.adminApiKey) throw new ConfigError("TESSERA_ADMIN_API_KEY", "is required in cluster mode");
  if (!config.common.masterKey) throw new ConfigError("TESSERA_MASTER_KEY", "is required in cluster mode");
  const logger = createLogger("gateway", config.common.logLevel);
  // NATS (optional for the gateway): its caches then follow the directory's events at once;
  // without it a change made elsewhere shows here within the caches' age (5-10 s).
  const natsUrl = config.common.natsUrl;
  const bus = natsUrl ? await openBus({ kind: "nats", url: natsUrl, logger }).catch((e: unknown) => {
    throw new ConfigError("TESSERA_NATS_URL", `cannot connect to ${withoutCredentials(natsUrl)}: ${(e as Error).message}`);
  }) : undefined;
  if (!bus) logger.warn("TESSERA_NATS_URL is not set: realm looks, web origins and rate limits changed through other replicas apply here within 5-10 s");
  const metrics = createMetrics({ defaultMetrics: true });
  const httpMetrics = new HttpMetrics(metrics.registry);
  const gateway = createGateway({
    rpc: createRpcClients(clusterTransports(config.common.serviceUrls, internalRpcToken(config.common.masterKey), {
      transport: config.common.internalTransport, connections: config.common.internalConnections,
    })),
    logger,
    registries: [metrics.registry],
    httpMetrics,
    apiKeySha256: sha256Hex(config.adminApiKey),
    adminTokens: new AdminTokens(config.common.masterKey, `${config.publicUrl}/admin`),
    trustProxy: config.trustProxy,
    publicUrl: config.publicUrl,
    ...(bus ? { bus } : {}),
  });
  const server = createServer(gateway);
  httpMetrics.track(server);
  await listenOrExplain(server, config.port, config.host, { port: "TESSERA_PORT", host: "TESSERA_HOST" });
  return { config, server, bus, logger };
});
logger.info({ url: config.publicUrl }, "gateway listening");
// Serving now: load what was left for first use, so that use rarely waits.
void warmLazyImports();

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down: draining in-flight requests");
  closeGracefully(server).then(async () => { await bus?.close(); process.exit(0); }, () => process.exit(1));
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
