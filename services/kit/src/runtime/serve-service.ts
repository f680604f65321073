import { connectNodeAdapter } from "@connectrpc/connect-node";
import { ConfigError, withoutCredentials, type Env } from "../config.js";
import { explainListenFailure, startOrExit } from "./startup-failure.js";
import { createLogger } from "../logger.js";
import { createMetrics } from "../metrics.js";
import { SecretBox } from "../crypto/secret-box.js";
import { systemClock } from "../store/port.js";
import { openBus } from "../bus/open-bus.js";
import { serverInterceptor } from "../rpc/server-interceptor.js";
import { internalRpcToken, requireServiceCredential, serviceCredentialCheck } from "../rpc/service-auth.js";
import { FrameServer } from "../rpc/frame-server.js";
import type { ServiceDeps, ServiceModule, ServiceName } from "../module.js";
import type { CommonConfig } from "./common-config.js";
import { warmLazyImports } from "./lazy-import.js";
import { openServiceStore } from "./open-deps.js";
import { clusterTransports } from "./service-transports.js";
import { toJson } from "@bufbuild/protobuf";
import { ServiceHealthSchema } from "../../../../gen/iam/kit/v1/kit_pb.js";
import { checkHealth } from "../health.js";
import { DualProtocolServer } from "./dual-protocol-server.js";
import { openPlugins } from "../plugins/plugin-loader.js";

type Builder<C> = (deps: ServiceDeps, config: C) => Promise<ServiceModule>;

/**
 * Cluster mode composition root of one service process (DESIGN 4, main.ts): config -> store -> bus
 * -> module -> listen on HTTP/2 (gRPC, gRPC-web and Connect). SIGTERM drains in-flight requests.
 */
export async function runServiceProcess<C extends { common: CommonConfig }>(
  name: ServiceName, loadConfig: (env: Env) => C, build: Builder<C>,
): Promise<void> {
  // Any failure to start is one line on stderr and exit 78 (startup-failure.ts).
  const { logger, server, module, bus, store, frames } = await startOrExit(async () => {
    const config = loadConfig(process.env);
    const listenUrl = config.common.serviceUrls[name];
    const urlVariable = `TESSERA_${name.toUpperCase()}_URL`;
    if (!listenUrl) throw new ConfigError(urlVariable, "is required: the address this service listens on");
    const masterKey = config.common.masterKey;
    if (!masterKey) throw new ConfigError("TESSERA_MASTER_KEY", "is required in cluster mode");
    const natsUrl = config.common.natsUrl;
    if (!natsUrl) throw new ConfigError("TESSERA_NATS_URL", "is required in cluster mode");
    const logger = createLogger(name, config.common.logLevel);
    const metrics = createMetrics({ defaultMetrics: true });
    const listen = new URL(listenUrl);
    // Before the store and the bus: a bad plugin is a setting's mistake, reported as such.
    const plugins = await openPlugins(config.common.plugins, process.env, logger, metrics);
    const store = await openServiceStore(name, config.common, systemClock).catch((e: unknown) => {
      throw config.common.store === "mongodb"
        ? new ConfigError("TESSERA_MONGODB_URI", `cannot open the ${name} store at ${withoutCredentials(config.common.mongodbUri ?? "")}: ${(e as Error).message}`)
        : e;
    });
    const bus = await openBus({ kind: "nats", url: natsUrl, logger }).catch((e: unknown) => {
      throw new ConfigError("TESSERA_NATS_URL", `cannot connect to ${withoutCredentials(natsUrl)}: ${(e as Error).message}`);
    });
    const internalToken = internalRpcToken(masterKey);
    const module = await build({
      store, bus, logger, metrics, clock: systemClock, plugins,
      secrets: new SecretBox(masterKey),
      transports: clusterTransports(config.common.serviceUrls, internalToken, {
        transport: config.common.internalTransport, connections: config.common.internalConnections,
      }),
    }, config);

    const credentials = [internalToken, ...(config.common.adminApiKey ? [config.common.adminApiKey] : [])];
    // The internal hop (rpc/frame-server.ts), whichever transport this process calls others by:
    // a peer may be set otherwise during a rolling change of TESSERA_INTERNAL_TRANSPORT.
    const frames = new FrameServer({
      routes: (r) => module.routes(r), interceptors: [serverInterceptor(name, logger, metrics)],
      credentialAccepted: serviceCredentialCheck(credentials), logger,
    });
    const connect = connectNodeAdapter({
      routes: (r) => module.routes(r),
      // The error mapping wraps the credential check, so a refused call is logged and counted too.
      interceptors: [
        serverInterceptor(name, logger, metrics),
        requireServiceCredential(credentials),
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
    // HTTP/2 for the frames hop, gRPC and Connect, HTTP/1.1 for probes and scrapes, on the one port.
    const server = new DualProtocolServer((req, res) => (frames.handles(req) ? frames.accept(req, res) : connect(req, res)));
    // The listen URL's host and port are both TESSERA_<SERVICE>_URL.
    await server.listen(Number(listen.port), listen.hostname)
      .catch((e: Error) => { throw explainListenFailure(e, Number(listen.port), listen.hostname, { port: urlVariable, host: urlVariable }); });
    await module.start();
    logger.info({ url: listen.origin }, `${name} service listening`);
    // Serving now: load what was left for first use, so that use rarely waits.
    void warmLazyImports();
    return { logger, server, module, bus, store, frames };
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: draining in-flight requests");
    // GOAWAY first (the clients open new streams elsewhere), then end the frames streams as
    // their calls in flight are answered.
    const closed = server.close();
    frames.drain();
    await closed;
    await module.stop();
    await bus.close();
    await store.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

