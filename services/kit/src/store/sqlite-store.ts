import Database from "better-sqlite3";
import type {
  Change, Clock, Collection, CollectionSpec, Doc, Filter, FindOptions, IndexSpec, Store,
} from "./port.js";
import { systemClock } from "./port.js";
import { assertCollectionName } from "./field-name.js";
import { assertStorableDoc } from "./storable-doc.js";
import { applyChange, assertChange } from "./change.js";
import { checkFindOptions } from "./find-options.js";
import { checkedIndexes, checkedRetiredIndexes, indexName } from "./index-name.js";
import { conflictError } from "./conflict-error.js";
import { orderByOf, valueOf, whereOf, type Sql } from "./sqlite-filter.js";
import { startSweeper } from "./sweeper.js";
import { WalSync, type SyncFile } from "./wal-sync.js";
import { GroupCommit, ONE_STATEMENT, type WriteOptions } from "./sqlite-group-commit.js";

export interface SqliteStoreOptions {
  /** A file path, or ":memory:" for a private in-memory database (fast tests). */
  path: string;
  clock?: Clock;
  /** Period of the expired-document sweep; 0 disables it. Default 60 s. */
  sweepIntervalMs?: number;
  onSweepError?: (err: unknown) => void;
  /**
   * File databases (WAL): "full" (default) syncs every commit before its writes resolve, so an
   * acknowledged write survives a power loss or an OS crash; "normal" syncs only at checkpoints,
   * which survives a process crash but may lose the last commits to a power loss. Group commit
   * (below) makes "full" cost little under concurrency: one flush serves every commit made while
   * the previous one ran, and it runs off the event loop (WalSync).
   */
  synchronous?: "full" | "normal";
  /** Replaces fdatasync(2) for "full" (tests). */
  syncFile?: SyncFile;
}

type Db = Database.Database;
type Statement = Database.Statement<unknown[], unknown>;

/**
 * The store port on better-sqlite3 (embedded mode): one table per collection holding JSON text,
 * indexes on `json_extract` expressions. better-sqlite3 is synchronous and one connection serves
 * the process, so every call runs to completion before another starts: read-modify-write
 * operations in a transaction are atomic against concurrent callers without any locking of ours.
 *
 * Writes share a group commit per event-loop turn (sqlite-group-commit.ts): each is atomic and fails
 * alone, and its promise resolves only after the commit is durable.
 */
export class SqliteStore implements Store {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly collections = new Map<string, SqliteCollection<Doc>>();
  private readonly statements = new Map<string, Statement>();
  private readonly stopSweeper: () => void;
  /** Flushes the WAL after each group commit (synchronous "full" on a file), else null. */
  private readonly walSync: WalSync | null = null;
  private readonly groups: GroupCommit;

  constructor(options: SqliteStoreOptions) {
    this.db = new Database(options.path);
    this.clock = options.clock ?? systemClock;
    if (options.path !== ":memory:" && options.path !== "") {
      // WAL lets readers in other processes (backups, sqlite3 CLI) proceed during writes.
      this.db.pragma("journal_mode = WAL");
      // NORMAL: COMMIT does not fsync. For "full" WalSync flushes the WAL after it, off the event
      // loop; an fsync inside COMMIT would block every request for the disk's latency.
      this.db.pragma("synchronous = NORMAL");
      if (options.synchronous !== "normal") this.walSync = new WalSync(`${options.path}-wal`, options.syncFile);
    }
    this.db.pragma("busy_timeout = 5000");
    this.groups = new GroupCommit(this.db, this.walSync);
    // SQLite's lower() folds ASCII only; $contains must fold like JavaScript (and MongoDB's /i).
    this.db.function("tessera_lower", { deterministic: true }, (s: unknown) =>
      typeof s === "string" ? s.toLowerCase() : null,
    );
    this.stopSweeper = startSweeper(() => this.sweepExpired(), options.sweepIntervalMs, options.onSweepError);
  }

  /** A cached prepared statement (filters of the same shape share one). */
  statement(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      if (this.statements.size >= 500) this.statements.clear(); // odd $in lengths must not grow it forever
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** Runs `fn` atomically in the turn's group commit (GroupCommit.run); see `committed`. */
  transaction<R>(fn: () => R, options?: WriteOptions): R {
    return this.groups.run(fn, options);
  }

  /** Resolves when every write run so far is committed; rejects if their commit failed. */
  committed(): Promise<void> {
    return this.groups.committed();
  }

  /** A later look at whether the writes run so far are on stable storage (GroupCommit.durability). */
  durability(): () => Promise<void> {
    return this.groups.durability();
  }

  async collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>> {
    const name = assertCollectionName(spec.name);
    const indexes = checkedIndexes(spec);
    const retired = checkedRetiredIndexes(spec, indexes);
    this.transaction(() => {
      this.db.exec(`CREATE TABLE IF NOT EXISTS "${name}" (_id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
      // A multikey index has no SQLite counterpart (port.ts, IndexSpec.multikey).
      for (const index of indexes.filter((i) => !i.multikey)) {
        const columns = index.fields.map(valueOf).join(", ");
        this.db.exec(
          `CREATE ${index.unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS "${name}__${indexName(index)}" ON "${name}" (${columns})`,
        );
      }
      for (const old of retired) this.db.exec(`DROP INDEX IF EXISTS "${name}__${old}"`);
    });
    await this.committed(); // the table and its indexes are durable before the first write
    const collection = new SqliteCollection<Doc>(this, name, spec.ttl === true, indexes, this.clock);
    this.collections.set(name, collection);
    return collection as unknown as Collection<T>;
  }

  async ping(): Promise<void> {
    this.walSync?.check();
    this.statement("SELECT 1").get();
  }

  async sweepExpired(): Promise<number> {
    let n = 0;
    for (const c of this.collections.values()) n += c.sweep();
    return n;
  }

  async close(): Promise<void> {
    this.stopSweeper();
    this.groups.commitNow();
    await this.walSync?.close();
    this.statements.clear();
    if (this.db.open) this.db.close();
  }
}

interface Row {
  doc: string;
}

const parse = <T>(row: unknown): T | null => (row ? (JSON.parse((row as Row).doc) as T) : null);

class SqliteCollection<T extends Doc> implements Collection<T> {
  private readonly table: string;

  constructor(
    private readonly store: SqliteStore,
    readonly name: string,
    private readonly ttl: boolean,
    private readonly indexes: IndexSpec[],
    private readonly clock: Clock,
  ) {
    this.table = `"${name}"`;
  }

  /** The filter ANDed with "not expired" for ttl collections. */
  private where(filter: Filter): Sql {
    const w = whereOf(filter);
    if (!this.ttl) return w;
    return {
      sql: `(${w.sql}) AND (json_extract(doc, '$.expiresAt') IS NULL OR json_extract(doc, '$.expiresAt') > ?)`,
      params: [...w.params, this.clock.now()],
    };
  }

  private select(filter: Filter, options?: FindOptions): T[] {
    const { sort, skip, limit } = checkFindOptions(options);
    const w = this.where(filter);
    if (typeof filter._id === "string" && skip === 0) {
      // An id names at most one document: nothing to order or page. SQLite's ORDER BY/LIMIT over
      // a primary-key lookup costs more than the lookup (most reads on the login path are by id).
      const row = this.store.statement(`SELECT doc FROM ${this.table} WHERE ${w.sql}`).get(...w.params);
      return row ? [parse<T>(row)!] : [];
    }
    // The limit is written into the SQL (checkFindOptions made it a positive safe integer), not
    // bound: SQLite 3.53 runs a statement with a bound LIMIT 2-3x slower than the same statement
    // with a literal one (20 us against 8 for a one-row indexed read here), and most reads on the
    // login path are findOne. The offset stays bound, which costs nothing, so paging through a
    // list does not prepare a statement per page.
    const page = limit !== undefined ? ` LIMIT ${limit}` : skip > 0 ? " LIMIT -1" : "";
    const sql = `SELECT doc FROM ${this.table} WHERE ${w.sql} ORDER BY ${orderByOf(sort)}${page}${skip > 0 ? " OFFSET ?" : ""}`;
    const params = skip > 0 ? [...w.params, skip] : w.params;
    return this.store.statement(sql).all(...params).map((r) => parse<T>(r)!);
  }

  /**
   * Runs a write in a transaction, turning unique violations into alreadyExists. In a ttl
   * collection an expired document is invisible, so it must not block a new one either: on a
   * violation the expired documents are swept and the write is tried once more.
   */
  private async write<R>(fn: () => R, options?: WriteOptions): Promise<R> {
    const result = this.writeNow(fn, options);
    await this.store.committed();
    return result;
  }

  private writeNow<R>(fn: () => R, options?: WriteOptions): R {
    try {
      return this.store.transaction(fn, options);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (this.ttl && this.sweep() > 0) {
        try {
          return this.store.transaction(fn, options);
        } catch (again) {
          if (!isUniqueViolation(again)) throw again;
          throw conflictError(this.name, this.conflictField(again));
        }
      }
      throw conflictError(this.name, this.conflictField(err));
    }
  }

  /** "UNIQUE constraint failed: index '<table>__<index>'" or "... failed: <table>._id". */
  private conflictField(err: Error): string | undefined {
    const byIndex = /index '([^']+)'/.exec(err.message)?.[1];
    if (byIndex) {
      const index = this.indexes.find((i) => `${this.name}__${indexName(i)}` === byIndex);
      return index?.fields[0];
    }
    return /\._id\b/.test(err.message) ? "_id" : undefined;
  }

  sweep(): number {
    if (!this.ttl) return 0;
    const sql = `DELETE FROM ${this.table} WHERE json_extract(doc, '$.expiresAt') <= ?`;
    return this.store.statement(sql).run(this.clock.now()).changes;
  }

  /** The one statement that inserts `doc` (insert and stage). */
  private inserting(doc: T): () => unknown {
    assertStorableDoc(doc);
    const sql = `INSERT INTO ${this.table} (_id, doc) VALUES (?, ?)`;
    return () => this.store.statement(sql).run(doc._id, JSON.stringify(doc));
  }

  async insert(doc: T): Promise<void> {
    await this.write(this.inserting(doc), ONE_STATEMENT);
  }

  async stage(doc: T): Promise<{ durable: Promise<void> }> {
    // One connection writes one log in order: a later commit that reaches the disk carries this
    // one's frames before it (the group commit's comment). So the insert asks for no flush, and
    // `durable`, read after the caller's next durable write, is settled by that write's flush.
    this.writeNow(this.inserting(doc), { flush: false, oneStatement: true });
    return lookedUpLater(this.store.durability());
  }

  async insertMany(docs: T[]): Promise<void> {
    docs.forEach(assertStorableDoc);
    const sql = `INSERT INTO ${this.table} (_id, doc) VALUES (?, ?)`;
    await this.write(() => {
      for (const doc of docs) this.store.statement(sql).run(doc._id, JSON.stringify(doc));
    });
  }

  async get(id: string): Promise<T | null> {
    return this.select({ _id: id }, { limit: 1 })[0] ?? null;
  }

  async findOne(filter: Filter, options?: Pick<FindOptions, "sort">): Promise<T | null> {
    return this.select(filter, { ...options, limit: 1 })[0] ?? null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return this.select(filter, options);
  }

  async count(filter: Filter): Promise<number> {
    const w = this.where(filter);
    const row = this.store.statement(`SELECT count(*) AS n FROM ${this.table} WHERE ${w.sql}`).get(...w.params);
    return (row as { n: number }).n;
  }

  /**
   * Read, change in JS, write back, in one transaction (see the class comment on atomicity). With a
   * limit of one it writes at most one statement (`oneStatement`).
   */
  private change(filter: Filter, change: Change, options?: FindOptions): Promise<T[]> {
    return this.write(this.changing(filter, change, options), options?.limit === 1 ? ONE_STATEMENT : undefined);
  }

  /** The read and the writes that apply `change` to what `filter` matches (change and stageFindOneAndUpdate). */
  private changing(filter: Filter, change: Change, options?: FindOptions): () => T[] {
    assertChange(change);
    const put = `UPDATE ${this.table} SET doc = ? WHERE _id = ?`;
    return () => this.select(filter, options).map((doc) => {
      const next = applyChange(doc, change);
      this.store.statement(put).run(JSON.stringify(next), next._id);
      return next;
    });
  }

  async update(filter: Filter, change: Change): Promise<number> {
    return (await this.change(filter, change)).length;
  }

  async findOneAndUpdate(filter: Filter, change: Change, options?: Pick<FindOptions, "sort">): Promise<T | null> {
    return (await this.change(filter, change, { ...options, limit: 1 }))[0] ?? null;
  }

  async stageFindOneAndUpdate(filter: Filter, change: Change): Promise<{ doc: T | null; durable: Promise<void> }> {
    // As stage: no flush of its own; the caller's next durable write carries it to the disk.
    const doc = this.writeNow(this.changing(filter, change, { limit: 1 }), { flush: false, oneStatement: true })[0] ?? null;
    return Object.assign(lookedUpLater(this.store.durability()), { doc });
  }

  async replace(doc: T): Promise<boolean> {
    assertStorableDoc(doc);
    const w = this.where({ _id: doc._id });
    const sql = `UPDATE ${this.table} SET doc = ? WHERE ${w.sql}`;
    return this.write(() => this.store.statement(sql).run(JSON.stringify(doc), ...w.params).changes > 0, ONE_STATEMENT);
  }

  async upsert(doc: T): Promise<void> {
    assertStorableDoc(doc);
    const sql = `INSERT INTO ${this.table} (_id, doc) VALUES (?, ?) ON CONFLICT (_id) DO UPDATE SET doc = excluded.doc`;
    await this.write(() => this.store.statement(sql).run(doc._id, JSON.stringify(doc)), ONE_STATEMENT);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.deleteMany({ _id: id })) > 0;
  }

  async discard(id: string): Promise<boolean> {
    const removed = this.writeNow(this.deleting({ _id: id }), { flush: false, oneStatement: true });
    // Committed at the end of the turn (a failed commit is not this caller's loss: see port.ts).
    await this.store.committed().catch(() => undefined);
    return removed > 0;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.write(this.deleting(filter), ONE_STATEMENT);
  }

  /** The one statement that deletes what `filter` matches, answering how many (deleteMany and discard). */
  private deleting(filter: Filter): () => number {
    const w = this.where(filter);
    return () => this.store.statement(`DELETE FROM ${this.table} WHERE ${w.sql}`).run(...w.params).changes;
  }

  async findOneAndDelete(filter: Filter, options?: Pick<FindOptions, "sort">): Promise<T | null> {
    const { sort } = checkFindOptions(options);
    const w = this.where(filter);
    // One statement, so selecting the victim and deleting it cannot be separated. An id names at
    // most one document, so then the filter applies to the row directly (see select).
    const sql = typeof filter._id === "string"
      ? `DELETE FROM ${this.table} WHERE ${w.sql} RETURNING doc`
      : `DELETE FROM ${this.table} WHERE _id = ` +
        `(SELECT _id FROM ${this.table} WHERE ${w.sql} ORDER BY ${orderByOf(sort)} LIMIT 1) RETURNING doc`;
    return parse<T>(await this.write(() => this.store.statement(sql).get(...w.params), ONE_STATEMENT));
  }
}

/**
 * A staged write's `durable`, looked up when read rather than when staged: read after the caller's
 * next durable write, it finds that write's flush and asks for none of its own.
 */
function lookedUpLater(look: () => Promise<void>): { durable: Promise<void> } {
  return {
    get durable(): Promise<void> {
      return look();
    },
  };
}

function isUniqueViolation(err: unknown): err is Error {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}
