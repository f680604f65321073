import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ARTIFACTS } from "../../e2e/support/process-runner.js";

export interface ProgramResult {
  code: number | null;
  /** stdout and stderr interleaved as they came. */
  output: string;
  /** Each stream on its own, for programs whose stdout is their result. */
  stdout: string;
  stderr: string;
}

/**
 * Runs another ecosystem's test program to its end (bounded by `timeoutMs`, then SIGKILL), with
 * `env` over this process's environment (PATH, HOME and the toolchains' caches), and keeps its
 * output in test/artifacts/logs/<logName>.log beside the servers' logs.
 */
export function runProgram(command: string, args: string[], opts: {
  cwd: string; env: Record<string, string>; logName: string; timeoutMs: number;
}): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => { output += d.toString(); stdout += d.toString(); });
    child.stderr.on("data", (d: Buffer) => { output += d.toString(); stderr += d.toString(); });
    const timer = setTimeout(() => {
      output += `\n[interop] ${command} killed after ${opts.timeoutMs} ms\n`;
      child.kill("SIGKILL");
    }, opts.timeoutMs);
    child.once("error", (e) => { clearTimeout(timer); reject(e); });
    child.once("close", (code) => {
      clearTimeout(timer);
      mkdirSync(join(ARTIFACTS, "logs"), { recursive: true });
      writeFileSync(join(ARTIFACTS, "logs", `${opts.logName}.log`), output);
      resolve({ code, output, stdout, stderr });
    });
  });
}

/**
 * Asserts the program passed: exit 0 and exactly the listed tests reported as passed (nothing
 * skipped or missing, so a program that ran nothing cannot pass). On failure the program's whole
 * output is the error, so jest prints it.
 */
export function expectPassed(what: string, result: ProgramResult, reported: string[], expected: string[]): void {
  if (result.code !== 0 || JSON.stringify([...reported].sort()) !== JSON.stringify([...expected].sort())) {
    throw new Error(`${what} exited ${result.code}; passed ${JSON.stringify(reported)}, expected ${JSON.stringify(expected)}\n${result.output}`);
  }
}
