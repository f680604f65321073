import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import { ARTIFACTS } from "./process-runner.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A server process that can be stopped and started again on the same port and data. Its output
 * goes to test/artifacts/logs/<name>.log (appended to across restarts), and a start whose process
 * exits before or right after its port answers fails loudly, rather than leaving the test to
 * measure an outage that is really a server that never came back.
 */
export class Restartable {
  private child: ChildProcess | undefined;
  constructor(private readonly name: string, private readonly cmd: string, private readonly args: string[], private readonly port: number) {}
  async start(): Promise<void> {
    mkdirSync(join(ARTIFACTS, "logs"), { recursive: true });
    // A fresh log per test run, appended to across this run's restarts.
    const log = openSync(join(ARTIFACTS, "logs", `${this.name}.log`), this.child ? "a" : "w");
    const child = spawn(this.cmd, this.args, { stdio: ["ignore", log, log] });
    closeSync(log);
    this.child = child;
    let exited: string | undefined;
    child.once("exit", (code, signal) => { exited = `${this.name} exited (${signal ?? code}) while starting`; });
    await waitForPort(this.port, 30_000, () => exited);
    await sleep(300);
    if (exited) throw new Error(exited);
  }
  async stop(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill(signal);
    await exited;
  }
}

async function waitForPort(port: number, timeoutMs: number, failed: () => string | undefined = () => undefined): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const why = failed();
    if (why) throw new Error(why);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => { s.end(); resolve(true); });
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The last lines of some of this file's server logs (test/artifacts/logs), for a failure message. */
export function logTails(names: string[]): string[] {
  return names.flatMap((n) => {
    try {
      const lines = readFileSync(join(ARTIFACTS, "logs", `${n}.log`), "utf8").trimEnd().split("\n");
      return lines.slice(-4).map((l) => `${n}: ${l.slice(0, 300)}`);
    } catch {
      return [`${n}: no log`];
    }
  });
}

