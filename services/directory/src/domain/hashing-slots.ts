import { cpuBudget } from "../../../kit/src/runtime/cpu-budget.js";

/**
 * A bound on concurrent password hashing (argon2, bcrypt, PBKDF2). Hashing is CPU-bound and each
 * argon2id job holds 19 MiB: running more at once than there are cores only interleaves them on
 * the same cores, thrashes the caches (measured on one core at m=19456 t=2 with `@node-rs/argon2`:
 * 6.2 ms per verify one at a time, 8.5 ms four at a time; `test/bench/argon2-rate.ts`) and fills
 * libuv's threadpool, which token signing and file I/O also use. Waiters are served first come,
 * first served.
 */
export class HashingSlots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly slots: number) {
    if (!Number.isInteger(slots) || slots < 1) throw new Error(`hashing slots must be a positive integer, got ${slots}`);
  }

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.busy >= this.slots) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy++;
    try {
      return await job();
    } finally {
      // The slot passes straight to the next waiter (busy stays the same), else it is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    }
  }

  /** Jobs running and jobs waiting, for tests and metrics. */
  get load(): { running: number; waiting: number } {
    return { running: this.busy, waiting: this.waiting.length };
  }
}

/** libuv's threadpool size: UV_THREADPOOL_SIZE as libuv reads it at start (1 to 1024), else 4. */
export function threadpoolSize(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.UV_THREADPOOL_SIZE;
  if (raw === undefined || raw.trim() === "") return 4;
  const n = Number.parseInt(raw, 10);
  return Number.isNaN(n) ? 4 : Math.min(1024, Math.max(1, n));
}

/**
 * The default number of hashing slots: the cores this process may use, and no more than libuv's
 * threads. Hashing runs on that threadpool; jobs beyond its threads add no throughput but wait in
 * its queue, where token signing (also on the pool) would queue behind them. With the slots capped,
 * a signature waits at most for one running hash to finish.
 */
export function defaultHashingSlots(env: Readonly<Record<string, string | undefined>>, cores = cpuBudget()): number {
  return Math.max(1, Math.min(cores, threadpoolSize(env)));
}
