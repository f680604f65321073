import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DIST } from "../e2e/support/process-runner.js";
import { BrowserSession } from "../e2e/support/browser-session.js";
import { JwtCheck } from "./jwt-check.js";
import { fetchRetrying, GC_NODE_ARGS, load, settledRss, signedMb, median, processCpuMs, SERVER_CORE, serverCoreTicks, threadCpuMs, type LoadResult } from "./bench-kit.js";
import { startTessera, type StartTessera, type TesseraBench } from "./tessera-target.js";
import type { Row } from "./client-credentials-scenario.js";
import { codeFlowCeiling, durableCodeFlowCeiling } from "./code-flow-ceiling.js";

export interface Opts { rounds: number; duration: number; connections: number }

const FORM = { "content-type": "application/x-www-form-urlencoded" };

function basic(t: TesseraBench): string {
  return `Basic ${Buffer.from(`${t.clientId}:${t.clientSecret}`).toString("base64")}`;
}

async function tokenFor(t: TesseraBench, body: Record<string, string>): Promise<Record<string, string>> {
  const res = await fetch(`${t.issuer}/protocol/openid-connect/token`, {
    method: "POST", headers: { ...FORM, authorization: basic(t) }, body: new URLSearchParams(body).toString(),
  });
  if (res.status !== 200) throw new Error(`token: HTTP ${res.status} ${await res.text()}`);
  return await res.json() as Record<string, string>;
}

function row(scenario: string, target: string, rs: LoadResult[], note?: string): Row {
  return {
    scenario, target, rps: median(rs.map((r) => r.rps)), runs: rs.map((r) => Math.round(r.rps)),
    p99ms: median(rs.map((r) => r.p99ms)), bad: rs.reduce((n, r) => n + r.non2xx + r.mismatches + r.errors, 0),
    ...(note ? { note } : {}),
  };
}

async function rounds(opts: Opts, run: (duration: number) => Promise<LoadResult>, warmup = 2, before?: () => Promise<void>): Promise<LoadResult[]> {
  await run(warmup);
  const out: LoadResult[] = [];
  for (let i = 0; i < opts.rounds; i++) {
    await before?.();
    out.push(await run(opts.duration));
  }
  return out;
}

/**
 * The argon2-bound scenarios (password grant, code flow) warm up longer: at 50-150 logins/s a 2 s
 * warm-up is at most 300 logins, and the login path's code is still being compiled well after.
 * Measured on the password grant (per-thread CPU from /proc): V8's compiler threads still took
 * 0.28 ms per login after a 5 s warm-up and 0.06 ms after 30 s, when the event loop's own CPU
 * per login had fallen from 0.80 to 0.57 ms. Their argon2id baseline is measured before each round, interleaved with Tessera's rounds
 * on the same core (A/B/A/B), so drift of this shared machine affects both sides alike.
 */
const ARGON_WARMUP_S = 30;

/** One argon2id baseline measurement: the best rate, and the reference C implementation's best. */
export interface ArgonRate { rate: number; reference: number }

/**
 * The argon2 baselines of a scenario's rounds and the ratio of its median to their median. The
 * target is judged against the best implementation's rate; the reference C implementation's rate
 * (the baseline of the rows before Tessera hashed with `@node-rs/argon2`) is shown for continuity.
 */
function argonNote(rps: number, rates: ArgonRate[]): string {
  const base = median(rates.map((r) => r.rate));
  const reference = median(rates.map((r) => r.reference));
  return `${(rps / base).toFixed(2)} of argon2id rate ${base.toFixed(0)}/s, the best implementation (per round: ${rates.map((r) => r.rate.toFixed(0)).join(", ")}); `
    + `the reference C implementation alone hashes ${reference.toFixed(0)}/s (${(rps / reference).toFixed(2)})`;
}

/** CPU per request of one round (CpuSplit.measure): the server's threads, and the store server. */
interface PerRequest { main: number; others: number; store: number }

/**
 * Where a request's CPU goes: in the embedded server, main thread (HTTP, flow, store, events) and
 * the other threads (argon2id in the libuv pool, signatures, V8's helpers); in the cluster runs,
 * the MongoDB-wire server's processes (on any core). Per request of each round; the warm-up round
 * is measured too and left out.
 */
class CpuSplit {
  private readonly rounds: PerRequest[] = [];

  constructor(private readonly t: TesseraBench) {}

  async measure(run: () => Promise<LoadResult>): Promise<LoadResult> {
    const { pid, storePids = [] } = this.t;
    const before = pid !== undefined ? threadCpuMs(pid) : { main: 0, others: 0 };
    const storeBefore = processCpuMs(storePids);
    const r = await run();
    if (r.requests > 0) {
      const after = pid !== undefined ? threadCpuMs(pid) : { main: 0, others: 0 };
      this.rounds.push({
        main: (after.main - before.main) / r.requests, others: (after.others - before.others) / r.requests,
        store: (processCpuMs(storePids) - storeBefore) / r.requests,
      });
    }
    return r;
  }

  /** The medians of the reported rounds; with `rates`, next to one verification alone. */
  note(what: string, rates?: ArgonRate[]): string {
    const reported = this.rounds.slice(1);
    if (reported.length === 0) return "";
    const parts: string[] = [];
    if (this.t.pid !== undefined) {
      const main = median(reported.map((r) => r.main));
      const others = median(reported.map((r) => r.others));
      parts.push(`server CPU per ${what}: ${(main + others).toFixed(1)} ms = main thread ${main.toFixed(1)} + other threads ${others.toFixed(1)} `
        // The code-flow ceiling signs on its main thread; Tessera in the threadpool.
        + `(argon2id hashing, ${this.t.label.includes("ceiling") ? "" : "signing, "}GC)${rates ? `, where one verification alone takes ${(1000 / median(rates.map((r) => r.rate))).toFixed(1)} ms` : ""}`);
    }
    if (this.t.storePids?.length) {
      parts.push(`the MongoDB-wire server used ${median(reported.map((r) => r.store)).toFixed(1)} ms of CPU per ${what} (on any core)`);
    }
    return parts.map((p) => `; ${p}`).join("");
  }
}

/**
 * The argon2id verification rate on the server core at the production parameters. Asynchronous, so
 * this load generator's event loop keeps running: blocked for the measurement, its keep-alive
 * sockets would outlive the server's idle timeout unnoticed and fail the next round's first requests.
 */
export async function argon2Rate(seconds: number): Promise<ArgonRate> {
  const { stdout } = await promisify(execFile)("taskset", ["-c", SERVER_CORE, process.execPath, join(DIST, "test/bench/argon2-rate.js"), String(seconds), "19456", "2"]);
  const out = JSON.parse(stdout) as { rate: number; rates: Record<string, number> };
  const reference = Math.max(...Object.entries(out.rates).filter(([k]) => k.startsWith("reference")).map(([, v]) => v));
  return { rate: out.rate, reference };
}

/** The embedded server for the scenarios below, RS256. */
export const embedded: StartTessera = (cheapHashing) => startTessera({ alg: "RS256", cheapHashing });

/** Discovery, JWKS, introspection, refresh and password grant against one Tessera (embedded unless `start` says otherwise). */
export async function tesseraEndpoints(opts: Opts, start: StartTessera = embedded): Promise<Row[]> {
  const t = await start(false);
  try {
    const check = new JwtCheck(await (await fetch(`${t.issuer}/protocol/openid-connect/certs`)).json() as never);
    const rows: Row[] = [];
    const discovery = await rounds(opts, (d) => load({
      url: `${t.issuer}/.well-known/openid-configuration`, duration: d, connections: opts.connections,
      verify: (b) => b.includes(`"issuer":"${t.issuer}"`),
    }));
    rows.push(row("discovery GET", t.label, discovery));
    const jwks = await rounds(opts, (d) => load({
      url: `${t.issuer}/protocol/openid-connect/certs`, duration: d, connections: opts.connections,
      verify: (b) => b.startsWith('{"keys":['),
    }));
    rows.push(row("JWKS GET", t.label, jwks));

    const cc = await tokenFor(t, { grant_type: "client_credentials" });
    const introspect = await rounds(opts, (d) => load({
      url: `${t.issuer}/protocol/openid-connect/token/introspect`, method: "POST", duration: d, connections: opts.connections,
      headers: { ...FORM, authorization: basic(t) }, body: `token=${cc.access_token}`,
      verify: (b) => b.includes('"active":true'),
    }));
    rows.push(row("introspection (active token)", t.label, introspect));

    // Refresh: each connection carries its own rotating refresh token (reuse would revoke it). A
    // round ends with requests in flight whose rotation the client never saw, so every round starts
    // from fresh tokens.
    const refreshSplit = new CpuSplit(t);
    const refresh = await rounds(opts, async (d) => {
      const pool: string[] = [];
      for (let i = 0; i < opts.connections; i++) {
        pool.push((await tokenFor(t, { grant_type: "password", username: t.username, password: t.password, scope: "openid" })).refresh_token!);
      }
      return refreshSplit.measure(() => refreshLoad(t, pool, d, opts.connections, check));
    });
    const refreshRow = row("refresh_token (rotation)", t.label, refresh);
    const refreshNote = refreshSplit.note("refresh").replace(/^; /, "");
    if (refreshNote) refreshRow.note = refreshNote;
    rows.push(refreshRow);

    const rates: ArgonRate[] = [];
    const split = new CpuSplit(t);
    const password = await rounds(opts, (d) => split.measure(() => load({
      url: `${t.issuer}/protocol/openid-connect/token`, method: "POST", duration: d, connections: opts.connections,
      headers: { ...FORM, authorization: basic(t) },
      body: new URLSearchParams({ grant_type: "password", username: t.username, password: t.password }).toString(),
      verify: (b) => check.tokenResponseOk(b),
    })), ARGON_WARMUP_S, async () => { rates.push(await argon2Rate(3)); });
    const pw = row("password grant (argon2id m=19456 t=2)", t.label, password);
    pw.note = argonNote(pw.rps, rates) + split.note("login", rates);
    rows.push(pw);
    return rows;
  } finally {
    await t.stop();
  }
}

/**
 * Refresh needs each connection to send the token its previous response returned; autocannon
 * prepares a connection's next request before the response arrives, so this loop drives it with
 * keep-alive fetch instead, one chain per connection.
 */
async function refreshLoad(t: TesseraBench, pool: string[], duration: number, connections: number, check: JwtCheck): Promise<LoadResult> {
  let ok = 0, bad = 0;
  const latencies: number[] = [];
  const until = Date.now() + duration * 1000;
  await Promise.all(pool.slice(0, connections).map(async (first) => {
    let rt = first;
    while (Date.now() < until) {
      const start = performance.now();
      const res = await fetch(`${t.issuer}/protocol/openid-connect/token`, {
        method: "POST", headers: { ...FORM, authorization: basic(t) }, body: `grant_type=refresh_token&refresh_token=${rt}`,
      });
      const body = await res.text();
      latencies.push(performance.now() - start);
      if (res.status !== 200 || !check.tokenResponseOk(body)) { bad++; return; }
      ok++;
      rt = (JSON.parse(body) as { refresh_token: string }).refresh_token;
    }
  }));
  latencies.sort((a, b) => a - b);
  return { rps: ok / duration, requests: ok, non2xx: bad, mismatches: 0, errors: 0, p99ms: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0) };
}

/**
 * The full authorization-code login: authorize, login page, POST credentials, code, token, logout.
 * 8 browsers in parallel for each round; every step checked. Returns completed flows/s, and the
 * 99th percentile of a whole flow's duration. In embedded runs the same browsers also drive the
 * bare code-flow ceiling (code-flow-ceiling-server.ts), in alternating rounds on the same core,
 * so the table reads Tessera against the least any server does for this flow, as the
 * client_credentials rows read it against bare signing.
 */
export async function codeFlow(opts: Opts, start: StartTessera = embedded): Promise<Row[]> {
  // The in-memory ceiling comes first: run-bench's "vs ceiling" column reads the first ceiling row.
  const starts = start === embedded ? [start, codeFlowCeiling, durableCodeFlowCeiling] : [start];
  const scenario = "authorization-code login (authorize, login, code, token, logout)";
  const rates: ArgonRate[] = [];
  const real = await loginLoop(starts, false, opts, async () => { rates.push(await argon2Rate(3)); });
  const rows = real.map((run) => {
    const r = row(scenario, run.label, run.results);
    r.note = `flows/s, p99 of a whole flow; ${argonNote(r.rps, rates)}${run.split.note("flow", rates)}`;
    return r;
  });
  const durable = rows[2];
  if (durable?.rps) rows[0]!.note += `; ${(rows[0]!.rps / durable.rps).toFixed(2)} of the durable ceiling`;
  // Not a target: the same flow with argon2 at m=1024 KiB, t=1, what the flow costs besides
  // hashing on this core. The ratio above can reach 0.85 only if this is at least
  // 0.85 / 0.15 = 5.7 times the argon2 rate, and the two share the core's caches on top of that.
  const cheapScenario = "authorization-code login, cheap hashing (context, not a target)";
  for (const run of await loginLoop(starts, true, opts)) {
    const cheap = row(cheapScenario, run.label, run.results);
    // The server core's busy time per flow (all processes on it); well below saturation the 8
    // browsers are waiting on latency rather than on the core.
    const busy = median(run.busy);
    cheap.note = `flows/s with argon2id m=1024 KiB t=1: ${(1000 * busy / cheap.rps).toFixed(2)} ms of the server core per flow with hashing nearly free `
      + `(core ${(busy * 100).toFixed(0)}% busy${busy < 0.8 ? ": the flows are partly latency-bound at this concurrency" : ""})${run.split.note("flow")}`;
    rows.push(cheap);
  }
  return rows;
}

interface LoginRun { label: string; results: LoadResult[]; busy: number[]; split: CpuSplit }

/**
 * 8 browsers looping the full code flow against each fresh target, the targets' rounds
 * alternating (A/B/A/B) so drift of this shared machine reaches them alike; `beforeRound` runs
 * before each round of the first.
 */
async function loginLoop(starts: StartTessera[], cheapHashing: boolean, opts: Opts, beforeRound?: () => Promise<void>): Promise<LoginRun[]> {
  const targets: TesseraBench[] = [];
  try {
    for (const start of starts) targets.push(await start(cheapHashing));
    const loops = await Promise.all(targets.map(async (t) => {
      const check = new JwtCheck(await (await fetch(`${t.issuer}/protocol/openid-connect/certs`)).json() as never);
      const run: LoginRun = { label: t.label, results: [], busy: [], split: new CpuSplit(t) };
      const once = (seconds: number): Promise<LoadResult> => run.split.measure(async () => {
        let ok = 0, bad = 0;
        const before = serverCoreTicks();
        const durations: number[] = [];
        const until = Date.now() + seconds * 1000;
        await Promise.all(Array.from({ length: 8 }, async () => {
          while (Date.now() < until) {
            const begin = performance.now();
            try { (await oneLogin(t, check)) ? ok++ : bad++; } catch { bad++; }
            durations.push(performance.now() - begin);
          }
        }));
        durations.sort((a, b) => a - b);
        const after = serverCoreTicks();
        run.busy.push((after.busy - before.busy) / Math.max(1, after.total - before.total));
        return { rps: ok / seconds, requests: ok, non2xx: 0, mismatches: bad, errors: 0, p99ms: Math.round(durations[Math.floor(durations.length * 0.99)] ?? 0) };
      });
      return { run, once };
    }));
    // The warm-up round is the first reading; the rounds reported are the rest.
    for (const { once } of loops) await once(cheapHashing ? 2 : ARGON_WARMUP_S);
    for (let i = 0; i < opts.rounds; i++) {
      await beforeRound?.();
      for (const { run, once } of loops) run.results.push(await once(opts.duration));
    }
    return loops.map(({ run }) => ({ ...run, busy: run.busy.slice(1) }));
  } finally {
    for (const t of targets) await t.stop();
  }
}

export async function oneLogin(t: TesseraBench, check: JwtCheck): Promise<boolean> {
  const b = new BrowserSession(t.baseUrl);
  const redirectUri = "http://127.0.0.1:9/cb";
  const state = Math.random().toString(36).slice(2);
  const auth = new URL(`${t.issuer}/protocol/openid-connect/auth`);
  auth.search = new URLSearchParams({ client_id: t.clientId, response_type: "code", scope: "openid", redirect_uri: redirectUri, state }).toString();
  const page = await b.get(auth.href);
  const done = await b.submit(page, { username: t.username, password: t.password });
  if (done.status !== 302) return false;
  const code = new URL(done.location).searchParams.get("code");
  if (!code) return false;
  const tokens = await tokenFor(t, { grant_type: "authorization_code", code, redirect_uri: redirectUri });
  if (!check.verifyJwt(tokens.access_token!) || !tokens.refresh_token) return false;
  const out = await fetch(`${t.issuer}/protocol/openid-connect/logout`, {
    method: "POST", headers: { ...FORM, authorization: basic(t) }, body: `refresh_token=${tokens.refresh_token}`,
  });
  return out.status === 204;
}

/** Sessions made before a memory scenario reads "idle": the first logins warm what later ones reuse (compiled code, caches, pools, buffers grown to the load). */
export const WARM_UP_SESSIONS = 2000;

/**
 * `n` password-grant logins over 16 connections, each answered 200 (the memory scenarios; each
 * leaves a session, as the refresh token's family). Network errors are retried (fetchRetrying).
 */
export async function passwordLogins(tokenUrl: string, authorization: string, body: string, n: number): Promise<void> {
  let made = 0;
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (made < n) {
      made++;
      const res = await fetchRetrying(tokenUrl, { method: "POST", headers: { ...FORM, authorization }, body });
      if (res.status !== 200) throw new Error(`token: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  }));
}

/**
 * Memory of the embedded suite at idle and after 10,000 sessions (created with cheap hashing),
 * each read once RSS has settled after full collections (bench-kit.ts settledRss), so the numbers
 * are what is retained, not garbage or freed pages not yet returned.
 */
export async function memory(total = 10_000): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "tessera-gc-"));
  const t = await startTessera({ alg: "RS256", cheapHashing: true, nodeArgs: GC_NODE_ARGS, cwd: dir });
  const body = new URLSearchParams({ grant_type: "password", username: t.username, password: t.password, scope: "openid" }).toString();
  const logins = (n: number) => passwordLogins(`${t.issuer}/protocol/openid-connect/token`, basic(t), body, n);
  try {
    await logins(WARM_UP_SESSIONS);
    const idle = await settledRss([t.server.child.pid!], dir);
    await logins(total);
    const after = await settledRss([t.server.child.pid!], dir);
    const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;
    return [{
      scenario: "memory, embedded", target: "Tessera (embedded)", rps: 0, runs: [], p99ms: 0, bad: 0,
      note: `RSS settled after full collections (bench-kit.ts settledRss): idle ${mb(idle.rss)} (heap ${mb(idle.heapUsed)}, after ${WARM_UP_SESSIONS} warm-up sessions); after ${total} more password-grant sessions RSS ${mb(after.rss)} `
        + `(${signedMb(after.rss - idle.rss)}), heap ${mb(after.heapUsed)} (${signedMb(after.heapUsed - idle.heapUsed)}); Keycloak publishes 500 MB per 100,000 sessions`,
    }];
  } finally {
    await t.server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
