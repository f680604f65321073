import { IamError } from "../errors.js";
import type { CollectionSpec, IndexSpec } from "./port.js";
import { assertFieldName } from "./field-name.js";

/** MongoDB's default naming (`a_1_b_1`), so an index has the same name in both adapters. */
export function indexName(index: IndexSpec): string {
  return index.name ?? index.fields.map((f) => `${f}_1`).join("_");
}

/** Validates a collection's index list; adds the `expiresAt` index a ttl sweep needs. */
export function checkedIndexes(spec: CollectionSpec): IndexSpec[] {
  const indexes = [...(spec.indexes ?? [])];
  for (const index of indexes) {
    if (index.fields.length === 0) throw IamError.invalid("indexes", `${spec.name}: an index needs fields`);
    index.fields.forEach(assertFieldName);
    assertFieldName(indexName(index));
    // SQLite builds no multikey index, so it could not enforce one's uniqueness.
    if (index.multikey && index.unique) throw IamError.invalid("indexes", `${spec.name}: a multikey index cannot be unique`);
  }
  if (spec.ttl && !indexes.some((i) => i.fields[0] === "expiresAt")) indexes.push({ fields: ["expiresAt"] });
  return indexes;
}

/** Validates a collection's retired index names: index names, none of them declared. */
export function checkedRetiredIndexes(spec: CollectionSpec, declared: IndexSpec[]): string[] {
  const retired = [...(spec.retiredIndexes ?? [])];
  for (const name of retired) {
    assertFieldName(name);
    if (declared.some((i) => indexName(i) === name)) throw IamError.invalid("retiredIndexes", `${spec.name}: index ${name} is both declared and retired`);
  }
  return retired;
}
