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
}

export type FieldFilter = Scalar | FieldOps;

/** Field conditions are ANDed; `$or` holds alternatives, each itself a Filter without `$or`. */
export type Filter = { [field: string]: FieldFilter | Filter[] | undefined } & { $or?: Filter[] };

export type SortSpec = Array<[field: string, direction: 1 | -1]>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

/** A change applied atomically to every matched document. */
export interface Change {
  /** Fields to set (top-level). */
  $set?: Record<string, unknown>;
  /** Fields to remove. */
  $unset?: string[];
  /** Numeric fields to add to (a missing field counts as 0). */
  $inc?: Record<string, number>;
}

export interface IndexSpec {
  /** Top-level fields, in order (a compound index when more than one). */
  fields: string[];
  unique?: boolean;
  /** Index name, stable across adapters; derived from the fields when omitted. */
  name?: string;
}

export interface CollectionSpec {
  name: string;
  indexes?: IndexSpec[];
  /**
   * When true, documents carry `expiresAt` (epoch ms): reads never return an expired document,
   * and a periodic sweep deletes them. (A native Mongo TTL index is an adapter setting; see DESIGN
   * and ci-recipes: FerretDB refuses TTL indexes, so correctness never depends on one.)
   */
  ttl?: boolean;
}

export interface Collection<T extends Doc> {
  readonly name: string;
  /** Inserts; a unique-index violation throws IamError alreadyExists (field = first index field). */
  insert(doc: T): Promise<void>;
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
  /** Replaces the whole document with the same `_id`; returns false when absent. */
  replace(doc: T): Promise<boolean>;
  /** Inserts or replaces by `_id`. */
  upsert(doc: T): Promise<void>;
  delete(id: string): Promise<boolean>;
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
