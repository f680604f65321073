import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { AdminAccountRecord, AdminAccountRepository } from "../store/admin-account-repository.js";
import type { PasswordHasher } from "./password-hasher.js";
import type { AdminLoginLockout } from "./admin-login-lockout.js";

/** An admin login's outcome: the account, or the seconds to wait (the lockout refused it). */
export type AdminLogin = { account: AdminAccountRecord } | { retryAfterSeconds: number };

/** Admin accounts (spec 4.14), bootstrapped from TESSERA_ADMIN_USERNAME / TESSERA_ADMIN_PASSWORD. */
export class AdminAccounts {
  constructor(
    private readonly repo: AdminAccountRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly lockout: AdminLoginLockout,
    /** Runs after a password reset: the admin's sign-ins end (admin-sessions.ts). */
    private readonly passwordReset: (adminId: string) => Promise<unknown> = async () => undefined,
  ) {}

  /**
   * Creates the bootstrap admin, or re-sets its password when the configured one changed. Runs
   * while the process starts, so it hashes on the calling thread (PasswordHasher.hashAtStart).
   */
  async bootstrap(username: string, password: string): Promise<void> {
    const existing = await this.repo.findByUsername(username);
    if (!existing) {
      try {
        await this.repo.insert({
          _id: randomUUID(), username, passwordHash: this.hasher.hashAtStart(password), createdAt: this.clock.now(),
        });
      } catch (e) {
        // Another replica bootstrapped it at the same moment.
        if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
      }
      return;
    }
    if (!this.hasher.verifyAtStart(existing.passwordHash, password)) {
      await this.repo.setPasswordHash(existing._id, this.hasher.hashAtStart(password));
      await this.passwordReset(existing._id);
    }
  }

  /**
   * Proves an admin's password (spec 4.14). The lockout (admin-login-lockout.ts) counts the attempt
   * first; a refused attempt is answered without hashing, the same for every name.
   */
  async authenticate(username: string, password: string, ipAddress = ""): Promise<AdminLogin> {
    if (!username) throw IamError.invalid("username", "username is required");
    if (!password) throw IamError.invalid("password", "password is required");
    const wait = await this.lockout.attempt(username, ipAddress);
    if (wait > 0) return { retryAfterSeconds: wait };
    const account = await this.repo.findByUsername(username);
    if (!account) {
      await this.hasher.burn(password);
      throw IamError.unauthenticated("invalid username or password", "invalid_credentials");
    }
    if (!(await this.hasher.verify(account.passwordHash, password))) {
      throw IamError.unauthenticated("invalid username or password", "invalid_credentials");
    }
    await this.lockout.succeeded(username, ipAddress);
    return { account };
  }

  async get(id: string): Promise<AdminAccountRecord> {
    const account = await this.repo.findById(id);
    if (!account) throw IamError.unauthenticated("admin account no longer exists", "invalid_token");
    return account;
  }
}
