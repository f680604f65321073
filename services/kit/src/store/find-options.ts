import { IamError } from "../errors.js";
import type { FindOptions, SortSpec } from "./port.js";
import { assertFieldName } from "./field-name.js";

export interface CheckedFindOptions {
  /** The requested sort with `_id` ascending appended as the tie-break (unless already there). */
  sort: SortSpec;
  skip: number;
  /** undefined = no limit. */
  limit: number | undefined;
}

/**
 * Validates paging (see FindOptions in port.ts: `limit` must be a positive integer, `skip` a
 * non-negative integer) and makes the order total: equal sort keys are ordered by `_id`, so pages
 * never repeat or skip documents and both adapters return the same order.
 */
export function checkFindOptions(options: FindOptions | undefined): CheckedFindOptions {
  const skip = options?.skip ?? 0;
  const limit = options?.limit;
  if (!Number.isSafeInteger(skip) || skip < 0) throw IamError.invalid("skip", "skip must be a non-negative integer");
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1)) {
    throw IamError.invalid("limit", "limit must be a positive integer (omit it for no limit)");
  }
  const sort: SortSpec = [];
  for (const [field, direction] of options?.sort ?? []) {
    assertFieldName(field);
    if (direction !== 1 && direction !== -1) throw IamError.invalid(field, "sort direction must be 1 or -1");
    sort.push([field, direction]);
  }
  if (!sort.some(([field]) => field === "_id")) sort.push(["_id", 1]);
  return { sort, skip, limit };
}
