import { IamError } from "../../../kit/src/errors.js";

/** Page size when `max` is not given, and the most one page returns (spec 8 leaves both open). */
export const DEFAULT_MAX = 100;
export const MAX_CAP = 1000;

export function pageOf(first: number, max: number): { first: number; max: number } {
  if (first < 0) throw IamError.invalid("first", "first must be 0 or more");
  if (max < 0) throw IamError.invalid("max", "max must be 0 or more");
  return { first, max: max === 0 ? DEFAULT_MAX : Math.min(max, MAX_CAP) };
}

export function dateRange(dateFrom?: number, dateTo?: number): void {
  if (dateFrom !== undefined && dateTo !== undefined && dateFrom > dateTo) {
    throw IamError.invalid("dateFrom", "dateFrom must not be after dateTo");
  }
}
