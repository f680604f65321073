/**
 * Reads test/bench/RESULTS.md, which `npm run bench` appends a section to after every run, back into
 * rows: the history of every scenario as data, for the report (bench-report.ts).
 */
export interface HistoryRow {
  /** The run's ISO time, from its section heading. */
  time: string;
  commit: string;
  command: string;
  scenario: string;
  target: string;
  medianRps: number;
  p99ms: number;
  bad: number;
  /** The "vs ceiling" cell as written: a ratio, then notes. */
  note: string;
}

const HEADING = /^## (\S+) — commit (\S+)/;

export function parseResults(markdown: string): HistoryRow[] {
  const rows: HistoryRow[] = [];
  let time = "";
  let commit = "";
  let command = "";
  for (const line of markdown.split("\n")) {
    const heading = HEADING.exec(line);
    if (heading) {
      time = heading[1]!;
      commit = heading[2]!;
      command = "";
      continue;
    }
    if (line.startsWith("Command: ")) {
      command = /`([^`]+)`/.exec(line)?.[1] ?? "";
      continue;
    }
    if (!time || !line.startsWith("| ") || line.startsWith("| scenario |") || line.startsWith("|---")) continue;
    const cells = line.slice(2, line.endsWith(" |") ? -2 : undefined).split(" | ");
    if (cells.length < 7) continue;
    const [scenario, target, median, , p99, bad, ...rest] = cells;
    rows.push({
      time, commit, command,
      scenario: scenario!.trim(), target: target!.trim(),
      medianRps: Number(median) || 0, p99ms: Number(p99) || 0, bad: Number(bad) || 0,
      note: rest.join(" | ").trim(),
    });
  }
  return rows;
}

/** The ratio a row is judged by: its "vs ceiling" number, or its "N of argon2id rate". */
export function rowRatio(row: HistoryRow): number | undefined {
  const argon = /([0-9.]+) of argon2id rate/.exec(row.note);
  if (argon) return Number(argon[1]);
  const lead = /^([0-9]+\.[0-9]+)\b/.exec(row.note);
  return lead ? Number(lead[1]) : undefined;
}

/** One line of CSV, quoted where needed (RFC 4180). */
export function csvLine(values: ReadonlyArray<string | number>): string {
  return values.map((v) => {
    const s = String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  }).join(",");
}
