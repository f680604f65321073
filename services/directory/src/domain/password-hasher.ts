import { cpuBudget } from "../../../kit/src/runtime/cpu-budget.js";
import { runHashJob, type Argon2Params } from "./hash-job.js";
import { HashingPool, type HashingPoolOptions } from "./hashing-pool.js";

export type { Argon2Params } from "./hash-job.js";

/**
 * argon2id at OWASP's second recommended profile (DESIGN 5): m=19456 KiB, t=2, p=1.
 *
 * Computed by `@node-rs/argon2` (RustCrypto's argon2, SIMD), not the reference C implementation
 * that the `argon2` package binds: same algorithm, parameters and PHC strings (RFC 9106 section 3),
 * so hashes written by either verify with the other, but here at m=19456 t=2 one verification takes
 * about 7 ms of a core against 19.5 ms (measured on the benchmark machine, `test/bench/argon2-rate.ts`).
 * The attacker's cost is set by the parameters, not by the defender's implementation; a defender
 * that hashes faster serves more logins per core at the same strength.
 */
export const DEFAULT_ARGON2: Argon2Params = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** Every password hash and verification of the process goes through here, on its hashing threads. */
export class PasswordHasher {
  private dummy: Promise<string> | undefined;
  private readonly pool: HashingPool;

  /** `threads`: hashing jobs at once; by default the cores this process may use. */
  constructor(private readonly params: Argon2Params = DEFAULT_ARGON2, threads = cpuBudget(), options: HashingPoolOptions = {}) {
    this.pool = new HashingPool(threads, options);
  }

  async hash(password: string): Promise<string> {
    return String(await this.pool.run({ kind: "hash", password, params: this.params }));
  }

  /** Verifies against an argon2 hash this class wrote; a hash of any other format never matches. */
  async verify(hash: string, password: string): Promise<boolean> {
    return (await this.pool.run({ kind: "verify", hash, password, anyFormat: false })) === true;
  }

  /** Verifies against a stored hash of any supported format (imported bcrypt and PBKDF2 included). */
  async verifyStored(hash: string, password: string): Promise<boolean> {
    return (await this.pool.run({ kind: "verify", hash, password, anyFormat: true })) === true;
  }

  /**
   * Spends the same time as a real verification, for unknown users, so response time does not
   * reveal which usernames exist.
   */
  async burn(password: string): Promise<void> {
    this.dummy ??= this.hash("tessera-dummy-password");
    await this.verify(await this.dummy, password);
  }

  /**
   * hash and verify on the calling thread, for a process's start (the bootstrap admin): there one
   * hash blocks the event loop for about 12 ms while nothing else is served yet, where booting a
   * hashing thread for it would cost some 90 ms of CPU before `/health` could answer
   * (docs/performance.md, "Cold start"). The threads boot at the first request that hashes.
   */
  hashAtStart(password: string): string {
    return String(settled(runHashJob({ id: 0, kind: "hash", password, params: this.params })));
  }

  verifyAtStart(hash: string, password: string): boolean {
    return settled(runHashJob({ id: 0, kind: "verify", hash, password, anyFormat: false })) === true;
  }

  /** Lets the jobs under way finish, then stops the hashing threads. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/** A job's value, or its failure thrown as the pool's callers would see it. */
function settled(reply: ReturnType<typeof runHashJob>): string | boolean {
  if ("error" in reply) throw new Error(reply.error);
  return reply.value;
}
