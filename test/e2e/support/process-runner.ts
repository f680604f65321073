import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file runs from dist/test/e2e/support). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
export const DIST = join(ROOT, "dist");
export const ARTIFACTS = join(ROOT, "test", "artifacts");

export interface RunningProcess {
  child: ChildProcess;
  logFile: string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Starts a compiled entry point with its stdout and stderr in a log file under test/artifacts;
 * `nodeArgs` go before the entry, `cwd` is where the process runs (the benchmarks' heap snapshots).
 */
export function startNode(
  entry: string, env: Record<string, string>, logName: string, opts: { nodeArgs?: string[]; cwd?: string } = {},
): RunningProcess {
  mkdirSync(join(ARTIFACTS, "logs"), { recursive: true });
  const logFile = join(ARTIFACTS, "logs", `${logName}.log`);
  const out = createWriteStream(logFile, { flags: "w" });
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), join(DIST, entry)], {
    env: { PATH: process.env.PATH ?? "", ...env },
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Both pipes feed one file, so neither may end it; it ends when the process has closed both.
  child.stdout?.pipe(out, { end: false });
  child.stderr?.pipe(out, { end: false });
  // Resolves once the process exited AND its output reached the log file ("close" comes after both
  // pipes ended; "finish" of the file stream means everything is written).
  const exited = new Promise<number | null>((res) => {
    child.once("close", (code) => out.end(() => res(code)));
  });
  return {
    child,
    logFile,
    exited,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Polls a URL until it answers the wanted status (or one of the processes dies, or time runs out). */
export async function waitForHttp(url: string, procs?: RunningProcess | RunningProcess[], timeoutMs = 30_000, status = 200): Promise<void> {
  const until = Date.now() + timeoutMs;
  const watched = procs === undefined ? [] : Array.isArray(procs) ? procs : [procs];
  let last = "";
  while (Date.now() < until) {
    const dead = watched.find((p) => p.child.exitCode !== null);
    if (dead) throw new ProcessExited(dead);
    try {
      const res = await fetch(url);
      if (res.status === status) return;
      last = `status ${res.status}`;
    } catch (e) {
      last = String(e);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${last})`);
}

/** A process waited on exited first; its log says why. */
export class ProcessExited extends Error {
  constructor(readonly process: RunningProcess) {
    super(`process exited with ${process.child.exitCode}; see ${process.logFile}`);
  }
}
