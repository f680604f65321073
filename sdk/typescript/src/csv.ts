/** One CSV record: its cells by column name, and the file line it starts on (1-based). */
export interface CsvRow {
  line: number;
  cells: Record<string, string>;
}

/**
 * Parses CSV (RFC 4180: quoted fields, doubled quotes, CRLF or LF) whose first row names the
 * columns, into one object per row. Empty cells are left out, so a column may be optional. Each
 * row keeps its line number, so a report about it can point into the file.
 */
export function parseCsv(text: string): CsvRow[] {
  const rows: Array<{ line: number; fields: string[] }> = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const endRow = () => {
    row.push(field); field = "";
    if (row.some((f) => f !== "")) rows.push({ line: rowLine, fields: row });
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") line++;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") { row.push(field); field = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") { i++; line++; }
      endRow();
      rowLine = line;
    } else field += c;
  }
  endRow();
  const [header, ...body] = rows;
  if (!header) return [];
  const names = header.fields.map((h) => h.trim());
  return body.map(({ line: at, fields }) => ({
    line: at,
    cells: Object.fromEntries(names.flatMap((n, i) => (fields[i] ? [[n, fields[i]!]] : []))),
  }));
}
