import { execFileSync } from "node:child_process";
import { launchCluster } from "../cluster/launch-cluster.js";
import { adminApi } from "../e2e/support/http.js";
import { JwtCheck } from "./jwt-check.js";
import { load, median, SERVER_CORE, type LoadResult } from "./bench-kit.js";
import type { Row } from "./client-credentials-scenario.js";

/**
 * client_credentials against the cluster (one process per service, gRPC between them, MongoDB-wire
 * store, NATS), every process pinned to the server core like the embedded runs. Needs
 * TESSERA_BENCH_MONGODB_URI and TESSERA_BENCH_NATS_URL; RSS is the sum over the processes.
 */
export async function clusterClientCredentials(opts: { rounds: number; duration: number; connections: number }): Promise<Row[]> {
  const mongoUri = process.env.TESSERA_BENCH_MONGODB_URI;
  const natsUrl = process.env.TESSERA_BENCH_NATS_URL;
  if (!mongoUri || !natsUrl) {
    return [{ scenario: "client_credentials RS256, cluster", target: "-", rps: 0, runs: [], p99ms: 0, bad: 0, note: "not run: set TESSERA_BENCH_MONGODB_URI and TESSERA_BENCH_NATS_URL" }];
  }
  const cluster = await launchCluster({ mongoUri, natsUrl, name: "bench", env: { TESSERA_LOG_LEVEL: "warn" } });
  try {
    for (const p of Object.values(cluster.processes)) {
      execFileSync("taskset", ["-a", "-p", "-c", SERVER_CORE, String(p.child.pid)]);
    }
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
    const rss = Object.values(cluster.processes).reduce((n, p) => n + rssOf(p.child.pid), 0);
    return [{
      scenario: "client_credentials RS256, cluster", target: "Tessera (cluster: 6 services + gateway)",
      rps: median(rs.map((r) => r.rps)), runs: rs.map((r) => Math.round(r.rps)), p99ms: median(rs.map((r) => r.p99ms)),
      bad: rs.reduce((n, r) => n + r.non2xx + r.mismatches + r.errors, 0),
      note: `total RSS of 7 processes ${(rss / 1048576).toFixed(0)} MB`,
    }];
  } finally {
    await cluster.stop();
  }
}

function rssOf(pid: number | undefined): number {
  try {
    const status = execFileSync("cat", [`/proc/${pid}/status`]).toString();
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}
