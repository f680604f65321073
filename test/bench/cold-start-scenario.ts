import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { DIST } from "../e2e/support/process-runner.js";
import { freePort } from "../e2e/support/free-port.js";
import { median, SERVER_CORE } from "./bench-kit.js";
import type { Row } from "./client-credentials-scenario.js";

/**
 * Cold start of the embedded server, already built (the target: `/health` within 1 s of the process
 * start): the time from spawning `node dist/gateway/src/main-embedded.js` (pinned to the server
 * core) to its first 200 on GET /health, polled every 5 ms. The first start of each pair is on an
 * empty data directory (the stores are created, the master key and realm files written), the second
 * on the same directory again (a restart). `n` pairs, medians reported.
 */
export async function coldStart(n = 5): Promise<Row[]> {
  const fresh: number[] = [];
  const restart: number[] = [];
  for (let i = 0; i < n; i++) {
    const dir = mkdtempSync(join(tmpdir(), "tessera-cold-"));
    try {
      fresh.push(await startToHealth(dir));
      restart.push(await startToHealth(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const row = (scenario: string, ms: number[]): Row => ({
    scenario, target: "Tessera (embedded)", rps: 0, runs: ms.map((m) => Math.round(m)), p99ms: Math.round(Math.max(...ms)), bad: 0,
    note: `median ${Math.round(median(ms))} ms from spawn to the first 200 on /health (target 1000 ms); runs in ms`,
  });
  return [row("cold start to /health, empty data dir", fresh), row("cold start to /health, restart", restart)];
}

async function startToHealth(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn("taskset", ["-c", SERVER_CORE, process.execPath, join(DIST, "gateway/src/main-embedded.js")], {
    env: {
      PATH: process.env.PATH ?? "", TESSERA_PORT: String(port), TESSERA_HOST: "127.0.0.1", TESSERA_DATA_DIR: dataDir,
      TESSERA_ADMIN_API_KEY: `bench-${randomBytes(8).toString("hex")}`, TESSERA_LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (d) => { err += String(d); });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${err.slice(-500)}`);
      if (performance.now() - started > 30_000) throw new Error(`no /health after 30 s: ${err.slice(-500)}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        await res.arrayBuffer();
        if (res.status === 200) return performance.now() - started;
      } catch { /* not listening yet */ }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill("SIGTERM");
    if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
  }
}
