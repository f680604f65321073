import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import { defaultHashingSlots, HashingSlots } from "./hashing-slots.js";
import { verifyStoredHash } from "./stored-hash.js";

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
export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export const DEFAULT_ARGON2: Argon2Params = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** Every password hash and verification of the process goes through here, bounded by HashingSlots. */
export class PasswordHasher {
  private dummy: Promise<string> | undefined;
  private readonly slots: HashingSlots;

  /** `concurrency`: hashing jobs at once; by default the cores this process may use, at most libuv's threads. */
  constructor(private readonly params: Argon2Params = DEFAULT_ARGON2, concurrency = defaultHashingSlots(process.env)) {
    this.slots = new HashingSlots(concurrency);
  }

  hash(password: string): Promise<string> {
    // Algorithm and version are the package defaults, argon2id and v=19 (0x13); the unit test pins both.
    return this.slots.run(() => argon2Hash(password, this.params));
  }

  /** Verifies against an argon2 hash this class wrote. */
  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await this.slots.run(() => argon2Verify(hash, password));
    } catch {
      return false;
    }
  }

  /** Verifies against a stored hash of any supported format (imported bcrypt and PBKDF2 included). */
  verifyStored(hash: string, password: string): Promise<boolean> {
    return this.slots.run(() => verifyStoredHash(hash, password));
  }

  /**
   * Spends the same time as a real verification, for unknown users, so response time does not
   * reveal which usernames exist.
   */
  async burn(password: string): Promise<void> {
    this.dummy ??= this.hash("tessera-dummy-password");
    await this.verify(await this.dummy, password);
  }
}
