import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchCluster, type Cluster } from "../cluster/launch-cluster.js";
import { adminApi } from "../e2e/support/http.js";
import { JwtCheck } from "./jwt-check.js";
import { fetchRetrying, listenerPids, load, median, SERVER_CORE, type LoadResult } from "./bench-kit.js";
import type { Row } from "./client-credentials-scenario.js";
import { CHEAP_HASHING, provision, type TesseraBench } from "./tessera-target.js";
import { codeFlow, tesseraEndpoints, type Opts } from "./tessera-scenarios.js";

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
 * sessions, created with cheap hashing, after a full GC in every process, as the embedded memory
 * scenario measures (a heap snapshot on SIGUSR2 collects first). Sessions live in MongoDB here,
 * so what can grow is caches and buffers.
 */
export async function clusterMemory(total = 10_000): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "tessera-cluster-heap-"));
  const cluster = await pinnedCluster("memory", CHEAP_HASHING, {
    nodeArgs: ["--heapsnapshot-signal=SIGUSR2"], cwd: dir,
  });
  if (!cluster) {
    rmSync(dir, { recursive: true, force: true });
    return [notRun("memory, cluster")];
  }
  const quiet = async () => {
    const before = readdirSync(dir).length;
    const processes = Object.values(cluster.processes);
    for (const p of processes) p.child.kill("SIGUSR2");
    for (let i = 0; i < 1200 && readdirSync(dir).length < before + processes.length; i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 2000));
  };
  /** Live heap summed over the processes, as /health/ready reports it (read right after the GC). */
  const heapUsed = async (): Promise<number> => {
    const h = await (await fetchRetrying(`${cluster.url}/health/ready`, {})).json() as {
      gateway: { heapUsedBytes: number }; services: Record<string, { heapUsedBytes?: string | number }>;
    };
    return Object.values(h.services).reduce((n, s) => n + Number(s.heapUsedBytes ?? 0), h.gateway.heapUsedBytes);
  };
  try {
    const api = adminApi(cluster.url, cluster.apiKey);
    await api.post("/admin/realms", { name: "bench" });
    const client = await api.post("/admin/realms/bench/clients", { clientId: "bench-client", grantTypes: ["password"] });
    await api.post("/admin/realms/bench/users", { username: "bench-user", email: "bench@example.test", password: "Bench-password-1" });
    const auth = `Basic ${Buffer.from(`bench-client:${client.body.secret as string}`).toString("base64")}`;
    const body = new URLSearchParams({ grant_type: "password", username: "bench-user", password: "Bench-password-1", scope: "openid" }).toString();
    // Read "idle" only once the processes have settled: after its first heap snapshot a process
    // keeps growing for about a minute with no load at all, then stays (measured: 7 idle processes
    // went from 1.0 to 1.4 GB in the 60 s after a first snapshot, then moved under 1% in two more
    // minutes). Without this, that growth would be counted as the sessions'.
    await quiet();
    await new Promise((r) => setTimeout(r, 60_000));
    await quiet();
    const idle = { rss: totalRss(cluster), heap: await heapUsed() };
    let made = 0;
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (made < total) {
        made++;
        const res = await fetchRetrying(`${cluster.url}/realms/bench/protocol/openid-connect/token`, {
          method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: auth }, body,
        });
        if (res.status !== 200) throw new Error(`token: HTTP ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }
    }));
    await quiet();
    const after = { rss: totalRss(cluster), heap: await heapUsed() };
    return [{
      scenario: "memory, cluster", target: CLUSTER, rps: 0, runs: [], p99ms: 0, bad: 0,
      note: `7 processes after full GC: idle RSS ${mb(idle.rss)} (live heap ${mb(idle.heap)}); after ${total} password-grant sessions `
        + `RSS ${mb(after.rss)} (+${mb(after.rss - idle.rss)}), live heap ${mb(after.heap)} (+${mb(after.heap - idle.heap)}); `
        + "the GC is forced by a heap snapshot, whose own allocations RSS keeps",
    }];
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const CLUSTER = "Tessera (cluster: 6 services + gateway)";

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
async function pinnedCluster(
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
function storeServerPids(): number[] {
  const uri = new URL(process.env.TESSERA_BENCH_MONGODB_URI ?? "mongodb://127.0.0.1:27017");
  return ["127.0.0.1", "localhost", "[::1]"].includes(uri.hostname) ? listenerPids(Number(uri.port || 27017)) : [];
}

function notRun(scenario: string): Row {
  return { scenario, target: "-", rps: 0, runs: [], p99ms: 0, bad: 0, note: "not run: set TESSERA_BENCH_MONGODB_URI and TESSERA_BENCH_NATS_URL" };
}

function totalRss(cluster: Cluster): number {
  return Object.values(cluster.processes).reduce((n, p) => n + rssOf(p.child.pid), 0);
}

const mb = (n: number): string => `${(n / 1048576).toFixed(0)} MB`;

function rssOf(pid: number | undefined): number {
  try {
    const status = execFileSync("cat", [`/proc/${pid}/status`]).toString();
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}
