import { Worker } from "node:worker_threads";
import type { HashJob, HashReply } from "./hash-job.js";
import type { HashingThreadData } from "./hashing-thread.js";
import { DEFAULT_BATCH_LIMITS, type BatchLimits } from "./reply-batcher.js";

/** A job as callers give it; the pool numbers it. */
export type HashJobInput = HashJob extends infer J ? (J extends HashJob ? Omit<J, "id"> : never) : never;

interface Waiter {
  resolve(value: string | boolean): void;
  reject(err: Error): void;
}

export interface HashingPoolOptions {
  limits?: BatchLimits;
  /** The thread's module; tests give one that misbehaves. Default: hashing-thread.js. */
  entry?: URL;
}

/**
 * Password hashing off the event loop, on `size` threads of its own (DESIGN 5). Each thread runs
 * its jobs one at a time, so no more hashes run at once than there are threads: argon2id jobs
 * beyond the cores only interleave on them and evict each other's 19 MiB from the caches
 * (measured on one core at m=19456 t=2: 6.2 ms per verification one at a time, 8.5 ms four at
 * a time; `test/bench/argon2-rate.ts`). A job goes to the thread with the fewest unfinished jobs.
 * Replies come back in batches (reply-batcher.ts explains why and the bound on the wait).
 *
 * Not libuv's threadpool, where `@node-rs/argon2`'s asynchronous calls run: there each job's
 * completion wakes the event loop on its own, and token signing and file I/O share the pool.
 */
export class HashingPool {
  private readonly threads: HashingThread[];
  private nextId = 0;
  private closed = false;

  constructor(size: number, options: HashingPoolOptions = {}) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`hashing threads must be a positive integer, got ${size}`);
    const entry = options.entry ?? new URL("./hashing-thread.js", import.meta.url);
    this.threads = Array.from({ length: size }, () => new HashingThread(entry, options.limits ?? DEFAULT_BATCH_LIMITS));
  }

  run(job: HashJobInput): Promise<string | boolean> {
    if (this.closed) return Promise.reject(new Error("the hashing pool is closed"));
    let thread = this.threads[0]!;
    for (const t of this.threads) if (t.unfinished < thread.unfinished) thread = t;
    return new Promise((resolve, reject) => thread.post({ ...job, id: this.nextId++ } as HashJob, { resolve, reject }));
  }

  /** Unfinished jobs per thread, and reply batches received in all (for tests). */
  get stats(): { unfinished: number[]; batches: number } {
    return { unfinished: this.threads.map((t) => t.unfinished), batches: this.threads.reduce((n, t) => n + t.batches, 0) };
  }

  /** Refuses new jobs, lets the unfinished ones finish, then stops the threads. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.close()));
  }
}

/**
 * One thread and the jobs it owes. The thread starts at its first job and again after it dies:
 * a thread that exits (a crash, an allocation failure) fails the jobs it held with an error,
 * never with "no match", which would count against the user as a wrong password.
 */
class HashingThread {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiter>();
  private outbox: HashJob[] = [];
  private readonly idleWaiters: Array<() => void> = [];
  batches = 0;

  constructor(private readonly entry: URL, private readonly limits: BatchLimits) {}

  get unfinished(): number {
    return this.waiting.size;
  }

  post(job: HashJob, waiter: Waiter): void {
    const worker = this.worker ?? this.start();
    // Referenced only while it owes replies: an idle pool never keeps the process alive.
    if (this.waiting.size === 0) worker.ref();
    this.waiting.set(job.id, waiter);
    // Jobs of one turn go in one message: one wake-up of the thread for a burst of logins.
    if (this.outbox.length === 0) queueMicrotask(() => this.flush());
    this.outbox.push(job);
  }

  async close(): Promise<void> {
    if (this.waiting.size > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    const data: HashingThreadData = { hashingThread: { limits: this.limits } };
    const worker = new Worker(this.entry, { workerData: data });
    this.worker = worker;
    worker.on("message", (batch: HashReply[]) => this.settle(batch));
    worker.on("error", (err: Error) => this.fail(worker, err));
    worker.on("exit", (code: number) => this.fail(worker, new Error(`the hashing thread exited with code ${code}`)));
    return worker;
  }

  private flush(): void {
    const jobs = this.outbox;
    this.outbox = [];
    if (jobs.length > 0) this.worker?.postMessage(jobs);
  }

  private settle(batch: HashReply[]): void {
    this.batches++;
    for (const reply of batch) {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) continue;
      this.waiting.delete(reply.id);
      if ("error" in reply) waiter.reject(new Error(reply.error));
      else waiter.resolve(reply.value);
    }
    this.whenIdle();
  }

  private fail(worker: Worker, err: Error): void {
    if (this.worker !== worker) return; // the "exit" after an "error", or a thread close() stopped
    this.worker = undefined;
    this.outbox = [];
    const waiters = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiters) w.reject(new Error(`password hashing failed: ${err.message}`));
    this.whenIdle();
  }

  private whenIdle(): void {
    if (this.waiting.size > 0) return;
    this.worker?.unref();
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
