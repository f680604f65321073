import { readFileSync } from "node:fs";
import { BrowserSession } from "../e2e/support/browser-session.js";
import { median, threadCpuMs } from "./bench-kit.js";
import { durableCodeFlowCeiling } from "./code-flow-ceiling.js";
import { embedded } from "./tessera-scenarios.js";
import type { StartTessera, TesseraBench } from "./tessera-target.js";

/**
 * The code flow step by step, Tessera beside the durable ceiling (code-flow-ceiling-server.ts),
 * cheap hashing: `n` logins' login pages, then their credential posts, then their code exchanges,
 * then their logouts, 8 at a time, so each step's cost is read on its own. Per step and target:
 * the server's CPU by thread (main; the others: hashing, signing, flushes, GC) and what the
 * process wrote (/proc/<pid>/io: responses, and the stores' logs and checkpoints), medians of the
 * measured rounds after warm-up rounds.
 *   taskset -c 1 node dist/test/bench/profile-steps.js [n] [rounds]
 */
const n = Number(process.argv[2] ?? 1500);
const rounds = Number(process.argv[3] ?? 3);
const STEPS = ["login page", "credentials", "code -> tokens", "logout"] as const;
type Step = (typeof STEPS)[number];
interface Reading { main: number; others: number; kb: number; writes: number }

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const REDIRECT = "http://127.0.0.1:9/cb";

function io(pid: number): { bytes: number; calls: number } {
  const text = readFileSync(`/proc/${pid}/io`, "utf8");
  const field = (name: string) => Number(new RegExp(`${name}: (\\d+)`).exec(text)?.[1] ?? 0);
  return { bytes: field("wchar"), calls: field("syscw") };
}

/** Runs `fn` over `items`, 8 at a time, and reads what the server spent per item. */
async function measured<I, O>(pid: number, items: I[], fn: (item: I) => Promise<O>): Promise<{ out: O[]; reading: Reading }> {
  const cpu = threadCpuMs(pid);
  const wrote = io(pid);
  const out = new Array<O>(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  }));
  const cpuAfter = threadCpuMs(pid);
  const wroteAfter = io(pid);
  const per = (x: number) => x / items.length;
  return {
    out,
    reading: {
      main: per(cpuAfter.main - cpu.main), others: per(cpuAfter.others - cpu.others),
      kb: per(wroteAfter.bytes - wrote.bytes) / 1024, writes: per(wroteAfter.calls - wrote.calls),
    },
  };
}

/** One round of `count` logins, step after step; every answer is checked. */
async function round(t: TesseraBench, pid: number, count: number): Promise<Map<Step, Reading>> {
  const readings = new Map<Step, Reading>();
  const basic = `Basic ${Buffer.from(`${t.clientId}:${t.clientSecret}`).toString("base64")}`;
  const pages = await measured(pid, Array.from({ length: count }, (_, i) => i), async (i) => {
    const b = new BrowserSession(t.baseUrl);
    const auth = new URL(`${t.issuer}/protocol/openid-connect/auth`);
    auth.search = new URLSearchParams({ client_id: t.clientId, response_type: "code", scope: "openid", redirect_uri: REDIRECT, state: `s${i}` }).toString();
    const page = await b.get(auth.href);
    if (page.status !== 200) throw new Error(`login page: HTTP ${page.status}`);
    return { b, page };
  });
  readings.set("login page", pages.reading);
  const codes = await measured(pid, pages.out, async ({ b, page }) => {
    const done = await b.submit(page, { username: t.username, password: t.password });
    const code = done.status === 302 ? new URL(done.location).searchParams.get("code") : null;
    if (!code) throw new Error(`credentials: HTTP ${done.status}, no code`);
    return code;
  });
  readings.set("credentials", codes.reading);
  const refresh = await measured(pid, codes.out, async (code) => {
    const res = await fetch(`${t.issuer}/protocol/openid-connect/token`, {
      method: "POST", headers: { ...FORM, authorization: basic },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT }).toString(),
    });
    const body = await res.json() as { refresh_token?: string };
    if (res.status !== 200 || !body.refresh_token) throw new Error(`token: HTTP ${res.status}`);
    return body.refresh_token;
  });
  readings.set("code -> tokens", refresh.reading);
  const out = await measured(pid, refresh.out, async (token) => {
    const res = await fetch(`${t.issuer}/protocol/openid-connect/logout`, {
      method: "POST", headers: { ...FORM, authorization: basic }, body: `refresh_token=${token}`,
    });
    await res.arrayBuffer();
    if (res.status !== 204) throw new Error(`logout: HTTP ${res.status}`);
  });
  readings.set("logout", out.reading);
  return readings;
}

async function profile(start: StartTessera): Promise<{ label: string; steps: Map<Step, Reading> }> {
  const t = await start(true);
  try {
    if (t.pid === undefined) throw new Error(`${t.label}: no server process to read`);
    // Warm-up: the login path's code is compiled well after the first few hundred logins.
    for (let i = 0; i < 4; i++) await round(t, t.pid, n);
    const measuredRounds: Map<Step, Reading>[] = [];
    for (let i = 0; i < rounds; i++) measuredRounds.push(await round(t, t.pid, n));
    const steps = new Map<Step, Reading>();
    for (const step of STEPS) {
      const of = (k: keyof Reading) => median(measuredRounds.map((r) => r.get(step)![k]));
      steps.set(step, { main: of("main"), others: of("others"), kb: of("kb"), writes: of("writes") });
    }
    return { label: t.label, steps };
  } finally {
    await t.stop();
  }
}

const tessera = await profile(embedded);
const ceiling = await profile(durableCodeFlowCeiling);
const ms = (x: number) => x.toFixed(2);
console.log(`per step, medians of ${rounds} rounds of ${n} (cheap hashing): ms of CPU (main + other threads), KB written in write calls`);
console.log(`| step | Tessera | durable ceiling | difference | Tessera wrote | ceiling wrote |`);
console.log(`|---|---:|---:|---:|---:|---:|`);
let gap = 0;
for (const step of STEPS) {
  const a = tessera.steps.get(step)!;
  const b = ceiling.steps.get(step)!;
  gap += a.main + a.others - b.main - b.others;
  console.log(`| ${step} | ${ms(a.main + a.others)} (${ms(a.main)} + ${ms(a.others)}) | ${ms(b.main + b.others)} (${ms(b.main)} + ${ms(b.others)}) | `
    + `${ms(a.main + a.others - b.main - b.others)} | ${a.kb.toFixed(1)} KB in ${a.writes.toFixed(1)} | ${b.kb.toFixed(1)} KB in ${b.writes.toFixed(1)} |`);
}
console.log(`Tessera spends ${ms(gap)} ms more per flow than the durable ceiling.`);
