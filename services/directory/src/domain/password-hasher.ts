import argon2 from "argon2";

/** argon2id at OWASP's second recommended profile (DESIGN 5): m=19456 KiB, t=2, p=1. */
export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export const DEFAULT_ARGON2: Argon2Params = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  constructor(private readonly params: Argon2Params = DEFAULT_ARGON2) {}

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, ...this.params });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
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
