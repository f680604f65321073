import argon2 from "argon2";
import { availableParallelism } from "node:os";
import { HashingSlots } from "./hashing-slots.js";
import { verifyStoredHash } from "./stored-hash.js";

/** argon2id at OWASP's second recommended profile (DESIGN 5): m=19456 KiB, t=2, p=1. */
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

  /** `concurrency`: hashing jobs at once; by default the cores this process may run on. */
  constructor(private readonly params: Argon2Params = DEFAULT_ARGON2, concurrency = availableParallelism()) {
    this.slots = new HashingSlots(concurrency);
  }

  hash(password: string): Promise<string> {
    return this.slots.run(() => argon2.hash(password, { type: argon2.argon2id, ...this.params }));
  }

  /** Verifies against an argon2 hash this class wrote. */
  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await this.slots.run(() => argon2.verify(hash, password));
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
