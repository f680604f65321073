import { IamError } from "./errors.js";

/**
 * Page size when `max` is not given, and the most one page returns (spec 8 leaves both open; the
 * Admin API's event and session listings take Keycloak's `first` and `max`).
 */
export const DEFAULT_MAX = 100;
export const MAX_CAP = 1000;

export interface Page {
  first: number;
  max: number;
}

/** A listing's `first`/`max` as asked (0 meaning "from the start" and "the default size"), checked and capped. */
export function pageOf(first: number, max: number): Page {
  if (first < 0) throw IamError.invalid("first", "first must be 0 or more");
  if (max < 0) throw IamError.invalid("max", "max must be 0 or more");
  return { first, max: max === 0 ? DEFAULT_MAX : Math.min(max, MAX_CAP) };
}
