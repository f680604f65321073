import { readFileSync } from "node:fs";
import { CliError, EXIT } from "./exit-codes.js";

/** A JSON object from `--data '<json>'` or `--file <path>` ('-' reads standard input). */
export function readObject(opts: { data?: string; file?: string }): Record<string, unknown> {
  if (opts.data !== undefined && opts.file !== undefined) throw new CliError(EXIT.usage, "give --data or --file, not both");
  let text: string | undefined;
  let from = "--data";
  if (opts.data !== undefined) text = opts.data;
  if (opts.file !== undefined) {
    from = opts.file;
    text = readText(opts.file);
  }
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new CliError(EXIT.usage, `${from} is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new CliError(EXIT.usage, `${from} must hold a JSON object`);
  return value as Record<string, unknown>;
}

export function readText(path: string): string {
  try {
    return readFileSync(path === "-" ? 0 : path, "utf8");
  } catch (e) {
    throw new CliError(EXIT.usage, `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Options that were given on the command line, without the undefined ones. */
export function defined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
