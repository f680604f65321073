import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchCluster, type Cluster } from "../cluster/launch-cluster.js";
import { adminApi } from "../e2e/support/http.js";
import { JwtCheck } from "./jwt-check.js";
import { fetchRetrying, GC_NODE_ARGS, listenerPids, load, median, rssOf, SERVER_CORE, settledRss, signedMb, type LoadResult } from "./bench-kit.js";
import type { Row } from "./client-credentials-scenario.js";
import { CHEAP_HASHING, provision, type TesseraBench } from "./tessera-target.js";
import { codeFlow, passwordLogins, tesseraEndpoints, WARM_UP_SESSIONS, type Opts } from "./tessera-scenarios.js";

/**
 * client_credentials against the cluster (one process per service, Connect over HTTP/2 between
 * them, MongoDB-wire store, NATS), every process pinned to the server core like the embedded runs.
 * Needs TESSERA_BENCH_MONGODB_URI and TESSERA_BENCH_NATS_URL; RSS is the sum over the processes.
 */
export async function clusterClientCredentials(opts: { rounds: number; duration: number; connections: number }): Promise<Row[]> {
  const cluster = await pinnedCluster("bench", {});
  if (!cluster) return [notRun("client_credentials RS256, cluster")];
  try {
    const api = adminApi(cluster.url, cluster.apiKey);
    await api.post("/admin/realms", { name: "bench" });
    const client = await api.post("/admin/realms/bench/clients", { clientId: "bench-client", grantTypes: ["client_credentials"] });
    const issuer = `${cluster.url}/realms/bench`;
    const check = new JwtCheck(await (await fetch(`${issuer}/protocol/openid-connect/certs`)).json() as never);
    const auth = `Basic ${Buffer.from(`bench-client:${client.body.secret as string}`).toString("base64")}`;
    const run = (d: number) => load({
      url: `${issuer}/protocol/openid-connect/token`, method: "POST", duration: d, connections: opts.connections,
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: auth }, body: "grant_type=client_credentials",
      verify: (b) => check.tokenResponseOk(b),
    });
    await run(2);
    const rs: LoadResult[] = [];
    for (let i = 0; i < opts.rounds; i++) rs.push(await run(opts.duration));
    return [{
      scenario: "client_credentials RS256, cluster", target: CLUSTER,
      rps: median(rs.map((r) => r.rps)), runs: rs.map((r) => Math.round(r.rps)), p99ms: median(rs.map((r) => r.p99ms)),
      bad: rs.reduce((n, r) => n + r.non2xx + r.mismatches + r.errors, 0),
      note: `total RSS of 7 processes ${mb(totalRss(cluster))}`,
    }];
  } finally {
    await cluster.stop();
  }
}

/**
 * The cluster's RSS (summed over its 7 processes) at idle and after 10,000 password-grant
 * sessions, created with cheap hashing, each read once RSS has settled after full collections
 * (bench-kit.ts settledRss), as the embedded memory scenario reads. Sessions live in MongoDB here, so what
 * can grow is caches and buffers.
 */
export async function clusterMemory(total = 10_000): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "tessera-cluster-gc-"));
  const cluster = await pinnedCluster("memory", CHEAP_HASHING, { nodeArgs: GC_NODE_ARGS, cwd: dir });
  if (!cluster) {
    rmSync(dir, { recursive: true, force: true });
    return [notRun("memory, cluster")];
  }
  const pids = Object.values(cluster.processes).map((p) => p.child.pid!);
  try {
    const api = adminApi(cluster.url, cluster.apiKey);
    await api.post("/admin/realms", { name: "bench" });
    const client = await api.post("/admin/realms/bench/clients", { clientId: "bench-client", grantTypes: ["password"] });
    await api.post("/admin/realms/bench/users", { username: "bench-user", email: "bench@example.test", password: "Bench-password-1" });
    const auth = `Basic ${Buffer.from(`bench-client:${client.body.secret as string}`).toString("base64")}`;
    const body = new URLSearchParams({ grant_type: "password", username: "bench-user", password: "Bench-password-1", scope: "openid" }).toString();
    const logins = (n: number) => passwordLogins(`${cluster.url}/realms/bench/protocol/openid-connect/token`, auth, body, n);
    // The first logins warm what every later one reuses (compiled code, keys, caches, connection
    // pools): "idle" is read after them, so the sessions are not charged with the warm-up.
    await logins(WARM_UP_SESSIONS);
    const idle = await settledRss(pids, dir);
    await logins(total);
    const after = await settledRss(pids, dir);
    return [{
      scenario: "memory, cluster", target: CLUSTER, rps: 0, runs: [], p99ms: 0, bad: 0,
      note: `7 processes, RSS settled after full collections (bench-kit.ts settledRss): idle ${mb(idle.rss)} (live heap ${mb(idle.heapUsed)}; after ${WARM_UP_SESSIONS} warm-up sessions); `
        + `after ${total} more password-grant sessions RSS ${mb(after.rss)} (${signedMb(after.rss - idle.rss)}), live heap ${mb(after.heapUsed)} (${signedMb(after.heapUsed - idle.heapUsed)}); `
        + "Keycloak publishes 500 MB per 100,000 sessions",
    }];
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const CLUSTER = "Tessera (cluster: 6 services + gateway)";

/**
 * The embedded scenarios (discovery, JWKS, introspection, refresh, password grant; the full code
 * flow) against the cluster, every process pinned to the server core: what the same work costs
 * with a network hop per RPC, MongoDB-wire storage and NATS. The argon2id baseline is the same
 * single-core rate, so the ratios read like the embedded ones.
 */
export async function clusterScenarios(opts: Opts): Promise<Row[]> {
  if (!process.env.TESSERA_BENCH_MONGODB_URI || !process.env.TESSERA_BENCH_NATS_URL) return [notRun("endpoints and code flow, cluster")];
  let runs = 0;
  const start = async (cheapHashing: boolean): Promise<TesseraBench> => {
    // Each start gets its own databases: a scenario's sessions and codes do not carry into the next.
    // The launcher's defaults are the e2e tests' cheap hashing: the real rows name the production cost.
    const cluster = await pinnedCluster(`scenario${++runs}`, cheapHashing ? CHEAP_HASHING : { TESSERA_ARGON2_MEMORY_KIB: "19456", TESSERA_ARGON2_ITERATIONS: "2" });
    if (!cluster) throw new Error("cluster not started");
    try {
      return { ...await provision(cluster.url, cluster.apiKey, "RS256"), label: CLUSTER, storePids: storeServerPids(), stop: () => cluster.stop() };
    } catch (e) {
      await cluster.stop();
      throw e;
    }
  };
  return [...await tesseraEndpoints(opts, start), ...await codeFlow(opts, start)];
}

/** A cluster with every process pinned to the server core, or null without the bench's servers. */
export async function pinnedCluster(
  name: string, env: Record<string, string>, run: { nodeArgs?: string[]; cwd?: string } = {},
): Promise<Cluster | null> {
  const mongoUri = process.env.TESSERA_BENCH_MONGODB_URI;
  const natsUrl = process.env.TESSERA_BENCH_NATS_URL;
  if (!mongoUri || !natsUrl) return null;
  const cluster = await launchCluster({ mongoUri, natsUrl, name, env: { TESSERA_LOG_LEVEL: "warn", ...env }, ...run });
  for (const p of Object.values(cluster.processes)) {
    execFileSync("taskset", ["-a", "-p", "-c", SERVER_CORE, String(p.child.pid)]);
  }
  return cluster;
}

/**
 * The local MongoDB-wire server behind TESSERA_BENCH_MONGODB_URI (FerretDB in CI): not pinned,
 * and its CPU per request is reported beside the rows, since on this machine it is a large part
 * of what a cluster request costs. [] for a remote server.
 */
export function storeServerPids(): number[] {
  const uri = new URL(process.env.TESSERA_BENCH_MONGODB_URI ?? "mongodb://127.0.0.1:27017");
  return ["127.0.0.1", "localhost", "[::1]"].includes(uri.hostname) ? listenerPids(Number(uri.port || 27017)) : [];
}

export function notRun(scenario: string): Row {
  return { scenario, target: "-", rps: 0, runs: [], p99ms: 0, bad: 0, note: "not run: set TESSERA_BENCH_MONGODB_URI and TESSERA_BENCH_NATS_URL" };
}

function totalRss(cluster: Cluster): number {
  return Object.values(cluster.processes).reduce((n, p) => n + rssOf(p.child.pid!), 0);
}

const mb = (n: number): string => `${(n / 1048576).toFixed(0)} MB`;

