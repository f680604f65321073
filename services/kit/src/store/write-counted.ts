import type { Change, Collection, Doc, Filter, FindOptions } from "./port.js";

/**
 * Runs one counted write and tells other processes of it, given the realm the write touches (the
 * document's or the filter's `realmId`), or undefined when it names none or several: then a
 * listener must assume any realm changed. It resolves as the write does, after the telling, and
 * rejects as the write does; a failed write tells nobody.
 */
export type WriteAnnouncer = <R>(realmId: string | undefined, write: () => Promise<R>) => Promise<R>;

/**
 * Counts the writes made through the collections that share it. A read cache stamps what it
 * stored with `value` and trusts it only while `value` is unchanged; each write bumps the count
 * before and after it runs, so a read that overlapped a write (a Mongo round trip) never looks
 * current. It counts this process's writes; `announce` tells other processes (which call `bump`
 * when they hear of it), and caches also bound their age should that message be missed.
 */
export class WriteCounter {
  value = 0;

  constructor(readonly announce: WriteAnnouncer = (_realmId, write) => write()) {}

  /** A write made elsewhere: every entry stamped before now is stale. */
  bump(): void {
    this.value++;
  }
}

/** `inner` with every write counted on `counter` (reads pass straight through). */
export function countWrites<T extends Doc>(inner: Collection<T>, counter: WriteCounter): Collection<T> {
  const write = async <R>(run: () => Promise<R>, realmId: string | undefined): Promise<R> => {
    counter.value++;
    return counter.announce(realmId, async () => {
      try {
        return await run();
      } finally {
        counter.value++;
      }
    });
  };
  return {
    name: inner.name,
    insert: (doc) => write(() => inner.insert(doc), realmOf(doc)),
    stage: (doc) => write(() => inner.stage(doc), realmOf(doc)),
    insertMany: (docs) => write(() => inner.insertMany(docs), sameRealm(docs.map(realmOf))),
    get: (id) => inner.get(id),
    findOne: (filter: Filter, options?: Pick<FindOptions, "sort">) => inner.findOne(filter, options),
    find: (filter: Filter, options?: FindOptions) => inner.find(filter, options),
    count: (filter: Filter) => inner.count(filter),
    update: (filter: Filter, change: Change) => write(() => inner.update(filter, change), realmOf(filter)),
    findOneAndUpdate: (filter: Filter, change: Change, options?: Pick<FindOptions, "sort">) => write(() => inner.findOneAndUpdate(filter, change, options), realmOf(filter)),
    stageFindOneAndUpdate: (filter: Filter, change: Change) => write(() => inner.stageFindOneAndUpdate(filter, change), realmOf(filter)),
    replace: (doc) => write(() => inner.replace(doc), realmOf(doc)),
    upsert: (doc) => write(() => inner.upsert(doc), realmOf(doc)),
    delete: (id) => write(() => inner.delete(id), undefined),
    discard: (id) => write(() => inner.discard(id), undefined),
    deleteMany: (filter: Filter) => write(() => inner.deleteMany(filter), realmOf(filter)),
    findOneAndDelete: (filter: Filter, options?: Pick<FindOptions, "sort">) => write(() => inner.findOneAndDelete(filter, options), realmOf(filter)),
  };
}

/** The one realm a document or a filter names by an exact `realmId`, else undefined. */
function realmOf(docOrFilter: object): string | undefined {
  const id = (docOrFilter as { realmId?: unknown }).realmId;
  return typeof id === "string" && id !== "" ? id : undefined;
}

function sameRealm(ids: Array<string | undefined>): string | undefined {
  return ids.length > 0 && ids.every((id) => id === ids[0]) ? ids[0] : undefined;
}
