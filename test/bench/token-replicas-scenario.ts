import { execFileSync } from "node:child_process";
import { adminApi } from "../e2e/support/http.js";
import { freePort } from "../e2e/support/free-port.js";
import { startNode, waitForHttp, type RunningProcess } from "../e2e/support/process-runner.js";
import { balancer } from "../cluster/tcp-balancer.js";
import { JwtCheck } from "./jwt-check.js";
import { load, median, processCpuMs, SERVER_CORE, type LoadResult } from "./bench-kit.js";
import type { Row } from "./client-credentials-scenario.js";
import { CLUSTER, notRun, pinnedCluster, storeServerPids } from "./cluster-scenario.js";

/**
 * client_credentials through a gateway whose token service is one replica, then two, behind a
 * connection balancer (what a Kubernetes Service does). With a core per replica the second
 * replica adds throughput; on the benchmark machine every process shares the one server core, so
 * what is compared is the CPU a token costs: the CPU time of every Tessera process (and, beside
 * it, of the local MongoDB-wire server) over a run, divided by the tokens it issued. Equal costs
 * mean tokens scale with the cores given to the replicas.
 */
export async function clusterTokenReplicas(opts: { rounds: number; duration: number; connections: number }): Promise<Row[]> {
  const rows: Row[] = [];
  for (const replicas of [1, 2]) {
    const scenario = `client_credentials RS256, cluster, ${replicas} token replica${replicas > 1 ? "s" : ""}`;
    const cluster = await pinnedCluster(`replicas${replicas}`, {});
    if (!cluster) return [notRun(scenario)];
    const extra: RunningProcess[] = [];
    const tokenPorts = [Number(new URL(cluster.env.TESSERA_TOKEN_URL!).port)];
    const lb = balancer(tokenPorts);
    try {
      if (replicas === 2) {
        const port = await freePort();
        const token = startNode("services/token/src/main.js", { ...cluster.env, TESSERA_TOKEN_URL: `http://127.0.0.1:${port}` }, "bench-replicas-token-2");
        extra.push(token);
        await waitForHttp(`http://127.0.0.1:${port}/health/ready`, token, 60_000);
        tokenPorts.push(port);
      }
      const lbPort = await freePort();
      await lb.listen(lbPort);
      const gwPort = await freePort();
      const gateway = startNode("gateway/src/main.js", { ...cluster.env, TESSERA_TOKEN_URL: `http://127.0.0.1:${lbPort}`, TESSERA_PORT: String(gwPort) }, `bench-replicas-gateway-${replicas}`);
      extra.push(gateway);
      await waitForHttp(`http://127.0.0.1:${gwPort}/health/ready`, gateway, 60_000);
      for (const p of extra) execFileSync("taskset", ["-a", "-p", "-c", SERVER_CORE, String(p.child.pid)]);

      const api = adminApi(cluster.url, cluster.apiKey);
      await api.post("/admin/realms", { name: "bench" });
      const client = await api.post("/admin/realms/bench/clients", { clientId: "bench-client", grantTypes: ["client_credentials"] });
      const issuer = `http://127.0.0.1:${gwPort}/realms/bench`;
      const check = new JwtCheck(await (await fetch(`${issuer}/protocol/openid-connect/certs`)).json() as never);
      const run = (d: number) => load({
        url: `${issuer}/protocol/openid-connect/token`, method: "POST", duration: d, connections: opts.connections,
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`bench-client:${client.body.secret as string}`).toString("base64")}` },
        body: "grant_type=client_credentials", verify: (b) => check.tokenResponseOk(b),
      });
      const tessera = [...Object.values(cluster.processes), ...extra].map((p) => p.child.pid!);
      const store = storeServerPids();
      await run(2);
      const rs: LoadResult[] = [];
      const perToken: number[] = [];
      const storePerToken: number[] = [];
      for (let i = 0; i < opts.rounds; i++) {
        const [t0, s0] = [processCpuMs(tessera), processCpuMs(store)];
        const r = await run(opts.duration);
        const ok = Math.max(1, r.requests - r.non2xx - r.mismatches);
        perToken.push((processCpuMs(tessera) - t0) / ok);
        storePerToken.push((processCpuMs(store) - s0) / ok);
        rs.push(r);
      }
      rows.push({
        scenario, target: CLUSTER,
        rps: median(rs.map((r) => r.rps)), runs: rs.map((r) => Math.round(r.rps)), p99ms: median(rs.map((r) => r.p99ms)),
        bad: rs.reduce((n, r) => n + r.non2xx + r.mismatches + r.errors, 0),
        note: `CPU per token ${median(perToken).toFixed(2)} ms over the ${tessera.length} Tessera processes`
          + (store.length ? ` (+${median(storePerToken).toFixed(2)} ms in the MongoDB-wire server)` : "")
          + "; all on one core",
      });
    } finally {
      lb.close();
      await Promise.all(extra.map((p) => p.stop()));
      await cluster.stop();
    }
  }
  return rows;
}
