import { execFileSync } from "node:child_process";
import { launchCluster } from "../cluster/launch-cluster.js";
import { load, processCpuMs, SERVER_CORE } from "./bench-kit.js";
import { profilingNodeArgs, provision, startTessera, type TesseraBench } from "./tessera-target.js";

/**
 * CPU per client_credentials token, cluster against embedded (the target: the cluster <= 2x embedded),
 * by process: the gateway -> token service hop on its own, every process pinned to the server core.
 *   TESSERA_BENCH_MONGODB_URI=... TESSERA_BENCH_NATS_URL=... taskset -c 1 node dist/test/bench/profile-cluster-token.js [seconds] [prof]
 * `prof` writes a V8 CPU profile of every cluster process to /tmp/prof (the embedded run is not
 * profiled). Warm caches: a client_credentials token makes no store read or write, so the MongoDB-wire
 * server takes no part, and what the cluster adds is the hop itself.
 */
const seconds = Number(process.argv[2] ?? 8);
const prof = process.argv.includes("prof");

async function measure(t: TesseraBench, pids: Array<[string, number]>, s: number): Promise<{ rps: number; perToken: Array<[string, number]>; bad: number }> {
  const before = pids.map(([, pid]) => processCpuMs([pid]));
  const r = await load({
    url: `${t.issuer}/protocol/openid-connect/token`, method: "POST", duration: s, connections: 16, body: "grant_type=client_credentials",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${t.clientId}:${t.clientSecret}`).toString("base64")}` },
    verify: (b) => b.includes("access_token"),
  });
  const perToken = pids.map(([k, pid], i) => [k, (processCpuMs([pid]) - before[i]!) / Math.max(r.requests, 1)] as [string, number]);
  return { rps: r.rps, perToken, bad: r.non2xx + r.mismatches + r.errors };
}

const report = (label: string, m: { rps: number; perToken: Array<[string, number]>; bad: number }) => {
  const total = m.perToken.reduce((n, [, ms]) => n + ms, 0);
  console.log(`${label}: ${Math.round(m.rps)} tokens/s, bad ${m.bad}; CPU per token ${total.toFixed(3)} ms = ${m.perToken.filter(([, ms]) => ms >= 0.001).map(([k, ms]) => `${k} ${ms.toFixed(3)}`).join(" + ")}`);
  return total;
};

const embedded = await startTessera({ alg: "RS256" });
let embeddedMs = 0;
try {
  await measure(embedded, [["embedded", embedded.pid!]], 3);
  embeddedMs = report("embedded", await measure(embedded, [["embedded", embedded.pid!]], seconds));
} finally {
  await embedded.stop();
}

const nodeArgs = profilingNodeArgs(prof);
const cluster = await launchCluster({
  mongoUri: process.env.TESSERA_BENCH_MONGODB_URI!, natsUrl: process.env.TESSERA_BENCH_NATS_URL!, name: "cc-profile",
  env: { TESSERA_LOG_LEVEL: "warn" }, ...(nodeArgs.length ? { nodeArgs } : {}),
});
try {
  for (const p of Object.values(cluster.processes)) execFileSync("taskset", ["-a", "-p", "-c", SERVER_CORE, String(p.child.pid)]);
  const t: TesseraBench = { ...await provision(cluster.url, cluster.apiKey, "RS256"), label: "cluster", stop: () => cluster.stop() };
  const pids = Object.entries(cluster.processes).map(([k, p]) => [k, p.child.pid!] as [string, number]);
  await measure(t, pids, 3);
  const clusterMs = report("cluster", await measure(t, pids, seconds));
  console.log(`cluster / embedded CPU per token: ${(clusterMs / embeddedMs).toFixed(2)}x`);
} finally {
  await cluster.stop();
}
