import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { SERVICE_NAMES, type ServiceName } from "../../services/kit/src/module.js";
import { generateMasterKey } from "../../services/kit/src/crypto/secret-box.js";
import { freePort } from "../e2e/support/free-port.js";
import { testServerEnv } from "../e2e/support/test-credentials.js";
import { ProcessExited, startNode, waitForHttp, type RunningProcess } from "../e2e/support/process-runner.js";
import type { TestServer } from "../e2e/support/embedded-server.js";

export interface Cluster extends TestServer {
  processes: Record<ServiceName | "gateway", RunningProcess>;
  env: Record<string, string>;
  /** Starts one process again (after a test stopped it). */
  restart(name: ServiceName | "gateway"): Promise<void>;
}

/**
 * Cluster mode on one machine (DESIGN 2): one process per service plus the gateway, gRPC between
 * them, MongoDB (one database per service) and NATS JetStream. Used by the cluster-mode e2e tier
 * and by `npm run cluster` for development. A launch that fails stops what it started.
 */
export async function launchCluster(opts: LaunchOptions): Promise<Cluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchOnce(opts);
    } catch (e) {
      // freePort() names a port free when asked; something else may bind it before the service
      // does (CI saw a token service die on EADDRINUSE and the tier's setup fail). Fresh ports
      // then almost surely differ; any other failure is the cluster's own and is not retried.
      if (!(e instanceof PortTaken) || attempt >= 3) throw e;
    }
  }
}

interface LaunchOptions {
  mongoUri: string; natsUrl: string; name: string; port?: number; env?: Record<string, string>;
  /** For every process: node options before the entry, and the working directory (benchmarks). */
  nodeArgs?: string[]; cwd?: string;
}

class PortTaken extends Error {}

function internalHopSettings(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["TESSERA_INTERNAL_TRANSPORT", "TESSERA_INTERNAL_CONNECTIONS"]) {
    const v = process.env[name];
    if (v) out[name] = v;
  }
  return out;
}

async function launchOnce(opts: LaunchOptions): Promise<Cluster> {
  const { apiKey, adminPassword, env } = testServerEnv({
    TESSERA_STORE: "mongodb",
    TESSERA_MONGODB_URI: opts.mongoUri,
    TESSERA_MONGODB_DB_PREFIX: `t${randomBytes(4).toString("hex")}`,
    TESSERA_NATS_URL: opts.natsUrl,
    TESSERA_MASTER_KEY: generateMasterKey(),
    // The internal hop's settings pass through, so a suite or a benchmark can run on either.
    ...internalHopSettings(),
    ...(opts.env ?? {}),
  });
  for (const s of SERVICE_NAMES) env[`TESSERA_${s.toUpperCase()}_URL`] = `http://127.0.0.1:${await freePort()}`;
  const port = opts.port ?? await freePort();
  env.TESSERA_PORT = String(port);
  const url = `http://localhost:${port}`;

  const entry = (name: ServiceName | "gateway") => name === "gateway" ? "gateway/src/main.js" : `services/${name}/src/main.js`;
  const processes = {} as Cluster["processes"];
  const start = (name: ServiceName | "gateway") => {
    processes[name] = startNode(entry(name), env, `cluster-${opts.name}-${name}`, {
      ...(opts.nodeArgs ? { nodeArgs: opts.nodeArgs } : {}), ...(opts.cwd ? { cwd: opts.cwd } : {}),
    });
  };
  const stop = async () => {
    await processes.gateway.stop();
    await Promise.all(SERVICE_NAMES.map((s) => processes[s].stop()));
  };
  for (const s of SERVICE_NAMES) start(s);
  start("gateway");
  try {
    await waitForHttp(`${url}/health/ready`, Object.values(processes), 60_000);
  } catch (e) {
    await stop();
    if (!(e instanceof ProcessExited)) throw e;
    // Read once its output has reached the file (exited resolves after the pipes closed).
    await e.process.exited;
    // A taken port is one line naming it (startup-failure.ts): "port N is in use".
    throw /port \d+ is in use/.test(readFileSync(e.process.logFile, "utf8")) ? new PortTaken(e.message) : e;
  }

  return {
    url, apiKey, adminUsername: "admin", adminPassword, mode: "cluster", processes, env,
    async restart(name) {
      start(name);
      await waitForHttp(`${url}/health/ready`, processes.gateway, 60_000);
    },
    stop,
  };
}

// `npm run cluster`: the whole cluster locally, for development.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const mongoUri = process.env.TESSERA_MONGODB_URI;
  const natsUrl = process.env.TESSERA_NATS_URL;
  if (!mongoUri || !natsUrl) {
    process.stderr.write("npm run cluster needs TESSERA_MONGODB_URI and TESSERA_NATS_URL (see README, Cluster mode)\n");
    process.exit(78);
  }
  const cluster = await launchCluster({
    mongoUri, natsUrl, name: "dev", port: Number(process.env.TESSERA_PORT ?? 8080),
    ...(process.env.TESSERA_MONGODB_DB_PREFIX ? { env: { TESSERA_MONGODB_DB_PREFIX: process.env.TESSERA_MONGODB_DB_PREFIX } } : {}),
  });
  process.stdout.write(`Tessera cluster listening on ${cluster.url}\n  X-Admin-API-Key: ${cluster.apiKey}\n  admin password: ${cluster.adminPassword}\n  logs: test/artifacts/logs/cluster-dev-*.log\n`);
  const stop = () => void cluster.stop().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
