import { spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, mkdirSync } from "node:fs";
import { durableCodeFlowCeiling } from "./code-flow-ceiling.js";
import { profilingNodeArgs, startTessera, type TesseraBench } from "./tessera-target.js";
import { JwtCheck } from "./jwt-check.js";
import { oneLogin } from "./tessera-scenarios.js";

/**
 * A quick look at the full code flow without the full benchmark: embedded Tessera pinned to the
 * server core, 8 browsers looping authorize -> login -> token -> logout, flows/s and the server's
 * CPU per flow by thread (from /proc/<pid>/task/<tid>/stat: V8's wall-clock profile misleads when
 * argon2 and the main thread share one core).
 *   taskset -c 1 node dist/test/bench/profile-flow.js [seconds] [prof] [cheap] [ceiling]
 * `prof` writes a V8 CPU profile of the server to /tmp/prof; `cheap` uses cheap hashing;
 * `ceiling` runs the same browsers against the durable ceiling (code-flow-ceiling-server.ts)
 * instead. With PERF=<file>, the last run is also recorded by `perf record -F 999 -g` into that
 * file, for perf-split.js.
 */
const seconds = Number(process.argv[2] ?? 10);
const prof = process.argv.includes("prof");
const cheap = process.argv.includes("cheap");
rmSync("/tmp/prof", { recursive: true, force: true });
mkdirSync("/tmp/prof");
const t: TesseraBench = process.argv.includes("ceiling")
  ? await durableCodeFlowCeiling(cheap)
  : await startTessera({ alg: "RS256", cheapHashing: cheap, nodeArgs: profilingNodeArgs(prof) });
const check = new JwtCheck(await (await fetch(`${t.issuer}/protocol/openid-connect/certs`)).json() as never);
const pid = t.pid!;
const tick = 100; // USER_HZ on Linux

/** CPU ticks per thread name (utime + stime). */
function threads(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const key = tid === String(pid) ? "main" : name;
      out.set(`${key} user`, (out.get(`${key} user`) ?? 0) + Number(f[11]));
      out.set(`${key} sys`, (out.get(`${key} sys`) ?? 0) + Number(f[12]));
    } catch { /* thread ended */ }
  }
  return out;
}

async function run(s: number, perfFile?: string): Promise<void> {
  let ok = 0, bad = 0;
  const perf = perfFile ? spawn("perf", ["record", "-q", "-F", "999", "-g", "-p", String(pid), "-o", perfFile], { stdio: "ignore" }) : undefined;
  const before = threads();
  const until = Date.now() + s * 1000;
  await Promise.all(Array.from({ length: Number(process.env.WORKERS ?? 8) }, async () => {
    while (Date.now() < until) { try { (await oneLogin(t, check)) ? ok++ : bad++; } catch { bad++; } }
  }));
  const after = threads();
  if (perf) {
    perf.kill("SIGINT");
    await new Promise((resolve) => perf.once("exit", resolve));
  }
  const per = [...after].map(([k, v]) => `${k} ${(((v - (before.get(k) ?? 0)) * 1000) / tick / Math.max(ok, 1)).toFixed(2)}ms`).join(", ");
  console.log(`${(ok / s).toFixed(1)} flows/s, bad ${bad}; CPU per flow: ${per}`);
  if (perf) console.log(`perf: ${ok} flows of pid ${pid} in ${perfFile} (perf script -i ${perfFile} | node dist/test/bench/perf-split.js ${pid} ${ok})`);
}

await run(2);
const runs = Number(process.env.RUNS ?? 2);
for (let i = 0; i < runs; i++) await run(seconds, i === runs - 1 ? process.env.PERF : undefined);
await t.stop();
