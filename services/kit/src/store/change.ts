import { IamError } from "../errors.js";
import type { Change, Doc } from "./port.js";
import { assertFieldName } from "./field-name.js";
import { assertJsonValue } from "./storable-doc.js";

/**
 * Validation and in-memory application of a `Change`. The mongo adapter sends the operators to the
 * server; the sqlite adapter applies them here inside a transaction. Both validate the same way so
 * a change that mongo would reject fails in sqlite tests too.
 */
export function assertChange(change: Change): void {
  const seen = new Set<string>();
  const claim = (field: string): void => {
    assertFieldName(field);
    if (field === "_id") throw IamError.invalid("_id", "_id cannot be changed");
    if (seen.has(field)) throw IamError.invalid(field, `${field} appears in more than one operator of a change`);
    seen.add(field);
  };
  for (const [field, value] of Object.entries(change.$set ?? {})) {
    claim(field);
    assertJsonValue(value, field);
  }
  for (const field of change.$unset ?? []) claim(field);
  for (const [field, by] of Object.entries(change.$inc ?? {})) {
    claim(field);
    if (typeof by !== "number" || !Number.isFinite(by)) throw IamError.invalid(field, `$inc ${field}: not a finite number`);
  }
  for (const [op, values] of [["$addToSet", change.$addToSet], ["$pull", change.$pull]] as const) {
    for (const [field, value] of Object.entries(values ?? {})) {
      claim(field);
      const ok = typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
      if (!ok) throw IamError.invalid(field, `${op} ${field}: only a string, number or boolean`);
    }
  }
}

/** True when the change would modify nothing (mongo refuses an empty update document). */
export function isEmptyChange(change: Change): boolean {
  return (
    Object.values(change.$set ?? {}).every((v) => v === undefined) &&
    (change.$unset ?? []).length === 0 &&
    Object.keys(change.$inc ?? {}).length === 0 &&
    Object.keys(change.$addToSet ?? {}).length === 0 &&
    Object.keys(change.$pull ?? {}).length === 0
  );
}

/** Returns the changed copy; `$inc` counts a missing (or null) field as 0, like MongoDB. */
export function applyChange<T extends Doc>(doc: T, change: Change): T {
  const out: Record<string, unknown> = { ...doc };
  for (const [field, value] of Object.entries(change.$set ?? {})) {
    if (value !== undefined) out[field] = structuredClone(value);
  }
  for (const field of change.$unset ?? []) delete out[field];
  for (const [field, by] of Object.entries(change.$inc ?? {})) {
    const current = out[field] ?? 0;
    if (typeof current !== "number") {
      throw IamError.invalid(field, `$inc ${field}: the stored value is not a number`);
    }
    out[field] = current + by;
  }
  for (const [field, value] of Object.entries(change.$addToSet ?? {})) {
    const current = out[field] ?? [];
    if (!Array.isArray(current)) throw IamError.invalid(field, `$addToSet ${field}: the stored value is not an array`);
    out[field] = current.includes(value) ? current : [...(current as unknown[]), value];
  }
  for (const [field, value] of Object.entries(change.$pull ?? {})) {
    const current = out[field];
    if (current === undefined) continue;
    if (!Array.isArray(current)) throw IamError.invalid(field, `$pull ${field}: the stored value is not an array`);
    out[field] = current.filter((v) => v !== value);
  }
  return out as T;
}

/** Fields a change writes, for telling which unique index a conflict came from. */
export function changedFields(change: Change): string[] {
  return [...Object.keys(change.$set ?? {}), ...Object.keys(change.$inc ?? {}), ...Object.keys(change.$addToSet ?? {}), ...Object.keys(change.$pull ?? {})];
}
