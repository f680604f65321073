import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { AdminAccountRecord, AdminAccountRepository } from "../store/admin-account-repository.js";
import type { PasswordHasher } from "./password-hasher.js";

/** Admin accounts (spec 4.14), bootstrapped from TESSERA_ADMIN_USERNAME / TESSERA_ADMIN_PASSWORD. */
export class AdminAccounts {
  constructor(
    private readonly repo: AdminAccountRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  /** Creates the bootstrap admin, or re-sets its password when the configured one changed. */
  async bootstrap(username: string, password: string): Promise<void> {
    const existing = await this.repo.findByUsername(username);
    if (!existing) {
      try {
        await this.repo.insert({
          _id: randomUUID(), username, passwordHash: await this.hasher.hash(password), createdAt: this.clock.now(),
        });
      } catch (e) {
        // Another replica bootstrapped it at the same moment.
        if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
      }
      return;
    }
    if (!(await this.hasher.verify(existing.passwordHash, password))) {
      await this.repo.setPasswordHash(existing._id, await this.hasher.hash(password));
    }
  }

  async authenticate(username: string, password: string): Promise<AdminAccountRecord> {
    if (!username) throw IamError.invalid("username", "username is required");
    if (!password) throw IamError.invalid("password", "password is required");
    const account = await this.repo.findByUsername(username);
    if (!account) {
      await this.hasher.burn(password);
      throw IamError.unauthenticated("invalid username or password", "invalid_credentials");
    }
    if (!(await this.hasher.verify(account.passwordHash, password))) {
      throw IamError.unauthenticated("invalid username or password", "invalid_credentials");
    }
    return account;
  }

  async get(id: string): Promise<AdminAccountRecord> {
    const account = await this.repo.findById(id);
    if (!account) throw IamError.unauthenticated("admin account no longer exists", "invalid_token");
    return account;
  }
}
