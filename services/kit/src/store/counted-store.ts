import type { Collection, CollectionSpec, Doc, Store } from "./port.js";
import { countWrites, type WriteCounter } from "./write-counted.js";

/**
 * `inner` with every write to the named collections counted on `counter`, whichever repository
 * opens them: a read cache over data several repositories write (a user, their groups, roles and
 * organizations) stays correct without each writer having to remember to count.
 */
export function countWritesIn(inner: Store, names: ReadonlySet<string>, counter: WriteCounter): Store {
  return {
    async collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>> {
      const c = await inner.collection<T>(spec);
      return names.has(spec.name) ? countWrites(c, counter) : c;
    },
    ping: () => inner.ping(),
    sweepExpired: () => inner.sweepExpired(),
    close: () => inner.close(),
  };
}
