import Database from "better-sqlite3";
import type { BusMessage } from "./port.js";
import { WalSync, type SyncFile } from "../store/wal-sync.js";

/**
 * The in-process bus's durable state in one SQLite file (or `:memory:` for tests):
 *
 * - `messages`: the journal. `seq` is AUTOINCREMENT so it never goes back, even after pruning
 *   deletes the newest rows, which keeps every consumer's stored position meaningful.
 *   `id` is unique: a second publish of the same event id is ignored (JetStream's dedup, but
 *   for as long as the first copy is retained rather than a time window).
 * - `consumers`: one row per durable: its filter and `ack_seq`, the journal position up to which
 *   everything is handled (acked, skipped as not matching, or given up on).
 * - `deliveries`: how often a not-yet-acked message was handed to a durable, so `maxDeliveries`
 *   survives a restart the way JetStream's server-side delivery count does.
 */
export interface ConsumerRow {
  durable: string;
  subject: string;
  ackSeq: number;
}

export interface JournalEntry extends BusMessage {
  seq: number;
}

interface MessageRow {
  seq: number;
  id: string;
  subject: string;
  time: number;
  request_id: string | null;
  payload: Buffer;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    subject TEXT NOT NULL,
    time INTEGER NOT NULL,
    request_id TEXT,
    payload BLOB NOT NULL
  );
  CREATE TABLE IF NOT EXISTS consumers (
    durable TEXT PRIMARY KEY,
    subject TEXT NOT NULL,
    ack_seq INTEGER NOT NULL,
    created INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS deliveries (
    durable TEXT NOT NULL,
    seq INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (durable, seq)
  ) WITHOUT ROWID;
`;

function toEntry(row: MessageRow): JournalEntry {
  return {
    seq: row.seq,
    id: row.id,
    subject: row.subject,
    time: row.time,
    // A plain Uint8Array copy: callers should not see (or keep alive) the driver's Buffer.
    payload: new Uint8Array(row.payload),
    ...(row.request_id !== null ? { requestId: row.request_id } : {}),
  };
}

export class Journal {
  private readonly db: Database.Database;
  /** Consumer positions and delivery counts: the same file, a second connection that does not sync each commit. */
  private readonly positions: Database.Database;
  private readonly stmts;
  /** advance's transaction, built once: better-sqlite3 builds four wrappers per `transaction()` call. */
  private readonly advanceTx: (durable: string, seq: number) => void;
  /** Flushes the WAL after appends (file journals), off the event loop. */
  private readonly walSync: WalSync | null = null;

  constructor(path: string, syncFile?: SyncFile) {
    this.db = new Database(path);
    if (path !== ":memory:") {
      this.db.pragma("journal_mode = WAL");
      // Publish resolving is the promise that the event survives a crash or a power loss
      // ("publish-with-ack before the reply"), so every append is flushed before it resolves
      // (`durable`): what synchronous FULL does, but in the threadpool and shared by the appends
      // made meanwhile (WalSync), instead of an fsync per event blocking the event loop.
      this.db.pragma("synchronous = NORMAL");
      this.walSync = new WalSync(`${path}-wal`, syncFile);
    }
    this.db.exec(SCHEMA);
    // Consumer bookkeeping is written far more often than messages (every durable moves past every
    // message) and losing its last writes to a power cut only means a redelivery, which consumers
    // absorb (at-least-once, idempotent by event id) and a delivery counted once less. So its
    // commits are not synced one by one (synchronous = NORMAL in WAL mode): the next append's flush
    // or checkpoint makes them durable. A process crash loses nothing either way; an fsync per
    // position was most of the bus's cost per event (docs/performance.md).
    this.positions = path === ":memory:" ? this.db : new Database(path);
    if (this.positions !== this.db) this.positions.pragma("synchronous = NORMAL");
    const db = this.db;
    const pos = this.positions;
    this.stmts = {
      insert: db.prepare(`INSERT INTO messages (id, subject, time, request_id, payload)
        VALUES (@id, @subject, @time, @requestId, @payload) ON CONFLICT(id) DO NOTHING`),
      byId: db.prepare<[string], MessageRow>(`SELECT * FROM messages WHERE id = ?`),
      after: db.prepare<[number, number], MessageRow>(
        `SELECT * FROM messages WHERE seq > ? ORDER BY seq LIMIT ?`),
      consumer: db.prepare<[string], { durable: string; subject: string; ack_seq: number }>(
        `SELECT durable, subject, ack_seq FROM consumers WHERE durable = ?`),
      upsertConsumer: db.prepare(`INSERT INTO consumers (durable, subject, ack_seq, created)
        VALUES (?, ?, 0, ?) ON CONFLICT(durable) DO UPDATE SET subject = excluded.subject`),
      setAck: pos.prepare(`UPDATE consumers SET ack_seq = ? WHERE durable = ? AND ack_seq < ?`),
      clearDeliveries: pos.prepare(`DELETE FROM deliveries WHERE durable = ? AND seq <= ?`),
      countDelivery: pos.prepare<[string, number], { count: number }>(
        `INSERT INTO deliveries (durable, seq, count) VALUES (?, ?, 1)
         ON CONFLICT(durable, seq) DO UPDATE SET count = count + 1 RETURNING count`),
      prune: db.prepare(`DELETE FROM messages WHERE time < ? AND seq <=
        (SELECT COALESCE(MIN(ack_seq), (SELECT MAX(seq) FROM messages)) FROM consumers)`),
      ping: db.prepare(`SELECT 1`),
    };
    this.advanceTx = this.positions.transaction((durable: string, seq: number) => {
      this.stmts.setAck.run(seq, durable, seq);
      this.stmts.clearDeliveries.run(durable, seq);
    });
  }

  /** Appends a message; returns its position, or the retained copy when its id was already journaled. */
  append(message: BusMessage): { message: BusMessage; duplicate: boolean; seq: number } {
    const info = this.stmts.insert.run({
      id: message.id,
      subject: message.subject,
      time: message.time,
      requestId: message.requestId ?? null,
      payload: Buffer.from(message.payload.buffer, message.payload.byteOffset, message.payload.byteLength),
    });
    if (info.changes === 1) return { message, duplicate: false, seq: Number(info.lastInsertRowid) };
    const existing = this.stmts.byId.get(message.id);
    if (!existing) throw new Error(`journal lost message ${message.id}`);
    const { seq, ...rest } = toEntry(existing);
    return { message: rest, duplicate: true, seq };
  }

  /** Resolves once every append made so far is on stable storage (at once for `:memory:`). */
  durable(): Promise<void> {
    return this.walSync?.afterCommit() ?? Promise.resolve();
  }

  readAfter(seq: number, limit: number): JournalEntry[] {
    return this.stmts.after.all(seq, limit).map(toEntry);
  }

  /**
   * Creates the durable on first use (position 0: everything retained is delivered, like
   * JetStream's DeliverPolicy.All), or re-points an existing one at a new filter, keeping its
   * position (JetStream allows editing a durable's filter subject the same way).
   */
  ensureConsumer(durable: string, subject: string, now: number): ConsumerRow {
    this.stmts.upsertConsumer.run(durable, subject, now);
    const row = this.stmts.consumer.get(durable);
    if (!row) throw new Error(`consumer ${durable} not stored`);
    return { durable: row.durable, subject: row.subject, ackSeq: row.ack_seq };
  }

  /** Forgets a durable and its delivery counts; true when there was one. */
  deleteConsumer(durable: string): boolean {
    return this.db.transaction(() => {
      this.db.prepare(`DELETE FROM deliveries WHERE durable = ?`).run(durable);
      return this.db.prepare(`DELETE FROM consumers WHERE durable = ?`).run(durable).changes > 0;
    })();
  }

  /** Moves the durable's position forward (never back) and forgets delivery counts behind it. */
  advance(durable: string, seq: number): void {
    this.advanceTx(durable, seq);
  }

  /** Counts one more delivery of `seq` to `durable` before the handler runs; returns the total. */
  countDelivery(durable: string, seq: number): number {
    const row = this.stmts.countDelivery.get(durable, seq);
    if (!row) throw new Error("delivery count not returned");
    return row.count;
  }

  /** Deletes entries every known durable has handled and that are older than `olderThan`. */
  prune(olderThan: number): number {
    return this.stmts.prune.run(olderThan).changes;
  }

  ping(): void {
    this.walSync?.check();
    this.stmts.ping.get();
  }

  async close(): Promise<void> {
    await this.walSync?.close();
    if (this.positions !== this.db) this.positions.close();
    this.db.close();
  }
}
