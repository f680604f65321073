import { connectNodeAdapter } from "@connectrpc/connect-node";
import { loadOrExit, ConfigError, type Env } from "../config.js";
import { createLogger } from "../logger.js";
import { createMetrics } from "../metrics.js";
import { SecretBox } from "../crypto/secret-box.js";
import { systemClock } from "../store/port.js";
import { openBus } from "../bus/open-bus.js";
import { serverInterceptor } from "../rpc/server-interceptor.js";
import { internalRpcToken, requireServiceCredential } from "../rpc/service-auth.js";
import type { ServiceDeps, ServiceModule, ServiceName } from "../module.js";
import type { CommonConfig } from "./common-config.js";
import { openServiceStore } from "./open-deps.js";
import { clusterTransports } from "./service-transports.js";
import { toJson } from "@bufbuild/protobuf";
import { ServiceHealthSchema } from "../../../../gen/iam/kit/v1/kit_pb.js";
import { checkHealth } from "../health.js";
import { DualProtocolServer } from "./dual-protocol-server.js";

type Builder<C> = (deps: ServiceDeps, config: C) => Promise<ServiceModule>;

/**
 * Cluster mode composition root of one service process (DESIGN 4, main.ts): config -> store -> bus
 * -> module -> listen on HTTP/2 (gRPC, gRPC-web and Connect). SIGTERM drains in-flight requests.
 */
export async function runServiceProcess<C extends { common: CommonConfig }>(
  name: ServiceName, loadConfig: (env: Env) => C, build: Builder<C>,
): Promise<void> {
  const config = loadOrExit(() => {
    const c = loadConfig(process.env);
    if (!c.common.serviceUrls[name]) throw new ConfigError(`TESSERA_${name.toUpperCase()}_URL`, "is required: the address this service listens on");
    if (!c.common.masterKey) throw new ConfigError("TESSERA_MASTER_KEY", "is required in cluster mode");
    if (!c.common.natsUrl) throw new ConfigError("TESSERA_NATS_URL", "is required in cluster mode");
    return c;
  });
  const logger = createLogger(name, config.common.logLevel);
  const metrics = createMetrics({ defaultMetrics: true });
  const listen = new URL(config.common.serviceUrls[name] as string);
  const store = await openServiceStore(name, config.common, systemClock);
  const bus = await openBus({ kind: "nats", url: config.common.natsUrl as string, logger });
  const internalToken = internalRpcToken(config.common.masterKey as string);
  const module = await build({
    store, bus, logger, metrics, clock: systemClock,
    secrets: new SecretBox(config.common.masterKey as string),
    transports: clusterTransports(config.common.serviceUrls, internalToken),
  }, config);

  const handler = connectNodeAdapter({
    routes: (r) => module.routes(r),
    // The error mapping wraps the credential check, so a refused call is logged and counted too.
    interceptors: [
      serverInterceptor(name, logger, metrics),
      requireServiceCredential([internalToken, ...(config.common.adminApiKey ? [config.common.adminApiKey] : [])]),
    ],
    // Prometheus scrapes each service process on its own port (GET /metrics); the kubelet
    // probes GET /health (the process serves) and GET /health/ready (its store and bus answer,
    // the body of its Health RPC). All three over HTTP/1.1 or HTTP/2.
    fallback: (req, res) => {
      if (req.method === "GET" && req.url === "/health") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ status: "ok", service: name }));
        return;
      }
      if (req.method === "GET" && req.url === "/health/ready") {
        checkHealth(name, store, bus).then((h) => {
          res.writeHead(h.ready ? 200 : 503, { "content-type": "application/json" });
          res.end(JSON.stringify({
            status: h.ready ? "ok" : "unavailable",
            ...(toJson(ServiceHealthSchema, h, { alwaysEmitImplicit: true }) as object),
          }));
        }, () => { res.writeHead(503); res.end(); });
        return;
      }
      if (req.method === "GET" && req.url === "/metrics") {
        metrics.registry.metrics().then((body) => {
          res.writeHead(200, { "content-type": metrics.registry.contentType });
          res.end(body);
        }, () => { res.writeHead(500); res.end(); });
        return;
      }
      res.writeHead(404);
      res.end();
    },
  });
  // HTTP/2 for gRPC and Connect, HTTP/1.1 for probes and scrapes, on the one port.
  const server = new DualProtocolServer(handler);
  await server.listen(Number(listen.port), listen.hostname);
  await module.start();
  logger.info({ url: listen.origin }, `${name} service listening`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: draining in-flight requests");
    await server.close();
    await module.stop();
    await bus.close();
    await store.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

