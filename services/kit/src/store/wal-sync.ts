import { closeSync, fdatasync, openSync } from "node:fs";

/** Flushes a file's data to stable storage (fdatasync(2)); tests substitute their own. */
export type SyncFile = (fd: number) => Promise<void>;

const fdatasyncAsync: SyncFile = (fd) => new Promise((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));

/**
 * Group sync of a SQLite write-ahead log, off the event loop. SQLite runs with synchronous NORMAL
 * (a COMMIT writes the WAL frames but does not fsync), and this makes each commit durable
 * afterwards: `afterCommit()` resolves once an fdatasync that started after the commit has finished,
 * which is what synchronous FULL guarantees in WAL mode (sqlite.org/pragma.html#pragma_synchronous),
 * without blocking the event loop in fsync: the flush runs in libuv's threadpool while the loop
 * serves other requests. At most one flush is in flight; commits made meanwhile share the next one.
 *
 * Checkpoints stay SQLite's: with NORMAL it syncs the WAL before copying it into the database and
 * the database after. SQLite reuses the WAL file from its start after a checkpoint and deletes it
 * only when the last connection closes, so one descriptor serves until `close`. SQLite holds no lock
 * on the WAL file itself, so this descriptor cannot release one of SQLite's POSIX locks on close.
 *
 * A failed flush fails every later one too: after fsync reports an error the kernel may already
 * have dropped the dirty pages, so a later "successful" flush would prove nothing (the PostgreSQL
 * fsync lesson). Writes then reject, and `check` (the store's and the journal's readiness ping)
 * fails, until the process restarts and SQLite recovers from the log.
 */
export class WalSync {
  private fd: number | null = null;
  private inFlight: Promise<void> | null = null;
  /** Commits noted so far (`noted`), the last one the flush in flight covers, and the last one flushed. */
  private commits = 0;
  private inFlightUpTo = 0;
  private flushedUpTo = 0;
  private next: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | null = null;
  private failed: unknown = null;

  constructor(private readonly walPath: string, private readonly syncFile: SyncFile = fdatasyncAsync) {}

  /** Resolves once everything written to the WAL before this call is on stable storage. */
  afterCommit(): Promise<void> {
    if (this.failed !== null) return Promise.reject(this.failed);
    if (!this.inFlight) return this.flush();
    // The flush in flight may have started before this commit's frames were written: wait for the next.
    if (!this.next) {
      let resolve!: () => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
      this.next = { promise, resolve, reject };
    }
    return this.next.promise;
  }

  /**
   * Notes a commit made without asking for its flush; returns its number for `durableUpTo`. Such
   * a commit is on stable storage once any flush that started after it has finished.
   */
  noted(): number {
    return ++this.commits;
  }

  /**
   * Resolves once the commit `noted` numbered is on stable storage: at once when a flush that
   * started after it has finished, with the flush in flight when that one started after it, else
   * with a flush of its own (afterCommit).
   */
  durableUpTo(commit: number): Promise<void> {
    if (this.failed !== null) return Promise.reject(this.failed);
    if (this.flushedUpTo >= commit) return Promise.resolve();
    if (this.inFlight && this.inFlightUpTo >= commit) return this.inFlight;
    return this.afterCommit();
  }

  /** Throws once a flush has failed: the store is not ready (health) until a restart. */
  check(): void {
    if (this.failed !== null) {
      const cause = this.failed instanceof Error ? this.failed.message : String(this.failed);
      throw new Error(`the write-ahead log could not be flushed (${cause}); restart to recover`);
    }
  }

  /** Waits for the flushes in flight or queued, then closes the descriptor. */
  async close(): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private flush(): Promise<void> {
    const upTo = this.commits;
    this.inFlightUpTo = upTo;
    // `finally` runs as a reaction, so `inFlight` is set before it can be cleared.
    const run = this.flushOnce().then(() => {
      this.flushedUpTo = upTo;
    }).finally(() => {
      this.inFlight = null;
      const waiting = this.next;
      this.next = null;
      if (waiting) this.afterCommit().then(waiting.resolve, waiting.reject);
    });
    this.inFlight = run;
    return run;
  }

  private async flushOnce(): Promise<void> {
    try {
      if (this.fd === null) {
        try {
          this.fd = openSync(this.walPath, "r+");
        } catch (e) {
          // No log yet: a commit that changed nothing wrote no frames, so nothing awaits a flush.
          if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
          throw e;
        }
      }
      await this.syncFile(this.fd);
    } catch (e) {
      this.failed ??= e;
      throw e;
    }
  }
}
