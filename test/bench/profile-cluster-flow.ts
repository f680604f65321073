import { execFileSync, spawn } from "node:child_process";
import { launchCluster } from "../cluster/launch-cluster.js";
import { JwtCheck } from "./jwt-check.js";
import { listenerPids, processCpuMs, SERVER_CORE } from "./bench-kit.js";
import { CHEAP_HASHING, profilingNodeArgs, provision, type TesseraBench } from "./tessera-target.js";
import { oneLogin } from "./tessera-scenarios.js";

/**
 * The full code flow against the cluster with cheap hashing, every process pinned to the server
 * core as in the benchmark: flows/s and CPU per flow of each process and of the MongoDB-wire server.
 *   TESSERA_BENCH_MONGODB_URI=... TESSERA_BENCH_NATS_URL=... taskset -c 1 node dist/test/bench/profile-cluster-flow.js [seconds] [prof]
 * `prof` writes a V8 CPU profile of every process to /tmp/prof.
 */
const seconds = Number(process.argv[2] ?? 10);
const mongoUri = process.env.TESSERA_BENCH_MONGODB_URI!;
const natsUrl = process.env.TESSERA_BENCH_NATS_URL!;
const nodeArgs = profilingNodeArgs(process.argv.includes("prof"));
const cluster = await launchCluster({
  mongoUri, natsUrl, name: "profile", env: { TESSERA_LOG_LEVEL: "warn", ...CHEAP_HASHING }, ...(nodeArgs.length ? { nodeArgs } : {}),
});
// Stopped whatever happens: a failed provision must not leave seven processes running.
try {
  for (const p of Object.values(cluster.processes)) execFileSync("taskset", ["-a", "-p", "-c", SERVER_CORE, String(p.child.pid)]);
  const t: TesseraBench = { ...await provision(cluster.url, cluster.apiKey, "RS256"), label: "cluster", stop: () => cluster.stop() };
  const check = new JwtCheck(await (await fetch(`${t.issuer}/protocol/openid-connect/certs`)).json() as never);
  const store = listenerPids(Number(new URL(mongoUri).port));

  const procs = (): [string, number][] => [
    ...Object.entries(cluster.processes).map(([k, p]) => [k, p.child.pid!] as [string, number]),
    ...store.map((p) => ["store", p] as [string, number]),
  ];

  async function run(s: number): Promise<void> {
    let ok = 0, bad = 0;
    const before = new Map(procs().map(([k, pid]) => [k, processCpuMs([pid])]));
    const until = Date.now() + s * 1000;
    await Promise.all(Array.from({ length: Number(process.env.WORKERS ?? 8) }, async () => {
      while (Date.now() < until) { try { (await oneLogin(t, check)) ? ok++ : bad++; } catch { bad++; } }
    }));
    const per = procs().map(([k, pid]) => `${k} ${((processCpuMs([pid]) - before.get(k)!) / Math.max(ok, 1)).toFixed(1)}`).join(", ");
    console.log(`${(ok / s).toFixed(1)} flows/s, bad ${bad}; CPU ms per flow: ${per}`);
  }

  await run(3);
  // PERF=<process>: `perf record` that process's threads during the first measured run (start the
  // cluster with SERVER_NODE_ARGS=--perf-basic-prof for JavaScript names).
  const perfOf = process.env.PERF as keyof typeof cluster.processes | undefined;
  const perf = perfOf ? spawn("perf", ["record", "-F", "1999", "-g", "-p", String(cluster.processes[perfOf].child.pid), "-o", `/tmp/perf-${perfOf}.data`, "--", "sleep", String(seconds)], { stdio: "ignore" }) : undefined;
  for (let i = 0; i < Number(process.env.RUNS ?? 2); i++) await run(seconds);
  if (perf) await new Promise((r) => perf.once("exit", r));
} finally {
  await cluster.stop();
}
