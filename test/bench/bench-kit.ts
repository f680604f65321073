import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { DIST } from "../e2e/support/process-runner.js";

/** The core the server under test runs on; the load generator (this process) runs on the other. */
export const SERVER_CORE = "0";

export interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
  rssBytes(): number;
}

/** Starts a compiled entry pinned to the server core and waits for its readiness line or URL. */
export async function startPinned(
  name: string, entry: string, args: string[], env: Record<string, string>, readyUrl: string,
  nodeArgs: string[] = [], cwd?: string,
): Promise<Server> {
  const child = spawn("taskset", ["-c", SERVER_CORE, process.execPath, ...nodeArgs, join(DIST, entry), ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    ...(cwd ? { cwd } : {}),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => { out += String(d); });
  child.stderr?.on("data", (d) => { out += String(d); });
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${out.slice(-2000)}`);
    try {
      const r = await fetch(readyUrl);
      if (r.status < 500) break;
    } catch { /* not yet */ }
    if (Date.now() > until) throw new Error(`${name} not ready: ${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name,
    url: new URL(readyUrl).origin,
    child,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
    rssBytes() {
      // The taskset child execs node, so its pid is the server's.
      return rssOf(child.pid!);
    },
  };
}

export interface LoadResult {
  rps: number;
  requests: number;
  non2xx: number;
  mismatches: number;
  errors: number;
  p99ms: number;
}

/** One autocannon run; every response body goes through `verify` (a failure counts as a mismatch). */
export async function load(opts: {
  url: string; method?: "GET" | "POST"; headers?: Record<string, string>; body?: string;
  connections: number; duration: number; verify?: (body: string) => boolean;
}): Promise<LoadResult> {
  const r = await autocannon({
    url: opts.url,
    method: opts.method ?? "GET",
    headers: opts.headers ?? {},
    ...(opts.body !== undefined ? { body: opts.body } : {}),
    connections: opts.connections,
    duration: opts.duration,
    ...(opts.verify ? { verifyBody: (b: string | Buffer | undefined) => opts.verify!(b === undefined ? "" : String(b)) } : {}),
  });
  return {
    rps: r.requests.average,
    requests: r.requests.total,
    non2xx: r.non2xx,
    mismatches: (r as unknown as { mismatches?: number }).mismatches ?? 0,
    errors: r.errors + r.timeouts,
    p99ms: r.latency.p99,
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : ((s[m - 1]! + s[m]!) / 2);
}

export function machine(): { cpu: string; cores: number; commit: string } {
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  const cpu = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1]?.trim() ?? "unknown";
  const cores = (cpuinfo.match(/^processor\s*:/gm) ?? []).length;
  let commit = "unknown";
  try { commit = execFileSync("git", ["rev-parse", "--short", "HEAD"]).toString().trim(); } catch { /* not a checkout */ }
  return { cpu, cores, commit };
}

/**
 * fetch, tried again on a network error, for the memory scenarios: after a full collection's pause
 * the server may have closed idle keep-alive sockets, and the first requests on them fail with
 * ECONNRESET. An extra session changes nothing there; load scenarios never retry.
 */
export async function fetchRetrying(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

/** A change in bytes as MB with its sign: "+15 MB", "-42 MB". */
export function signedMb(bytes: number): string {
  const mb = Math.round(bytes / 1048576);
  return `${mb < 0 ? "-" : "+"}${Math.abs(mb)} MB`;
}

/** Node options for a server the memory scenarios collect in: gc-on-signal.ts, preloaded. */
export const GC_NODE_ARGS = ["--expose-gc", "--import", pathToFileURL(join(DIST, "test/bench/gc-on-signal.js")).href];

/**
 * Full collections in the given processes, started with GC_NODE_ARGS and the working directory
 * `dir`: SIGUSR2 to each, then waits for each one's marker file; its heap used as it left it, summed.
 */
export async function collectGarbage(pids: number[], dir: string): Promise<number> {
  const marker = (pid: number) => readdirSync(dir).filter((f) => f.startsWith(`gc-${pid}-`)).length;
  const before = pids.map(marker);
  for (const pid of pids) process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 600 && pids.some((pid, k) => marker(pid) === before[k]); i++) await new Promise((r) => setTimeout(r, 100));
  if (pids.some((pid, k) => marker(pid) === before[k])) throw new Error("a process did not report its collection within 60 s");
  return pids.reduce((n, pid, k) => {
    const usage = JSON.parse(readFileSync(join(dir, `gc-${pid}-${before[k]! + 1}`), "utf8")) as { heapUsed: number };
    return n + usage.heapUsed;
  }, 0);
}

/** A process's resident set in bytes (VmRSS), 0 once it has ended. */
export function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * The processes' summed RSS once the work a load left behind is done and the memory it freed has
 * left. First waits (up to 3 min) until the processes together use under 2% of a core over 2 s:
 * the consumers of a load's bus events keep working and allocating after its last response
 * (measured: 7 cluster processes were still busy 30 s after 10,000 logins, and one's heap read
 * 30 MB over what a snapshot of it held). Then a full collection in each every 10 s until three
 * readings in a row lie within 1% of each other (at most 12); returns the last, with the heap the
 * collections left (summed). Freed memory leaves RSS in steps: after 10,000 logins the cluster read
 * 892 MB, 841 after a collection, 754 and 751 after one 10 and 20 s later, 653 at 30 s, against
 * 659 at idle before them. One reading right after the load counted that work and that lag as
 * memory the sessions keep.
 */
export async function settledRss(pids: number[], dir: string): Promise<{ rss: number; heapUsed: number }> {
  const window = 2000;
  for (let waited = 0; waited < 180_000; waited += window) {
    const before = processCpuMs(pids);
    await new Promise((r) => setTimeout(r, window));
    if (processCpuMs(pids) - before < window / 50) break;
  }
  const readings: Array<{ rss: number; heapUsed: number }> = [];
  for (let round = 0; round < 12; round++) {
    if (round > 0) await new Promise((r) => setTimeout(r, 10_000));
    const heapUsed = await collectGarbage(pids, dir);
    readings.push({ rss: pids.reduce((n, pid) => n + rssOf(pid), 0), heapUsed });
    const last3 = readings.slice(-3).map((r) => r.rss);
    if (last3.length === 3 && Math.max(...last3) - Math.min(...last3) < Math.min(...last3) / 100) break;
  }
  return readings[readings.length - 1]!;
}

/**
 * CPU time (ms) of a process's main thread and of all its other threads together (the libuv pool,
 * where argon2id and signatures run, and V8's helpers), from /proc/<pid>/task/<tid>/stat.
 * Per-thread time is what shows where a login's core time goes: V8's profile cannot when the pool
 * and the main thread share one core.
 */
export function threadCpuMs(pid: number): { main: number; others: number } {
  let main = 0, others = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ms = cpuMsOf(`/proc/${pid}/task/${tid}/stat`);
      if (tid === String(pid)) main += ms;
      else others += ms;
    } catch { /* the thread ended */ }
  }
  return { main, others };
}

/**
 * The processes listening on a local TCP port (the cluster runs' MongoDB-wire server, found from
 * its URI), from /proc/net/tcp{,6} and the socket inodes in /proc/<pid>/fd; [] when none is
 * visible to this user.
 */
export function listenerPids(port: number): number[] {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try { text = readFileSync(table, "utf8"); } catch { continue; }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the 10th field.
      if (f[3] === "0A" && parseInt(f[1]?.split(":")[1] ?? "", 16) === port && f[9]) inodes.add(`socket:[${f[9]}]`);
    }
  }
  const pids: number[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (readdirSync(`/proc/${pid}/fd`).some((fd) => inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`)))) pids.push(Number(pid));
    } catch { /* gone, or not ours */ }
  }
  return pids;
}

/** CPU time (ms, user + system, all threads) of processes. */
export function processCpuMs(pids: number[]): number {
  let ms = 0;
  for (const pid of pids) {
    try {
      ms += cpuMsOf(`/proc/${pid}/stat`);
    } catch { /* gone */ }
  }
  return ms;
}

/** utime + stime (ms, USER_HZ 100) from a /proc stat file; throws when the task is gone. */
function cpuMsOf(statPath: string): number {
  const stat = readFileSync(statPath, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** The server core's busy and total jiffies from /proc/stat; the difference of two readings is its load. */
export function serverCoreTicks(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n").find((l) => l.startsWith(`cpu${SERVER_CORE} `));
  const f = (line ?? "").trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  // idle and iowait are the 4th and 5th fields.
  return { busy: total - (f[3] ?? 0) - (f[4] ?? 0), total };
}
