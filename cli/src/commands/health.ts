import type { Command } from "commander";
import { loadProfile, serverUrl } from "../config-file.js";
import { CliError, EXIT } from "../exit-codes.js";
import { addOutputOptions } from "../output.js";
import { action, print, type OutputOptions } from "../run-action.js";

/**
 * `tessera health`: the server's readiness (GET /health/ready, public). A 503 carries the same
 * body, so each service's state is shown either way; exit 1 when not ready.
 */
export function addHealthCommand(program: Command): void {
  const cmd = program.command("health")
    .description("show whether the server and each of its services is ready")
    .option("--url <url>", "the server (default: the profile's)");
  addOutputOptions(cmd).action(action(async (o: OutputOptions & { url?: string }) => {
    const base = o.url !== undefined ? serverUrl(o.url, "--url") : loadProfile().url;
    let res: Response;
    try {
      res = await fetch(`${base}/health/ready`, { headers: { accept: "application/json" } });
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause;
      throw new CliError(EXIT.unreachable, `cannot reach ${base}: ${cause?.code ?? String(e)}`);
    }
    const answer = await res.json().catch(() => ({ status: `HTTP ${res.status}` })) as Record<string, unknown>;
    if (o.json || o.output !== "table") print(answer, o);
    else {
      const services = (answer.services ?? {}) as Record<string, { ready?: boolean; detail?: string }>;
      process.stdout.write(`status: ${String(answer.status)}\n`);
      for (const [name, s] of Object.entries(services)) {
        process.stdout.write(`  ${name.padEnd(11)} ${s.ready ? "ready" : `not ready${s.detail ? ` (${s.detail})` : ""}`}\n`);
      }
    }
    if (!res.ok) process.exitCode = EXIT.apiError;
  }));
}
