import type { Logger } from "pino";
import type { Journal, JournalEntry } from "./memory-journal.js";
import type { BusHandler } from "./port.js";
import { subjectMatcher } from "./subject-match.js";

export interface MemoryConsumerConfig {
  durable: string;
  subject: string;
  retryDelayMs: number;
  maxDeliveries: number;
  /** Journal position already handled (from the consumers table). */
  ackSeq: number;
}

/** Rows read from the journal per query; small enough to keep memory flat on a long backlog. */
const BATCH = 100;
/**
 * How long a position that only moved past other subjects' messages may stay unstored. Every
 * durable moves past every message, so storing each such move was a write per durable per event;
 * after a restart the consumer simply skips those messages again.
 */
const SKIP_PERSIST_DELAY_MS = 1000;

/**
 * One running durable subscription of the in-process bus.
 *
 * Delivery is strictly in journal order, one message at a time: a message whose handler throws
 * holds the consumer until it succeeds or is given up on after `maxDeliveries` (head-of-line
 * retry). The NATS adapter gives the same order by running its consumers with max_ack_pending 1.
 * Work is always started from a timer or setImmediate, never from inside `publish`.
 */
export class MemoryConsumer {
  private readonly matches: (subject: string) => boolean;
  private ackSeq: number;
  /** What the journal holds for this durable, to skip writes (each one is an fsync) that change nothing. */
  private storedSeq: number;
  private running = true;
  /** The pump in progress, awaited by stop() so an in-flight handler finishes and is acked. */
  private pumping: Promise<void> | null = null;
  private again = false;
  private scheduled: NodeJS.Immediate | null = null;
  /** Set while waiting out retryDelayMs; new publishes must not cut the wait short. */
  private retryTimer: NodeJS.Timeout | null = null;
  /** Pending store of a position that only skipped messages. */
  private skipTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly journal: Journal,
    private readonly config: MemoryConsumerConfig,
    private readonly handler: BusHandler,
    private readonly logger: Logger,
  ) {
    this.matches = subjectMatcher(config.subject);
    this.ackSeq = config.ackSeq;
    this.storedSeq = config.ackSeq;
  }

  get durable(): string {
    return this.config.durable;
  }

  /**
   * Told of a message just appended at `seq`. An idle consumer that has handled everything before
   * it and does not want its subject just moves past it, without reading the journal: every
   * durable sees every message, so waking each one to read and skip it was a query and a pump per
   * durable per event. Anything else (busy, behind, retrying, or interested) wakes as before.
   */
  offer(seq: number, subject: string): void {
    if (this.running && !this.pumping && !this.scheduled && !this.retryTimer && this.ackSeq === seq - 1 && !this.matches(subject)) {
      this.ackSeq = seq;
      this.persistSkipsLater();
      return;
    }
    this.wake();
  }

  /** Asks for a (later) look at the journal: called on subscribe and after every publish. */
  wake(): void {
    if (!this.running || this.retryTimer) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    if (this.scheduled) return;
    this.scheduled = setImmediate(() => {
      this.scheduled = null;
      this.pumping = this.pump().finally(() => {
        this.pumping = null;
        // A wake-up that came after the pump's last look (a publish in the microtasks between
        // its return and this) set `again` and found it still pumping: look once more now.
        if (this.again) this.wake();
      });
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.scheduled) clearImmediate(this.scheduled);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.scheduled = null;
    this.retryTimer = null;
    await this.pumping;
    this.persist();
  }

  private async pump(): Promise<void> {
    do {
      this.again = false;
      for (;;) {
        const batch = this.journal.readAfter(this.ackSeq, BATCH);
        if (batch.length === 0) break;
        for (const entry of batch) {
          if (!this.running) {
            this.persist();
            return;
          }
          if (!this.matches(entry.subject)) {
            this.ackSeq = entry.seq;
            continue;
          }
          // Persist the skipped-over position first so the delivery count row lands past it.
          this.persist();
          if (!(await this.deliver(entry))) return;
        }
        this.persistSkipsLater();
        // A short batch was all the journal held when read; anything appended since woke this
        // consumer during the pump (`again`), so reading once more to find nothing is not needed.
        if (batch.length < BATCH) break;
      }
    } while (this.again && this.running);
  }

  /** Runs the handler once; returns false when the consumer must wait for a retry. */
  private async deliver(entry: JournalEntry): Promise<boolean> {
    const count = this.journal.countDelivery(this.config.durable, entry.seq);
    const { seq: _seq, ...message } = entry;
    try {
      await this.handler(message);
    } catch (err) {
      const context = { err, durable: this.config.durable, eventId: entry.id, subject: entry.subject, deliveries: count };
      if (count < this.config.maxDeliveries) {
        this.logger.warn(context, "bus handler failed; will redeliver");
        // Stopped meanwhile: the delivery stays unacked and is retried on the next subscribe.
        if (!this.running) return false;
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          this.wake();
        }, this.config.retryDelayMs);
        return false;
      }
      this.logger.error(context, "bus handler failed on the last allowed delivery; message dropped");
    }
    this.ackSeq = entry.seq;
    this.persist();
    return true;
  }

  private persistSkipsLater(): void {
    if (this.storedSeq === this.ackSeq || this.skipTimer) return;
    this.skipTimer = setTimeout(() => {
      this.skipTimer = null;
      this.persist();
    }, SKIP_PERSIST_DELAY_MS);
    this.skipTimer.unref();
  }

  private persist(): void {
    if (this.skipTimer) {
      clearTimeout(this.skipTimer);
      this.skipTimer = null;
    }
    if (this.storedSeq === this.ackSeq) return;
    this.journal.advance(this.config.durable, this.ackSeq);
    this.storedSeq = this.ackSeq;
  }
}
