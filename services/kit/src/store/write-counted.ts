import type { Change, Collection, Doc, Filter, FindOptions } from "./port.js";

/**
 * Counts the writes made through the collections that share it. A read cache stamps what it
 * stored with `value` and trusts it only while `value` is unchanged; each write bumps the count
 * before and after it runs, so a read that overlapped a write (a Mongo round trip) never looks
 * current. It counts this process's writes; `afterWrite` tells other processes (which call
 * `bump` when they hear of it), and caches also bound their age should that message be missed.
 */
export class WriteCounter {
  value = 0;

  /** `afterWrite` runs after each completed write, before the writer's promise resolves. */
  constructor(readonly afterWrite: () => Promise<void> = async () => undefined) {}

  /** A write made elsewhere: every entry stamped before now is stale. */
  bump(): void {
    this.value++;
  }
}

/** `inner` with every write counted on `counter` (reads pass straight through). */
export function countWrites<T extends Doc>(inner: Collection<T>, counter: WriteCounter): Collection<T> {
  const write = async <R>(run: () => Promise<R>): Promise<R> => {
    counter.value++;
    let result: R;
    try {
      result = await run();
    } finally {
      counter.value++;
    }
    await counter.afterWrite();
    return result;
  };
  return {
    name: inner.name,
    insert: (doc) => write(() => inner.insert(doc)),
    insertMany: (docs) => write(() => inner.insertMany(docs)),
    get: (id) => inner.get(id),
    findOne: (filter: Filter, options?: Pick<FindOptions, "sort">) => inner.findOne(filter, options),
    find: (filter: Filter, options?: FindOptions) => inner.find(filter, options),
    count: (filter: Filter) => inner.count(filter),
    update: (filter: Filter, change: Change) => write(() => inner.update(filter, change)),
    findOneAndUpdate: (filter: Filter, change: Change, options?: Pick<FindOptions, "sort">) => write(() => inner.findOneAndUpdate(filter, change, options)),
    replace: (doc) => write(() => inner.replace(doc)),
    upsert: (doc) => write(() => inner.upsert(doc)),
    delete: (id) => write(() => inner.delete(id)),
    deleteMany: (filter: Filter) => write(() => inner.deleteMany(filter)),
    findOneAndDelete: (filter: Filter, options?: Pick<FindOptions, "sort">) => write(() => inner.findOneAndDelete(filter, options)),
  };
}
