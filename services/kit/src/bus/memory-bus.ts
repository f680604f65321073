import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { IamError } from "../errors.js";
import { createLogger } from "../logger.js";
import { systemClock, type Clock } from "../store/port.js";
import { MemoryConsumer } from "./memory-consumer.js";
import { Journal } from "./memory-journal.js";
import type { Bus, BusHandler, BusMessage, SubscribeOptions, Subscription, WatchHandler, WatchOptions } from "./port.js";
import { assertFilterSubject, assertPublishSubject, subjectMatcher } from "./subject-match.js";
import { deliverWatched } from "./watch-delivery.js";
import type { SyncFile } from "../store/wal-sync.js";
import { DEFAULT_MAX_DELIVERIES, DEFAULT_RETENTION_MS, DEFAULT_RETRY_DELAY_MS } from "./defaults.js";

export interface MemoryBusOptions {
  /** SQLite file for the journal (embedded mode: durable across restarts), or `:memory:`. */
  path: string;
  logger?: Logger;
  /** Handled entries younger than this are kept (for late new durables and debugging). */
  retentionMs?: number;
  /** How often to prune; 0 disables the timer (prune() can still be called). */
  pruneIntervalMs?: number;
  clock?: Clock;
  /** Replaces fdatasync(2) of the journal's log (tests). */
  syncFile?: SyncFile;
}

/**
 * The in-process adapter of the bus port for the embedded single-process mode.
 *
 * Semantics follow the JetStream adapter so services behave the same in both modes:
 * - publish resolves once the journal commit is on stable storage; a repeated event id is stored once.
 * - a new durable starts at the beginning of the retained journal (DeliverPolicy.All), so a
 *   consumer that subscribes after a publish still gets the event; an existing durable resumes
 *   after its last acknowledged position, including across a restart on the same file.
 * - per durable, delivery is in order and one at a time, with head-of-line retry after
 *   retryDelayMs, up to maxDeliveries, then the message is logged and skipped.
 * - watch: one process is every replica there is, so a watcher gets each new message once, after
 *   the journal commit and before the publisher's await resumes (a microtask, in publish order),
 *   and never a gap.
 * One process owns the file; one active subscription per durable name.
 */
export class MemoryBus implements Bus {
  private readonly journal: Journal;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly retentionMs: number;
  private readonly consumers = new Map<string, MemoryConsumer>();
  private readonly watchers = new Set<{ matches: (subject: string) => boolean; options: WatchOptions; handler: WatchHandler }>();
  private readonly pruneTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(options: MemoryBusOptions) {
    this.journal = new Journal(options.path, options.syncFile);
    this.logger = options.logger ?? createLogger("bus");
    this.clock = options.clock ?? systemClock;
    this.retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    const every = options.pruneIntervalMs ?? 60 * 60 * 1000;
    if (every > 0) {
      this.pruneTimer = setInterval(() => this.pruneQuietly(), every);
      // Housekeeping alone must not keep a process (or a test run) alive.
      this.pruneTimer.unref();
    }
  }

  async publish(subject: string, payload: Uint8Array, options?: { id?: string; requestId?: string }): Promise<BusMessage> {
    this.assertOpen();
    assertPublishSubject(subject);
    const candidate: BusMessage = {
      id: options?.id ?? randomUUID(),
      subject,
      time: this.clock.now(),
      payload,
      ...(options?.requestId !== undefined ? { requestId: options.requestId } : {}),
    };
    const { message, duplicate, seq } = this.journal.append(candidate);
    if (!duplicate) {
      for (const consumer of this.consumers.values()) consumer.offer(seq, subject);
      for (const w of this.watchers) {
        // A microtask queued before publish resolves: the publisher's await resumes after the
        // watcher ran, so a write's cache drops are done before its reply goes out.
        if (w.matches(subject)) queueMicrotask(() => { if (this.watchers.has(w)) deliverWatched(w.options, w.handler, message, this.logger); });
      }
    }
    await this.journal.durable();
    return message;
  }

  async subscribe(options: SubscribeOptions, handler: BusHandler): Promise<Subscription> {
    this.assertOpen();
    assertFilterSubject(options.subject);
    if (!options.durable) throw IamError.invalid("durable", "a durable consumer name is required");
    if (this.consumers.has(options.durable)) {
      throw new IamError({
        code: "failedPrecondition",
        reason: "durable_in_use",
        message: `durable consumer "${options.durable}" is already subscribed in this process`,
      });
    }
    const row = this.journal.ensureConsumer(options.durable, options.subject, this.clock.now());
    const consumer = new MemoryConsumer(this.journal, {
      durable: options.durable,
      subject: options.subject,
      retryDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
      maxDeliveries: Math.max(1, options.maxDeliveries ?? DEFAULT_MAX_DELIVERIES),
      ackSeq: row.ackSeq,
    }, handler, this.logger);
    this.consumers.set(options.durable, consumer);
    consumer.wake();
    let stopped: Promise<void> | null = null;
    return {
      stop: () => {
        stopped ??= consumer.stop().finally(() => {
          if (this.consumers.get(options.durable) === consumer) this.consumers.delete(options.durable);
        });
        return stopped;
      },
    };
  }

  async watch(options: WatchOptions, handler: WatchHandler): Promise<Subscription> {
    this.assertOpen();
    assertFilterSubject(options.subject);
    const watcher = { matches: subjectMatcher(options.subject), options, handler };
    this.watchers.add(watcher);
    return {
      stop: async () => {
        this.watchers.delete(watcher);
      },
    };
  }

  async retireDurable(durable: string): Promise<boolean> {
    this.assertOpen();
    if (this.consumers.has(durable)) {
      throw new IamError({ code: "failedPrecondition", reason: "durable_in_use", message: `durable consumer "${durable}" is subscribed in this process` });
    }
    return this.journal.deleteConsumer(durable);
  }

  async ping(): Promise<void> {
    if (this.closed) throw IamError.unavailable("bus is closed");
    this.journal.ping();
  }

  /** Deletes journal entries every known durable has handled and older than the retention window. */
  prune(): number {
    this.assertOpen();
    return this.journal.prune(this.clock.now() - this.retentionMs);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.watchers.clear();
    await Promise.all([...this.consumers.values()].map((c) => c.stop()));
    this.consumers.clear();
    await this.journal.close();
  }

  private pruneQuietly(): void {
    try {
      const n = this.prune();
      if (n > 0) this.logger.debug({ pruned: n }, "bus journal pruned");
    } catch (err) {
      this.logger.warn({ err }, "bus journal prune failed");
    }
  }

  private assertOpen(): void {
    if (this.closed) throw IamError.unavailable("bus is closed");
  }
}
