import { IamError } from "../errors.js";
import type { FieldOps, Filter, Scalar, SortSpec } from "./port.js";
import { assertFieldName } from "./field-name.js";

/**
 * Filter -> MongoDB query for the mongo adapter, using only operators FerretDB v1 implements.
 * MongoDB already has the semantics the port promises (null matches missing, `$ne`/`$nin` match
 * missing, type-bracketed ranges, booleans distinct from 0/1); the translations are:
 * - `$exists: true` means "present and not null" in the port, so it becomes `$ne: null`
 *   (Mongo's own $exists would count an explicit null as present); `false` becomes `$eq: null`.
 * - `$contains` becomes an escaped, case-insensitive `$regex`, so `.`, `*`, `%`... are literal.
 * - `$includes` becomes `$elemMatch` with `$eq`, which only arrays satisfy.
 * When two terms on one field use the same operator (e.g. `$ne` and `$exists: true`), the field's
 * terms go into a `$and` instead of one operator object.
 */
export type MongoQuery = Record<string, unknown>;

export function mongoQueryOf(filter: Filter): MongoQuery {
  const query: MongoQuery = {};
  const and: MongoQuery[] = [];
  for (const [key, cond] of Object.entries(filter)) {
    if (cond === undefined) continue;
    if (key === "$or") {
      if (!Array.isArray(cond)) throw IamError.invalid("$or", "$or takes an array of filters");
      if (cond.length === 0) {
        // Mongo refuses an empty $or; the port defines it as "matches nothing".
        and.push({ _id: { $in: [] } });
        continue;
      }
      query.$or = cond.map((alt) => {
        if ("$or" in alt) throw IamError.invalid("$or", "$or cannot be nested");
        return mongoQueryOf(alt);
      });
      continue;
    }
    assertFieldName(key);
    const terms = fieldTerms(key, cond as Scalar | FieldOps);
    const ops = terms.map((t) => Object.keys(t)[0]);
    // An empty operator object matches everything, as in the sqlite adapter.
    if (terms.length === 0) continue;
    if (terms.length === 1 && ops[0] === "$eq") query[key] = terms[0]!.$eq;
    else if (new Set(ops).size === ops.length) query[key] = Object.assign({}, ...terms);
    else for (const t of terms) and.push({ [key]: t });
  }
  if (and.length) query.$and = and;
  return query;
}

function fieldTerms(field: string, cond: Scalar | FieldOps): MongoQuery[] {
  if (cond === null || typeof cond !== "object") return [{ $eq: scalar(field, cond) }];
  const terms: MongoQuery[] = [];
  for (const [op, arg] of Object.entries(cond)) {
    if (arg === undefined) continue;
    switch (op) {
      case "$eq":
      case "$ne":
        terms.push({ [op]: scalar(field, arg as Scalar) });
        break;
      case "$in":
      case "$nin":
        if (!Array.isArray(arg)) throw IamError.invalid(field, "$in/$nin take an array");
        terms.push({ [op]: arg.map((v: Scalar) => scalar(field, v)) });
        break;
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte":
        if (!(typeof arg === "string" || (typeof arg === "number" && Number.isFinite(arg)))) {
          throw IamError.invalid(field, `${op} takes a finite number or a string`);
        }
        terms.push({ [op]: arg });
        break;
      case "$exists":
        terms.push(arg ? { $ne: null } : { $eq: null });
        break;
      case "$contains":
        if (typeof arg !== "string") throw IamError.invalid(field, "$contains takes a string");
        terms.push({ $regex: escapeRegex(arg), $options: "i" });
        break;
      case "$includes":
        // $elemMatch, not a bare equality: that would also match a scalar field equal to the value.
        if (arg === null || typeof arg === "object") throw IamError.invalid(field, "$includes takes a string, number or boolean");
        terms.push({ $elemMatch: { $eq: scalar(field, arg as Scalar) } });
        break;
      default:
        throw IamError.invalid(field, `unsupported filter operator ${op}`);
    }
  }
  return terms;
}

function scalar(field: string, v: Scalar): Scalar {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number" && Number.isFinite(v)) return v;
  throw IamError.invalid(field, "filter values must be strings, numbers, booleans or null");
}

export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A sort document; insertion order is the sort order (field names never look like integers). */
export function mongoSortOf(sort: SortSpec): Record<string, 1 | -1> {
  const out: Record<string, 1 | -1> = {};
  for (const [field, dir] of sort) out[field] = dir;
  return out;
}
