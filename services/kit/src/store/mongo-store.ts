import mongoose, { type mongo } from "mongoose";
import type {
  Change, Clock, Collection, CollectionSpec, Doc, Filter, FindOptions, IndexSpec, Store,
} from "./port.js";
import { systemClock } from "./port.js";
import { assertCollectionName } from "./field-name.js";
import { assertStorableDoc } from "./storable-doc.js";
import { assertChange, changedFields, isEmptyChange } from "./change.js";
import { checkFindOptions } from "./find-options.js";
import { checkedIndexes, checkedRetiredIndexes, indexName } from "./index-name.js";
import { conflictError } from "./conflict-error.js";
import { mongoQueryOf, mongoSortOf, type MongoQuery } from "./mongo-filter.js";
import { duplicateField, failedIndex, isDuplicateKey } from "./mongo-conflict.js";
import { startSweeper } from "./sweeper.js";
import { SerialQueue } from "./serial-queue.js";
import { StoreReachability } from "./store-reachability.js";

export interface MongoStoreOptions {
  uri: string;
  /** One database per service. */
  database: string;
  clock?: Clock;
  /**
   * Also let the server expire documents with a native TTL index (real MongoDB only: FerretDB v1
   * refuses `expireAfterSeconds`). TTL indexes need a Date, and `expiresAt` is epoch ms, so the
   * adapter then keeps a Date copy in `_ttlExpiresAt`, never returned to callers. Reads filter on
   * `expiresAt` and the sweep runs either way, so correctness never depends on the index.
   */
  nativeTtl?: boolean;
  /** Period of the expired-document sweep; 0 disables it. Default 60 s. */
  sweepIntervalMs?: number;
  onSweepError?: (err: unknown) => void;
  serverSelectionTimeoutMS?: number;
  /**
   * Serialize every write except inserts, per collection, inside this process. FerretDB v1 runs
   * update, findAndModify and delete as "query, then write by _id" without a transaction, so
   * parallel `$inc`s lose increments and two findOneAndUpdate/findOneAndDelete calls can both
   * "win" (found by the contract suite; see test/mongo). Default: on when the server reports
   * `ferretdbVersion` in buildInfo, off for MongoDB, whose single-document writes are atomic.
   * This only protects one process: never run several replicas against FerretDB v1.
   */
  serializeWrites?: boolean;
}

const TTL_FIELD = "_ttlExpiresAt";

/**
 * What `query()`'s "not expired" terms select: no `expiresAt` (or null) never expires; a number
 * is alive while in the future. Any other type fails `$gt: <number>` in MongoDB, so it is expired.
 */
function isAlive(expiresAt: unknown, now: number): boolean {
  return expiresAt === undefined || expiresAt === null || (typeof expiresAt === "number" && expiresAt > now);
}

/** Drops a retired index; one never created (IndexNotFound, 27) or a collection not there yet (NamespaceNotFound, 26) is fine. */
async function dropIndexIfPresent(native: mongo.Collection<Doc>, name: string): Promise<void> {
  try {
    await native.dropIndex(name);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code !== 27 && code !== 26) throw e;
  }
}

async function isFerretDb(db: mongo.Db): Promise<boolean> {
  const info = await db.admin().command({ buildInfo: 1 });
  return typeof info.ferretdbVersion === "string";
}

/**
 * The store port on MongoDB through mongoose's connection and the native driver collections (a
 * generic document store, so no mongoose schemas). Only features FerretDB v1 implements are used:
 * no transactions, sessions, $lookup, $facet, partial indexes, or projections on findOneAndUpdate.
 * Atomicity comes from single-document operations: updateMany applies `$inc` atomically per
 * document, findOneAndUpdate / findOneAndDelete select and modify one document atomically.
 */
/** How long operations fail at once after one found no server, before one tries again. */
const PROBE_AFTER_MS = 1_000;

export class MongoStore implements Store {
  private readonly collections = new Map<string, MongoCollection<Doc>>();
  /** One view of whether the server is reachable, for every collection of this connection. */
  private readonly reach = new StoreReachability(PROBE_AFTER_MS);
  private readonly clock: Clock;
  private stopSweeper: () => void = () => {};

  private constructor(
    private readonly connection: mongoose.Connection,
    private readonly db: mongo.Db,
    private readonly options: MongoStoreOptions,
    private readonly serializeWrites: boolean,
  ) {
    this.clock = options.clock ?? systemClock;
  }

  static async open(options: MongoStoreOptions): Promise<MongoStore> {
    const connection = mongoose.createConnection(options.uri, {
      dbName: options.database,
      // undefined means "absent", as JSON.stringify does in the sqlite adapter (not BSON null).
      ignoreUndefined: true,
      serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 10_000,
    });
    await connection.asPromise();
    if (!connection.db) throw new Error("mongo store: connected without a database handle");
    const serialize = options.serializeWrites ?? (await isFerretDb(connection.db));
    const store = new MongoStore(connection, connection.db, options, serialize);
    store.stopSweeper = startSweeper(() => store.sweepExpired(), options.sweepIntervalMs, options.onSweepError);
    return store;
  }

  async collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>> {
    const name = assertCollectionName(spec.name);
    const indexes = checkedIndexes(spec);
    const retired = checkedRetiredIndexes(spec, indexes);
    const native = this.db.collection<Doc>(name);
    for (const index of indexes) {
      const keys = Object.fromEntries(index.fields.map((f) => [f, 1 as const]));
      await native.createIndex(keys, { name: indexName(index), ...(index.unique ? { unique: true } : {}) });
    }
    for (const old of retired) await dropIndexIfPresent(native, old);
    const nativeTtl = spec.ttl === true && this.options.nativeTtl === true;
    if (nativeTtl) await native.createIndex({ [TTL_FIELD]: 1 }, { name: TTL_FIELD, expireAfterSeconds: 0 });
    // Declaring a collection twice must keep one write queue for it.
    const queue = this.collections.get(name)?.queue ?? (this.serializeWrites ? new SerialQueue() : undefined);
    const collection = new MongoCollection<Doc>(native, name, spec.ttl === true, nativeTtl, indexes, this.clock, queue, this.reach);
    this.collections.set(name, collection);
    return collection as unknown as Collection<T>;
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async sweepExpired(): Promise<number> {
    let n = 0;
    for (const c of this.collections.values()) n += await c.sweep();
    return n;
  }

  async close(): Promise<void> {
    this.stopSweeper();
    await this.connection.close();
  }
}

class MongoCollection<T extends Doc> implements Collection<T> {
  private readonly unique: IndexSpec[];

  constructor(
    private readonly native: mongo.Collection<Doc>,
    readonly name: string,
    private readonly ttl: boolean,
    private readonly nativeTtl: boolean,
    indexes: IndexSpec[],
    private readonly clock: Clock,
    readonly queue: SerialQueue | undefined,
    private readonly reach: StoreReachability,
  ) {
    this.unique = indexes.filter((i) => i.unique);
  }

  /**
   * A write that reads before it writes on FerretDB: serialized when the store says so. The
   * reachability check runs when its turn comes, so writes queued behind one that found no
   * server fail at once.
   */
  private serial<R>(fn: () => Promise<R>): Promise<R> {
    const run = () => this.reach.run(fn);
    return this.queue ? this.queue.run(run) : run();
  }

  /** The query ANDed with "not expired" for ttl collections (missing/null expiresAt never expires). */
  private query(filter: Filter): MongoQuery {
    const q = mongoQueryOf(filter);
    if (!this.ttl) return q;
    const alive = [{ expiresAt: null }, { expiresAt: { $gt: this.clock.now() } }];
    if (!("$or" in q) && !("expiresAt" in q)) return { ...q, $or: alive };
    return { $and: [q, { $or: alive }] };
  }

  private toMongo(doc: T): Doc {
    assertStorableDoc(doc);
    if (!this.nativeTtl || typeof doc.expiresAt !== "number") return doc;
    return { ...doc, [TTL_FIELD]: new Date(doc.expiresAt) };
  }

  private fromMongo(doc: Doc | null): T | null {
    if (doc && this.nativeTtl) delete doc[TTL_FIELD];
    return doc as T | null;
  }

  private updateOf(change: Change): Record<string, Record<string, unknown>> {
    const update: Record<string, Record<string, unknown>> = {};
    const set = Object.fromEntries(Object.entries(change.$set ?? {}).filter(([, v]) => v !== undefined));
    const unset = Object.fromEntries((change.$unset ?? []).map((f) => [f, ""]));
    if (this.nativeTtl && typeof set.expiresAt === "number") set[TTL_FIELD] = new Date(set.expiresAt);
    if (this.nativeTtl && "expiresAt" in unset) unset[TTL_FIELD] = "";
    if (Object.keys(set).length) update.$set = set;
    if (Object.keys(unset).length) update.$unset = unset;
    if (Object.keys(change.$inc ?? {}).length) update.$inc = { ...change.$inc };
    if (Object.keys(change.$addToSet ?? {}).length) update.$addToSet = { ...change.$addToSet };
    if (Object.keys(change.$pull ?? {}).length) update.$pull = { ...change.$pull };
    return update;
  }

  /**
   * Runs a write, turning duplicate keys into alreadyExists. An expired document is invisible, so
   * it must not block a new one: in a ttl collection a duplicate sweeps and tries once more.
   */
  private async write<R>(fn: () => Promise<R>, candidates: Doc[], changed?: string[]): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        if (attempt === 0 && this.ttl && (await this.sweep()) > 0) continue;
        throw conflictError(this.name, await duplicateField(err, this.native, this.unique, candidates, changed));
      }
    }
  }

  async sweep(): Promise<number> {
    if (!this.ttl) return 0;
    const expired = { expiresAt: { $lte: this.clock.now() } };
    return (await this.serial(() => this.native.deleteMany(expired))).deletedCount;
  }

  async insert(doc: T): Promise<void> {
    const stored = this.toMongo(doc);
    await this.write(() => this.reach.run(() => this.native.insertOne({ ...stored })), [doc]);
  }

  /** Writes to a MongoDB deployment carry no order between them: durable before it resolves. */
  async stage(doc: T): Promise<{ durable: Promise<void> }> {
    await this.insert(doc);
    return { durable: Promise.resolve() };
  }
  async stageFindOneAndUpdate(filter: Filter, change: Change): Promise<{ doc: T | null; durable: Promise<void> }> {
    return { doc: await this.findOneAndUpdate(filter, change), durable: Promise.resolve() };
  }


  /**
   * Without transactions (FerretDB) an ordered insertMany that fails has stored the documents
   * before the failing one; they are deleted again so the call is all-or-nothing to its caller
   * (best effort: a crash in between would leave them).
   */
  async insertMany(docs: T[]): Promise<void> {
    if (docs.length === 0) return;
    const stored = docs.map((d) => this.toMongo(d));
    await this.write(() => this.reach.run(async () => {
      try {
        await this.native.insertMany(stored.map((d) => ({ ...d })), { ordered: true });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const failed = failedIndex(err);
        if (failed === undefined) throw err;
        // Name the field while the conflicting documents are still there, then undo.
        const field = await duplicateField(err, this.native, this.unique, [docs[failed]!]);
        if (failed > 0) await this.native.deleteMany({ _id: { $in: docs.slice(0, failed).map((d) => d._id) } });
        throw Object.assign(err, { keyPattern: field ? { [field]: 1 } : undefined });
      }
    }), docs);
  }

  /**
   * By primary key alone, with the expiry checked here rather than in the query: the same answer
   * as `query({ _id })`, and a bare `_id` is the one filter FerretDB v1 evaluates inside SQLite;
   * with the "not expired" terms it decodes every document of the collection in Go. The code
   * flow's code reads grew from 2 to 20 ms as unswept codes piled up (cluster bench).
   */
  async get(id: string): Promise<T | null> {
    const doc = await this.reach.run(() => this.native.findOne({ _id: id }));
    if (doc && this.ttl && !isAlive(doc.expiresAt, this.clock.now())) return null;
    return this.fromMongo(doc);
  }

  async findOne(filter: Filter, options?: Pick<FindOptions, "sort">): Promise<T | null> {
    return (await this.find(filter, { ...options, limit: 1 }))[0] ?? null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    const { sort, skip, limit } = checkFindOptions(options);
    let cursor = this.native.find(this.query(filter)).sort(mongoSortOf(sort));
    if (skip) cursor = cursor.skip(skip);
    if (limit !== undefined) cursor = cursor.limit(limit);
    return (await this.reach.run(() => cursor.toArray())).map((d) => this.fromMongo(d)!);
  }

  async count(filter: Filter): Promise<number> {
    const q = this.query(filter);
    return this.reach.run(() => this.native.countDocuments(q));
  }

  async update(filter: Filter, change: Change): Promise<number> {
    assertChange(change);
    if (isEmptyChange(change)) return this.count(filter); // Mongo refuses an empty update
    const q = this.query(filter);
    const result = await this.write(() => this.serial(() => this.native.updateMany(q, this.updateOf(change))), [], changedFields(change));
    return result.matchedCount;
  }

  async findOneAndUpdate(filter: Filter, change: Change, options?: Pick<FindOptions, "sort">): Promise<T | null> {
    assertChange(change);
    if (isEmptyChange(change)) return this.findOne(filter, options);
    const { sort } = checkFindOptions(options);
    const q = this.query(filter);
    const doc = await this.write(
      () =>
        this.serial(() =>
          this.native.findOneAndUpdate(q, this.updateOf(change), { sort: mongoSortOf(sort), returnDocument: "after" }),
        ),
      [],
      changedFields(change),
    );
    return this.fromMongo(doc);
  }

  async replace(doc: T): Promise<boolean> {
    const stored = this.toMongo(doc);
    const q = this.query({ _id: doc._id });
    const result = await this.write(() => this.serial(() => this.native.replaceOne(q, stored)), [doc]);
    return result.matchedCount > 0;
  }

  async upsert(doc: T): Promise<void> {
    const stored = this.toMongo(doc);
    // By _id alone: an expired document with this _id is replaced, not duplicated.
    await this.write(() => this.serial(() => this.native.replaceOne({ _id: doc._id }, stored, { upsert: true })), [doc]);
  }

  async delete(id: string): Promise<boolean> {
    const q = this.query({ _id: id });
    return (await this.serial(() => this.native.deleteOne(q))).deletedCount > 0;
  }

  /** Every acknowledged MongoDB write is as durable as the deployment's write concern makes it. */
  discard(id: string): Promise<boolean> {
    return this.delete(id);
  }

  async deleteMany(filter: Filter): Promise<number> {
    const q = this.query(filter);
    return (await this.serial(() => this.native.deleteMany(q))).deletedCount;
  }

  async findOneAndDelete(filter: Filter, options?: Pick<FindOptions, "sort">): Promise<T | null> {
    const { sort } = checkFindOptions(options);
    const q = this.query(filter);
    return this.fromMongo(await this.serial(() => this.native.findOneAndDelete(q, { sort: mongoSortOf(sort) })));
  }
}
