import type Database from "better-sqlite3";
import type { WalSync } from "./wal-sync.js";

type Statement = Database.Statement<unknown[], unknown>;

/** How a write joins the group commit (GroupCommit.run). */
export interface WriteOptions {
  /** False: the write asks for no flush of its own (a discard, port.ts). */
  flush?: boolean;
  /** The write runs a single statement (see `run`). */
  oneStatement?: boolean;
}

/** One turn's writes and their commit. */
interface Group {
  committed: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
  flush: boolean;
  /** Its number at WalSync (`noted`), once it committed without asking for a flush. */
  commit?: number;
}

/** A write of one statement that is flushed as usual. */
export const ONE_STATEMENT: WriteOptions = { oneStatement: true };

/**
 * Group commit for SqliteStore: the writes of one event-loop turn share one transaction, committed
 * once at the end of the turn (and with synchronous "full" flushed to disk by WalSync); each write
 * is atomic and fails alone, and `committed()` resolves only after the commit is durable. With many
 * requests in flight, one flush serves them all instead of one each blocking the event loop. A
 * write is visible to reads on this connection as soon as it ran; if the commit itself fails (an
 * I/O error), every write of the turn rejects.
 *
 * The transaction and savepoint statements are prepared once: better-sqlite3's
 * `db.transaction(fn)` builds four wrapper functions with their properties on every call, which
 * cost more than the savepoint itself on the login path (docs/performance.md).
 */
export class GroupCommit {
  private readonly tx: Record<"begin" | "commit" | "rollback" | "savepoint" | "release" | "rollbackTo", Statement>;
  /** The turn's open group, if any. */
  private group: Group | null = null;

  constructor(private readonly db: Database.Database, private readonly walSync: WalSync | null) {
    this.tx = {
      begin: db.prepare("BEGIN IMMEDIATE"),
      commit: db.prepare("COMMIT"),
      rollback: db.prepare("ROLLBACK"),
      savepoint: db.prepare("SAVEPOINT write"),
      release: db.prepare("RELEASE write"),
      rollbackTo: db.prepare("ROLLBACK TO write"),
    };
  }

  /**
   * Runs `fn` atomically in the turn's group, in a savepoint of it. With `flush` false the write
   * asks for no flush: a group of such writes only commits, and the next flushed commit carries its
   * frames to the disk (one log, written in order). With `oneStatement` `fn` runs a single
   * statement, which SQLite already undoes alone when it fails (statement-level atomicity,
   * sqlite.org/lang_conflict.html: ABORT keeps the transaction's earlier changes), so it needs no
   * savepoint of its own.
   */
  run<R>(fn: () => R, { flush = true, oneStatement = false }: WriteOptions = {}): R {
    this.open();
    if (oneStatement) {
      const result = fn();
      if (flush && this.group) this.group.flush = true;
      return result;
    }
    // A savepoint (nested ones too: SQLite releases the innermost of a name), undone on any error
    // unless SQLite already rolled everything back.
    this.tx.savepoint.run();
    let result: R;
    try {
      result = fn();
      this.tx.release.run();
    } catch (e) {
      if (this.db.inTransaction) {
        this.tx.rollbackTo.run();
        this.tx.release.run();
      }
      throw e;
    }
    if (flush && this.group) this.group.flush = true;
    return result;
  }

  /** Resolves when every write run so far is committed; rejects if their commit failed. */
  committed(): Promise<void> {
    return this.group?.committed ?? Promise.resolve();
  }

  /**
   * For the writes run so far in this turn: a look, later, at whether they are on stable storage.
   * A group that asked for no flush is durable once a later flush covers it (one log, written in
   * order), so a caller that looks after its next flushed write finds it durable without a flush of
   * its own; one that looks before, or with no such write, gets one (WalSync.durableUpTo).
   */
  durability(): () => Promise<void> {
    const group = this.group;
    const walSync = this.walSync;
    if (!group) return () => Promise.resolve();
    return () => group.committed.then(() => (group.commit !== undefined && walSync ? walSync.durableUpTo(group.commit) : undefined));
  }

  /** Commits the open group now (the end of the turn, or the store closing). */
  commitNow(): void {
    const group = this.group;
    if (!group) return;
    this.group = null;
    try {
      this.tx.commit.run();
      if (this.walSync && group.flush) this.walSync.afterCommit().then(group.resolve, group.reject);
      else {
        if (this.walSync) group.commit = this.walSync.noted();
        group.resolve();
      }
    } catch (e) {
      try {
        if (this.db.inTransaction) this.tx.rollback.run();
      } catch { /* the rollback's failure adds nothing to the commit's */ }
      group.reject(e);
    }
  }

  private open(): void {
    if (this.group && !this.db.inTransaction) {
      // SQLite itself rolled the group back (an I/O error, a full disk): its writes are lost, and
      // their writers must hear so rather than wait for a COMMIT of writes made after it.
      const lost = this.group;
      this.group = null;
      lost.reject(new Error("the store rolled back a group commit"));
    }
    if (this.group || !this.db.open) return;
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const committed = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
    committed.catch(() => undefined); // each writer awaiting it sees the failure; no unhandled rejection
    this.tx.begin.run();
    this.group = { committed, resolve, reject, flush: false };
    setImmediate(() => this.commitNow());
  }
}
