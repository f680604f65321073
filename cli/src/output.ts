import { Option, type Command } from "commander";
import { stringify } from "yaml";
import { CliError, EXIT } from "./exit-codes.js";

export type Format = "table" | "json" | "yaml";

const FORMATS: readonly Format[] = ["table", "json", "yaml"];

/**
 * `--json` and `-o, --output <format>`. The format is checked while the command line is parsed,
 * so a typo is a usage error before anything is sent, never after a create or delete has run.
 */
export function addOutputOptions(cmd: Command, jsonHelp = "print JSON (same as --output json)"): Command {
  return cmd.option("--json", jsonHelp)
    .addOption(new Option("-o, --output <format>", "table, json or yaml").choices(FORMATS).default("table"));
}

export function parseFormat(opts: { json?: boolean; output?: string }): Format {
  if (opts.json) return "json";
  const o = opts.output ?? "table";
  if (o === "table" || o === "json" || o === "yaml") return o;
  throw new CliError(EXIT.usage, `--output must be table, json or yaml, not ${JSON.stringify(o)}`);
}

/**
 * Renders an answer. A list as a table of `columns` (or every scalar field of its rows), an object
 * as field / value rows; JSON and YAML print the server's answer unchanged.
 */
export function render(data: unknown, format: Format, columns?: readonly string[]): string {
  if (format === "json") return JSON.stringify(data ?? null, null, 2) + "\n";
  if (format === "yaml") return stringify(data ?? null);
  if (data === undefined || data === null) return "";
  if (Array.isArray(data)) return table(data as Array<Record<string, unknown>>, columns);
  if (typeof data === "object") {
    const rows = Object.entries(data as Record<string, unknown>).map(([field, value]) => ({ field, value: scalar(value) }));
    return table(rows, ["field", "value"]);
  }
  return String(data) + "\n";
}

function table(rows: Array<Record<string, unknown>>, columns?: readonly string[]): string {
  if (rows.length === 0) return "(none)\n";
  const cols = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => isScalar(r[k]))))].slice(0, 8);
  const cells = rows.map((r) => cols.map((c) => scalar(r[c])));
  const widths = cols.map((c, i) => Math.min(60, Math.max(c.length, ...cells.map((row) => row[i]!.length))));
  const line = (values: string[]) => values.map((v, i) => clip(v, widths[i]!).padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(cols.map((c) => c.toUpperCase())), ...cells.map(line)].join("\n") + "\n";
}

function isScalar(v: unknown): boolean {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

function scalar(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (Array.isArray(v)) return v.every(isScalar) ? v.join(",") : JSON.stringify(v);
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

function clip(s: string, width: number): string {
  return s.length > width ? s.slice(0, width - 1) + "…" : s;
}
