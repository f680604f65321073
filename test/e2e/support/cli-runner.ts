import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./process-runner.js";

/** The installed entry point (`bin` in package.json), run as a user runs it. */
export const CLI_BIN = join(ROOT, "cli", "bin", "tessera.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `tessera` as child processes with an environment of its own: a profile file, a
 * HOME that is not the developer's, and nothing of the test runner's TESSERA_* variables, so a
 * profile or key of the machine can never leak into an assertion.
 */
export class CliRunner {
  constructor(readonly configPath: string, readonly home: string, private readonly extraEnv: Record<string, string> = {}) {}

  env(extra: Record<string, string> = {}): Record<string, string> {
    return { PATH: process.env.PATH ?? "", HOME: this.home, TESSERA_CONFIG: this.configPath, ...this.extraEnv, ...extra };
  }

  /** The same runner with more environment (TESSERA_API_KEY, TESSERA_URL, another profile). */
  with(extra: Record<string, string>): CliRunner {
    return new CliRunner(extra.TESSERA_CONFIG ?? this.configPath, this.home, { ...this.extraEnv, ...extra });
  }

  run(...args: string[]): Promise<CliResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI_BIN, ...args], { env: this.env(), cwd: this.home, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => { stdout += d; });
      child.stderr.setEncoding("utf8").on("data", (d: string) => { stderr += d; });
      child.once("error", reject);
      child.once("close", (code) => resolve({ code, stdout, stderr }));
    });
  }

  /** Runs a command that must succeed with JSON on stdout, and answers that JSON. */
  async json<T = any>(...args: string[]): Promise<T> {
    const res = await this.run(...args, "--json");
    if (res.code !== 0) throw new Error(`tessera ${args.join(" ")} exited ${res.code}: ${res.stderr}`);
    return JSON.parse(res.stdout) as T;
  }

  /** Starts a long-running command (events tail) whose output is read while it runs. */
  start(...args: string[]): LiveCli {
    return new LiveCli(spawn(process.execPath, [CLI_BIN, ...args], { env: this.env(), cwd: this.home, stdio: ["ignore", "pipe", "pipe"] }));
  }
}

export class LiveCli {
  stdout = "";
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(readonly child: ChildProcess) {
    child.stdout!.setEncoding("utf8").on("data", (d: string) => { this.stdout += d; });
    child.stderr!.setEncoding("utf8").on("data", (d: string) => { this.stderr += d; });
    this.exited = new Promise((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
  }

  /** Waits until a stream's output so far matches; fails with what it holds after `timeoutMs`. */
  async waitFor(stream: "stdout" | "stderr", pattern: RegExp, timeoutMs = 10_000): Promise<RegExpMatchArray> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const m = this[stream].match(pattern);
      if (m) return m;
      if (this.child.exitCode !== null) throw new Error(`exited ${this.child.exitCode} before ${pattern}; stderr: ${this.stderr}`);
      if (Date.now() > until) throw new Error(`no ${pattern} on ${stream} after ${timeoutMs} ms; it holds: ${JSON.stringify(this[stream])}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGTERM");
    return this.exited;
  }
}
