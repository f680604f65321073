import { JwtCheck } from "./jwt-check.js";
import { load, median, processCpuMs, type LoadResult } from "./bench-kit.js";
import type { Row } from "./client-credentials-scenario.js";
import { notRun, pinnedCluster } from "./cluster-scenario.js";
import { provision, startTessera, type TesseraBench } from "./tessera-target.js";

interface Opts { rounds: number; duration: number; connections: number }

interface Contender {
  target: string;
  bench: TesseraBench;
  pids: number[];
  check: JwtCheck;
}

/**
 * The cluster's CPU per client_credentials token against embedded Tessera's (the target: at most
 * 2x), with the internal hop as it ships (frames) and with the Connect hop it replaced
 * (TESSERA_INTERNAL_TRANSPORT=connect), every process pinned to the server core, interleaved
 * rounds. CPU per token is the CPU time of every Tessera process over a round divided by the
 * tokens issued: warm caches, so the MongoDB-wire server takes no part and what the cluster adds
 * is the hop.
 */
export async function clusterHop(opts: Opts): Promise<Row[]> {
  const scenario = "client_credentials RS256 CPU per token, cluster against embedded";
  if (!process.env.TESSERA_BENCH_MONGODB_URI || !process.env.TESSERA_BENCH_NATS_URL) return [notRun(scenario)];
  const contenders: Contender[] = [];
  try {
    const embedded = await startTessera({ alg: "RS256" });
    contenders.push(await contender("Tessera (embedded)", embedded, [embedded.pid!]));
    for (const [transport, target] of [["frames", "Tessera (cluster, frames hop)"], ["connect", "Tessera (cluster, Connect hop)"]] as const) {
      const cluster = (await pinnedCluster(`hop-${transport}`, { TESSERA_INTERNAL_TRANSPORT: transport }))!;
      const bench: TesseraBench = { ...await provision(cluster.url, cluster.apiKey, "RS256"), label: target, stop: () => cluster.stop() };
      contenders.push(await contender(target, bench, Object.values(cluster.processes).map((p) => p.child.pid!)));
    }
    const results = new Map<string, Array<{ load: LoadResult; cpuMs: number }>>();
    for (const c of contenders) await run(c, opts, 3);
    for (let round = 0; round < opts.rounds; round++) {
      for (const c of contenders) results.set(c.target, [...(results.get(c.target) ?? []), await run(c, opts, opts.duration)]);
    }
    const perToken = (target: string) => median(results.get(target)!.map((r) => r.cpuMs / Math.max(r.load.requests, 1)));
    const base = perToken("Tessera (embedded)");
    return contenders.map((c) => {
      const rs = results.get(c.target)!;
      const ms = perToken(c.target);
      return {
        scenario, target: c.target, rps: median(rs.map((r) => r.load.rps)), runs: rs.map((r) => Math.round(r.load.rps)),
        p99ms: median(rs.map((r) => r.load.p99ms)), bad: rs.reduce((n, r) => n + r.load.non2xx + r.load.mismatches + r.load.errors, 0),
        // The ratio leads the note: the history plot reads a row's ratio there (results-history.ts).
        note: (c.target === "Tessera (embedded)" ? "" : `${(ms / base).toFixed(2)} times embedded's CPU per token (target at most 2); `)
          + `CPU per token ${ms.toFixed(3)} ms (rounds: ${rs.map((r) => (r.cpuMs / Math.max(r.load.requests, 1)).toFixed(3)).join(", ")})`,
      };
    });
  } finally {
    for (const c of contenders) await c.bench.stop();
  }
}

async function contender(target: string, bench: TesseraBench, pids: number[]): Promise<Contender> {
  const check = new JwtCheck(await (await fetch(`${bench.issuer}/protocol/openid-connect/certs`)).json() as never);
  return { target, bench, pids, check };
}

async function run(c: Contender, opts: Opts, duration: number): Promise<{ load: LoadResult; cpuMs: number }> {
  const before = processCpuMs(c.pids);
  const result = await load({
    url: `${c.bench.issuer}/protocol/openid-connect/token`, method: "POST", duration, connections: opts.connections, body: "grant_type=client_credentials",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${c.bench.clientId}:${c.bench.clientSecret}`).toString("base64")}` },
    verify: (b) => c.check.tokenResponseOk(b),
  });
  return { load: result, cpuMs: processCpuMs(c.pids) - before };
}
