import { StoreUnreachableError } from "./store-unavailable.js";

/**
 * Fails a store operation at once while the store is known to be unreachable. The MongoDB driver
 * makes every operation wait up to serverSelectionTimeoutMS for a server, even right after the
 * previous one gave up: a request that touches the store twice (a read, then its failure event),
 * or a write queued behind another (FerretDB's serialized writes), would wait that long each time
 * and keep its caller waiting out the outage. After one operation found no server, the next ones
 * fail at once for `probeAfterMs`; then one operation tries again, and a success closes the gap.
 */
export class StoreReachability {
  private unreachableUntil = 0;

  constructor(private readonly probeAfterMs: number, private readonly now: () => number = Date.now) {}

  async run<R>(operation: () => Promise<R>): Promise<R> {
    if (this.now() < this.unreachableUntil) throw new StoreUnreachableError();
    try {
      const result = await operation();
      this.unreachableUntil = 0;
      return result;
    } catch (e) {
      if (isNoServer(e)) this.unreachableUntil = this.now() + this.probeAfterMs;
      throw e;
    }
  }
}

/** The driver found no server within its selection timeout (not a query's own failure). */
function isNoServer(e: unknown): boolean {
  return typeof e === "object" && e !== null && /^Mongo(ose)?ServerSelectionError$/.test(String((e as { name?: unknown }).name));
}
