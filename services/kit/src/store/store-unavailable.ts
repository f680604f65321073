/**
 * Whether a store error means the store cannot be reached right now (MongoDB down, failing over,
 * its pool cleared; SQLite's file locked past the busy timeout), not that the request was wrong
 * or the code is: the write did not happen and the caller may retry, so the answer is Unavailable
 * (503 with Retry-After), not Internal. By the driver's error class names, so the SQLite adapter
 * needs no MongoDB driver.
 */
const UNREACHABLE = /^Mongo(ose)?(Network|NetworkTimeout|ServerSelection|NotConnected|TopologyClosed|PoolCleared)Error$/;

/** The store was found unreachable moments ago, so the operation was not tried (store-reachability.ts). */
export class StoreUnreachableError extends Error {
  constructor() {
    super("the store is unreachable");
    this.name = "StoreUnreachableError";
  }
}

export function isStoreUnavailable(e: unknown): boolean {
  if (e instanceof StoreUnreachableError) return true;
  if (typeof e !== "object" || e === null) return false;
  const { name, code } = e as { name?: unknown; code?: unknown };
  return (typeof name === "string" && UNREACHABLE.test(name)) || code === "SQLITE_BUSY";
}
