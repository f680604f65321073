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
