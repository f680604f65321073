import type { mongo } from "mongoose";
import type { Doc, IndexSpec } from "./port.js";
import { indexName } from "./index-name.js";

export interface DuplicateKeyError extends Error {
  code: number;
  keyPattern?: Record<string, unknown>;
  errmsg?: string;
  writeErrors?: Array<{ index: number }> | { index: number };
}

/**
 * E11000, or FerretDB v1's way of reporting a unique violation from an update or replace: code 1
 * (InternalError) wrapping SQLite's "UNIQUE constraint failed: index '<table>_<index>'".
 */
export function isDuplicateKey(err: unknown): err is DuplicateKeyError {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return code === 11000 || (code === 1 && /UNIQUE constraint failed/.test(err.message));
}

/**
 * Which field a duplicate-key error is about (IamError.field = first field of the violated index).
 * MongoDB says so in `keyPattern` and in the message ("index: email_1 dup key"); FerretDB v1 says
 * only "E11000 duplicate key error collection: db.coll", so then the candidate documents are probed
 * against each unique index, and failing that the changed fields pick the index.
 */
export async function duplicateField(
  err: DuplicateKeyError,
  collection: mongo.Collection<Doc>,
  uniqueIndexes: IndexSpec[],
  candidates: Doc[],
  changed: string[] = [],
): Promise<string | undefined> {
  const fromPattern = err.keyPattern ? Object.keys(err.keyPattern)[0] : undefined;
  if (fromPattern) return fromPattern;
  const message = err.errmsg ?? err.message;
  const name = /index: (\S+)/.exec(message)?.[1];
  if (name === "_id_") return "_id";
  const named = uniqueIndexes.find((i) => indexName(i) === name);
  if (named) return named.fields[0];
  // FerretDB's SQLite index names are "<table>_<index name>"; prefer the longest matching name.
  const sqliteName = /UNIQUE constraint failed: index '([^']+)'/.exec(message)?.[1];
  if (sqliteName) {
    const bySuffix = uniqueIndexes
      .filter((i) => sqliteName.endsWith(`_${indexName(i)}`))
      .sort((a, b) => indexName(b).length - indexName(a).length)[0];
    if (bySuffix) return bySuffix.fields[0];
  }

  for (const doc of candidates) {
    if (await collection.findOne({ _id: doc._id }, { projection: { _id: 1 } })) return "_id";
    for (const index of uniqueIndexes) {
      const query: Record<string, unknown> = { _id: { $ne: doc._id } };
      for (const f of index.fields) query[f] = doc[f] ?? null;
      if (await collection.findOne(query, { projection: { _id: 1 } })) return index.fields[0];
    }
  }
  const byChange = uniqueIndexes.find((i) => i.fields.some((f) => changed.includes(f)));
  return byChange?.fields[0] ?? (candidates.length ? uniqueIndexes[0]?.fields[0] : undefined);
}

/** The position of the first failed document of an ordered insertMany. */
export function failedIndex(err: DuplicateKeyError): number | undefined {
  const w = err.writeErrors;
  return Array.isArray(w) ? w[0]?.index : w?.index;
}
