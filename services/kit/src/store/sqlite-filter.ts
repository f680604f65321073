import { IamError } from "../errors.js";
import type { FieldOps, Filter, Scalar, SortSpec } from "./port.js";
import { assertFieldName } from "./field-name.js";

/**
 * Filter -> SQL WHERE for the sqlite adapter. Documents live as JSON text in a `doc` column and
 * fields are read with `json_extract(doc, '$.field')`, which is also the expression the indexes are
 * built on, so equality and range terms can use them. Values are always bound parameters; field
 * names are validated before they are spliced into the JSON path.
 *
 * Semantics follow MongoDB so both adapters agree:
 * - json_extract turns JSON true/false into 1/0, so a boolean term is the json_extract value (what
 *   an index on the field holds, so the term can use it) guarded by json_type, and number terms
 *   exclude booleans (1 must not equal true).
 * - null and missing are the same for equality (`{f: null}`), `$ne`/`$nin` match missing fields.
 * - ranges only compare like with like (numbers with numbers, strings with strings).
 * - `$contains` is a literal, case-insensitive substring: instr() on a JS-lowercased value (the
 *   `tessera_lower` function the adapter registers), so `%`, `_` and quotes have no meaning.
 * Every equality term yields 0/1, never NULL, so NOT over it is safe.
 */
export interface Sql {
  sql: string;
  params: unknown[];
}

const path = (field: string): string => `'$.${assertFieldName(field)}'`;
// `_id` is also the primary-key column: reading it there lets id filters use the primary key.
export const valueOf = (field: string): string => (field === "_id" ? "_id" : `json_extract(doc, ${path(field)})`);
const typeOf = (field: string): string => (field === "_id" ? "'text'" : `json_type(doc, ${path(field)})`);

export function whereOf(filter: Filter): Sql {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const [key, cond] of Object.entries(filter)) {
    if (cond === undefined) continue;
    if (key === "$or") {
      if (!Array.isArray(cond)) throw IamError.invalid("$or", "$or takes an array of filters");
      if (cond.length === 0) {
        parts.push("0");
        continue;
      }
      const alternatives = cond.map((alt) => {
        if ("$or" in alt) throw IamError.invalid("$or", "$or cannot be nested");
        const w = whereOf(alt);
        params.push(...w.params);
        return `(${w.sql})`;
      });
      parts.push(`(${alternatives.join(" OR ")})`);
      continue;
    }
    const w = fieldTerm(key, cond as Scalar | FieldOps);
    parts.push(w.sql);
    params.push(...w.params);
  }
  return { sql: parts.length ? parts.join(" AND ") : "1", params };
}

function isOps(cond: Scalar | FieldOps): cond is FieldOps {
  return cond !== null && typeof cond === "object" && !Array.isArray(cond);
}

function fieldTerm(field: string, cond: Scalar | FieldOps): Sql {
  if (!isOps(cond)) return eq(field, cond);
  const parts: Sql[] = [];
  for (const [op, arg] of Object.entries(cond)) {
    if (arg === undefined) continue;
    switch (op) {
      case "$eq":
        parts.push(eq(field, arg as Scalar));
        break;
      case "$ne":
        parts.push(not(eq(field, arg as Scalar)));
        break;
      case "$in":
        parts.push(inList(field, arg as Scalar[], false));
        break;
      case "$nin":
        parts.push(not(inList(field, arg as Scalar[], true)));
        break;
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte":
        parts.push(range(field, op, arg as number | string));
        break;
      case "$exists":
        parts.push({ sql: `${valueOf(field)} IS ${arg ? "NOT NULL" : "NULL"}`, params: [] });
        break;
      case "$contains":
        if (typeof arg !== "string") throw IamError.invalid(field, "$contains takes a string");
        parts.push({ sql: `(${typeOf(field)} = 'text' AND instr(tessera_lower(${valueOf(field)}), ?) > 0)`, params: [arg.toLowerCase()] });
        break;
      case "$includes":
        parts.push(includes(field, arg as Scalar));
        break;
      default:
        throw IamError.invalid(field, `unsupported filter operator ${op}`);
    }
  }
  if (parts.length === 0) return { sql: "1", params: [] };
  return { sql: `(${parts.map((p) => p.sql).join(" AND ")})`, params: parts.flatMap((p) => p.params) };
}

function eq(field: string, value: Scalar): Sql {
  if (value === null) return { sql: `${valueOf(field)} IS NULL`, params: [] };
  switch (typeof value) {
    case "boolean":
      // `IS ?` (1 or 0) first: an index on json_extract serves it, and the guard only runs on a match.
      return { sql: `(${valueOf(field)} IS ? AND ${typeOf(field)} IS '${value ? "true" : "false"}')`, params: [value ? 1 : 0] };
    case "string":
      return { sql: `${valueOf(field)} IS ?`, params: [value] };
    case "number":
      if (!Number.isFinite(value)) throw IamError.invalid(field, "numbers must be finite");
      // `IS ?` is 0 when it does not match, so the json_type guard only runs on a match (never NULL).
      return { sql: `(${valueOf(field)} IS ? AND ${typeOf(field)} IN ('integer', 'real'))`, params: [value] };
    default:
      throw IamError.invalid(field, "filter values must be strings, numbers, booleans or null");
  }
}

/**
 * An element of the array field equals `value`, typed as `eq` (json_each's `type` column: 'text',
 * 'integer'/'real', 'true'/'false'). json_each would also walk an object's values or yield a
 * scalar itself, so the field must be an array. No expression index can serve this term.
 */
function includes(field: string, value: Scalar): Sql {
  const each = `json_each(doc, ${path(field)})`;
  const array = `${typeOf(field)} IS 'array'`;
  switch (typeof value) {
    case "string":
      return { sql: `(${array} AND EXISTS (SELECT 1 FROM ${each} WHERE type = 'text' AND value = ?))`, params: [value] };
    case "number":
      if (!Number.isFinite(value)) throw IamError.invalid(field, "numbers must be finite");
      return { sql: `(${array} AND EXISTS (SELECT 1 FROM ${each} WHERE type IN ('integer', 'real') AND value = ?))`, params: [value] };
    case "boolean":
      return { sql: `(${array} AND EXISTS (SELECT 1 FROM ${each} WHERE type = '${value ? "true" : "false"}'))`, params: [] };
    default:
      throw IamError.invalid(field, "$includes takes a string, number or boolean");
  }
}

/** `nullSafe` when the term is negated ($nin): a missing field must give 0, not NULL. */
function inList(field: string, values: Scalar[], nullSafe: boolean): Sql {
  if (!Array.isArray(values)) throw IamError.invalid(field, "$in/$nin take an array");
  if (values.length === 0) return { sql: "0", params: [] };
  const strings = values.filter((v): v is string => typeof v === "string");
  const rest = values.filter((v) => typeof v !== "string");
  const parts: Sql[] = rest.map((v) => eq(field, v));
  // Strings as one IN list, so a long list stays one indexable term.
  if (strings.length) {
    const list = `${valueOf(field)} IN (${strings.map(() => "?").join(", ")})`;
    parts.unshift({ sql: nullSafe ? `coalesce(${list}, 0)` : list, params: strings });
  }
  return { sql: `(${parts.map((p) => p.sql).join(" OR ")})`, params: parts.flatMap((p) => p.params) };
}

const RANGE_OPS = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" } as const;

function range(field: string, op: keyof typeof RANGE_OPS, value: number | string): Sql {
  let typeGuard: string;
  if (typeof value === "number" && Number.isFinite(value)) typeGuard = `IN ('integer', 'real')`;
  else if (typeof value === "string") typeGuard = `= 'text'`;
  else throw IamError.invalid(field, `${op} takes a finite number or a string`);
  // NULL (missing field) makes the term NULL, which WHERE treats as false; ranges are never negated.
  return { sql: `(${valueOf(field)} ${RANGE_OPS[op]} ? AND ${typeOf(field)} ${typeGuard})`, params: [value] };
}

function not(term: Sql): Sql {
  return { sql: `NOT (${term.sql})`, params: term.params };
}

/** ORDER BY for a checked sort (which already ends with the `_id` tie-break). */
export function orderByOf(sort: SortSpec): string {
  return sort
    .map(([field, dir]) => `${field === "_id" ? "_id" : valueOf(field)} ${dir === 1 ? "ASC" : "DESC"}`)
    .join(", ");
}
