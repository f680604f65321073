import { IamError } from "../errors.js";
import type { Doc } from "./port.js";
import { assertFieldName } from "./field-name.js";

/**
 * Checks a document before it is written, identically in both adapters, so a document that one
 * backend would store differently (or refuse) fails in the fast sqlite tests too: `_id` is a
 * non-empty string, top-level keys are plain field names, nested keys have no `.` and no leading
 * `$` (MongoDB/FerretDB), and values are JSON (no Date, Buffer, bigint, NaN or Infinity: sqlite
 * would stringify them while mongo would keep their BSON type). `undefined` means absent in both.
 */
export function assertStorableDoc(doc: Doc): void {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw IamError.invalid("document", "a document must be an object");
  }
  if (typeof doc._id !== "string" || doc._id.length === 0) {
    throw IamError.invalid("_id", "a document needs a non-empty string _id");
  }
  for (const [key, value] of Object.entries(doc)) {
    assertFieldName(key);
    assertJsonValue(value, key);
  }
}

/** Checks a value stored by `$set` (same rules as a document field). */
export function assertJsonValue(value: unknown, path: string): void {
  if (value === undefined || value === null) return;
  switch (typeof value) {
    case "string":
    case "boolean":
      return;
    case "number":
      if (!Number.isFinite(value)) throw IamError.invalid(path, `${path}: numbers must be finite`);
      return;
    case "object":
      if (Array.isArray(value)) {
        value.forEach((v, i) => assertJsonValue(v, `${path}.${i}`));
        return;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
        throw IamError.invalid(path, `${path}: only plain JSON values can be stored`);
      }
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (k.includes(".") || k.startsWith("$")) {
          throw IamError.invalid(path, `${path}: key ${JSON.stringify(k)} may not contain "." or start with "$"`);
        }
        assertJsonValue(v, `${path}.${k}`);
      }
      return;
    default:
      throw IamError.invalid(path, `${path}: only plain JSON values can be stored`);
  }
}

/** A deep copy without `undefined` members, which is what both backends store. */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
