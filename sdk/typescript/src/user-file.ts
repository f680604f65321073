import { parseCsv, type CsvRow } from "./csv.js";

/**
 * The users of an import file (POST /admin/realms/:realm/users/import), for this client's users:
 * the CLI and the admin console read files with it. A JSON array of users or `{"users": [...]}`, or
 * CSV with a header row; for CSV, also the file line each user came from, so a report can point
 * into the file. No Node import here: a browser bundles it.
 */
export interface UserFile {
  users: Array<Record<string, unknown>>;
  lines?: number[];
}

/** A file that is not an import file: the message names the file and, for CSV, the line. */
export class UserFileError extends Error {}

const BOOLEAN_COLUMNS = new Set(["enabled", "emailVerified", "requirePasswordReset"]);
const TRUE = new Set(["true", "yes", "1"]);
const FALSE = new Set(["false", "no", "0"]);

/** CSV by a `.csv` name, anything else JSON. */
export function readUserFile(name: string, text: string): UserFile {
  if (name.toLowerCase().endsWith(".csv")) {
    const rows = parseCsv(text);
    return { users: rows.map((row) => csvUser(name, row)), lines: rows.map((row) => row.line) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UserFileError(`${name} is neither CSV (by its .csv name) nor valid JSON: ${(e as Error).message}`);
  }
  const list = Array.isArray(value) ? value : (value as { users?: unknown })?.users;
  if (!Array.isArray(list)) throw new UserFileError(`${name} must hold an array of users or {"users": [...]}`);
  return { users: list as Array<Record<string, unknown>> };
}

/**
 * A CSV row as the import's user object. A boolean cell that is neither true nor false stops the
 * import before anything is sent: read as false, a typo would quietly disable the account.
 */
function csvUser(name: string, row: CsvRow): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row.cells).map(([k, v]) => {
    if (!BOOLEAN_COLUMNS.has(k)) return [k, v];
    const word = v.trim().toLowerCase();
    if (TRUE.has(word)) return [k, true];
    if (FALSE.has(word)) return [k, false];
    throw new UserFileError(`${name} line ${row.line}: ${k} must be true or false, not ${JSON.stringify(v)}`);
  }));
}
