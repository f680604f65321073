import { AdminClient } from "./admin-client.js";
import { loadProfile } from "./config-file.js";
import { CliError, EXIT } from "./exit-codes.js";
import { parseFormat, render, type Format } from "./output.js";

export interface OutputOptions {
  json?: boolean;
  output?: string;
}

/** Runs a command's action; a CliError is one line on stderr and its exit code, never a stack. */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (e) {
      if (e instanceof CliError) {
        process.stderr.write(`tessera: ${e.message}\n`);
        process.exitCode = e.code;
        return;
      }
      process.stderr.write(`tessera: unexpected error: ${(e as Error).message ?? String(e)}\n`);
      process.exitCode = EXIT.apiError;
    }
  };
}

export function client(): AdminClient {
  return new AdminClient(loadProfile());
}

export function print(data: unknown, opts: OutputOptions, columns?: readonly string[]): void {
  const format: Format = parseFormat(opts);
  process.stdout.write(render(data, format, columns));
}

export function requireRealm(realm: string | undefined): string {
  if (!realm) throw new CliError(EXIT.usage, "--realm <name> is required");
  return realm;
}
