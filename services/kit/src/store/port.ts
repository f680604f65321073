/**
 * The store port (DESIGN 4, "Store port"): a document-collection interface that repositories are
 * written against once, with a sqlite adapter (embedded mode) and a mongo adapter (cluster mode).
 *
 * Documents are plain JSON objects with a string `_id`. Times are epoch milliseconds (numbers), so
 * range filters compare the same way in both adapters. Fields used in filters, sorts or indexes are
 * top-level. Case-insensitive uniqueness is done by repositories storing a normalised key field
 * (e.g. `usernameKey`) and indexing it, which both adapters support without collations.
 */
export type Doc = { _id: string } & Record<string, unknown>;

export type Scalar = string | number | boolean | null;

/** Operators on one field. A bare scalar means equality. */
export interface FieldOps {
  $eq?: Scalar;
  $ne?: Scalar;
  $in?: Scalar[];
  $nin?: Scalar[];
  $gt?: number | string;
  $gte?: number | string;
  $lt?: number | string;
  $lte?: number | string;
  /** true: the field is present and not null; false: absent or null. */
  $exists?: boolean;
  /** Case-insensitive substring match on a string field (user search). */
  $contains?: string;
  /**
   * The field is an array holding this value (typed, as equality); a missing field or one that is
   * not an array never matches. The one operator on an array field: a multikey index (IndexSpec)
   * serves it in MongoDB.
   */
  $includes?: string | number | boolean;
}

export type FieldFilter = Scalar | FieldOps;

/**
 * Field conditions are ANDed; `$or` holds alternatives, each itself a Filter without `$or`
 * (an empty `$or` matches nothing). Semantics, identical in both adapters (store-contract.ts):
 * - field names match /^[A-Za-z_][A-Za-z0-9_]*$/ (else invalidArgument); filters apply to scalar
 *   fields, not to arrays or objects, except `$includes`, which tests an array's elements;
 * - equality is typed: "40" never equals 40, true never equals 1; null matches null and missing;
 * - `$ne` and `$nin` also match documents without the field;
 * - ranges compare numbers with numbers and strings with strings (binary UTF-8 order);
 * - several operators on one field are ANDed.
 */
export type Filter = { [field: string]: FieldFilter | Filter[] | undefined } & { $or?: Filter[] };

export type SortSpec = Array<[field: string, direction: 1 | -1]>;

/**
 * Paging. Sorting is total: equal keys are ordered by `_id` ascending (appended unless `_id` is
 * already in the sort), and null/missing sort first ascending, last descending. `skip` is a
 * non-negative integer (past the end gives []); `limit` is a positive integer, and omitted means
 * no limit: `limit: 0` is rejected with invalidArgument rather than meaning "everything" as in
 * MongoDB, so a page size of 0 from a caller can never turn into an unbounded read.
 */
export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

/**
 * A change applied atomically to each matched document (per document: a multi-document update is
 * not one transaction in MongoDB). One field may appear in only one operator.
 */
export interface Change {
  /** Fields to set (top-level); an `undefined` value is ignored. `_id` cannot change. */
  $set?: Record<string, unknown>;
  /** Fields to remove. */
  $unset?: string[];
  /** Numeric fields to add to (a missing field counts as 0). */
  $inc?: Record<string, number>;
  /**
   * Array fields to add a string, number or boolean to unless it is already there (a missing field
   * becomes a one-element array), as MongoDB's $addToSet: one atomic write instead of read-then-set.
   */
  $addToSet?: Record<string, string | number | boolean>;
  /**
   * Array fields to remove every element equal (typed) to a string, number or boolean from, as
   * MongoDB's $pull with a value; a missing field stays missing.
   */
  $pull?: Record<string, string | number | boolean>;
}

export interface IndexSpec {
  /** Top-level fields, in order (a compound index when more than one). */
  fields: string[];
  /**
   * Unique fields must be present (non-null) in every document: MongoDB counts two documents
   * missing the field as duplicates, SQLite does not, and FerretDB has no partial indexes.
   */
  unique?: boolean;
  /** Index name, stable across adapters; derived from the fields when omitted. */
  name?: string;
  /**
   * The last field is an array and the index holds its elements (a MongoDB multikey index), for
   * `$includes` lookups. SQLite's expression indexes cannot index the elements of an array, so the
   * sqlite adapter builds no index for it: there such a lookup narrows by another index on the
   * filter's other fields and tests the array row by row.
   */
  multikey?: boolean;
}

export interface CollectionSpec {
  name: string;
  indexes?: IndexSpec[];
  /**
   * Names (as `indexName` gives them) of indexes an earlier version declared and this one does not:
   * dropped, where present, when the collection is declared, so an index replaced by another stops
   * costing a write per document in stores created before. Never the name of a declared index.
   */
  retiredIndexes?: string[];
  /**
   * When true, documents carry `expiresAt` (epoch ms): reads never return an expired document,
   * and a periodic sweep deletes them. (A native Mongo TTL index is an adapter setting; see DESIGN
   * and ci-recipes: FerretDB refuses TTL indexes, so correctness never depends on one.)
   * Expired means `expiresAt <= clock.now()`; a missing or null `expiresAt` never expires. An
   * expired document is invisible to every read, count and write (update, replace, delete...)
   * and never causes a unique conflict: on one, the adapter sweeps and retries once.
   */
  ttl?: boolean;
}

export interface Collection<T extends Doc> {
  readonly name: string;
  /**
   * Inserts; a unique-index violation throws IamError alreadyExists (field = first index field,
   * `_id` for a duplicate id). Documents hold JSON values only (no Date, NaN, bigint) and no key
   * with `.` or a leading `$`, at any depth: invalidArgument otherwise.
   */
  insert(doc: T): Promise<void>;
  /**
   * Inserts as `insert` does (same errors), resolving once the document is ordered before every
   * later write of this store: any later write that is durable makes it durable too. `durable`
   * then settles when the insert itself is, or rejects if its commit failed alone (the caller
   * writes it again). An adapter whose writes reach stable storage in the order they ran (SQLite:
   * one connection, one log) resolves once the insert has run and asks for no flush of its own:
   * `durable`, read after the caller's next durable write, settles with that write's flush, and
   * read without one, asks for a flush then. The others resolve once the insert is durable. The
   * outbox stages its entries so, and a login its new SSO session before the code's write.
   */
  stage(doc: T): Promise<{ durable: Promise<void> }>;
  /** Inserts many atomically where the adapter can; unique violations as insert. */
  insertMany(docs: T[]): Promise<void>;
  get(id: string): Promise<T | null>;
  findOne(filter: Filter, options?: Pick<FindOptions, "sort">): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /** Applies `change` to every document matching `filter`; returns how many matched. */
  update(filter: Filter, change: Change): Promise<number>;
  /** Applies `change` to the first match (by `sort`) and returns it after the change, or null. */
  findOneAndUpdate(filter: Filter, change: Change, options?: Pick<FindOptions, "sort">): Promise<T | null>;
  /**
   * findOneAndUpdate (same errors), ordered before the caller's later writes as `stage` is: the
   * change has run when it resolves, and `durable` is as stage's (the code exchange's consume,
   * made durable by the write of its refresh family).
   */
  stageFindOneAndUpdate(filter: Filter, change: Change): Promise<{ doc: T | null; durable: Promise<void> }>;
  /** Replaces the whole document with the same `_id`; returns false when absent. */
  replace(doc: T): Promise<boolean>;
  /** Inserts or replaces by `_id`. */
  upsert(doc: T): Promise<void>;
  delete(id: string): Promise<boolean>;
  /**
   * Deletes as `delete` does, without asking for the deletion itself to reach stable storage:
   * for a document whose return after a power loss is harmless (an outbox entry already relayed,
   * whose events would go out again under their ids and be dropped as duplicates). A later
   * durable write of the store makes it durable too. On SQLite its commit then costs no flush of
   * its own; elsewhere it is `delete`.
   */
  discard(id: string): Promise<boolean>;
  /** Deletes every match, returns how many. */
  deleteMany(filter: Filter): Promise<number>;
  /** Deletes the first match (by sort) and returns it: the atomic "consume once". */
  findOneAndDelete(filter: Filter, options?: Pick<FindOptions, "sort">): Promise<T | null>;
}

export interface Store {
  /** Declares (idempotently creates) a collection with its indexes. */
  collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>>;
  /** Cheap reachability check for readiness. */
  ping(): Promise<void>;
  /** Deletes expired documents of every ttl collection now; returns how many. */
  sweepExpired(): Promise<number>;
  close(): Promise<void>;
}

/** A clock the store and domain code read, so tests can move time without sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
