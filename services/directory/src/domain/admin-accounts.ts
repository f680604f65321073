import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { SerialQueue } from "../../../kit/src/store/serial-queue.js";
import { isServerAdmin, type AdminAccountRecord, type AdminAccountRepository } from "../store/admin-account-repository.js";
import type { PasswordHasher } from "./password-hasher.js";
import type { AdminLoginLockout } from "./admin-login-lockout.js";
import { checkAdminPassword, checkAdminUsername, normalizeRealmAccess } from "./admin-account-rules.js";

export interface NewAdmin {
  username: string;
  password: string;
  serverAdmin: boolean;
  realmAccess: { realm: string; roles: string[] }[];
}

export interface AdminChange {
  password?: string;
  serverAdmin?: boolean;
  realmAccess?: { realm: string; roles: string[] }[];
}

/** An admin login's outcome: the account, or the seconds to wait (the lockout refused it). */
export type AdminLogin = { account: AdminAccountRecord } | { retryAfterSeconds: number };

/**
 * Admin accounts (spec 4.14), bootstrapped from TESSERA_ADMIN_USERNAME / TESSERA_ADMIN_PASSWORD,
 * and what each may do (docs/security.md, "Administrators"): a server admin does everything; any
 * other admin holds Keycloak's realm-management roles in named realms.
 *
 * At least one server admin remains: deleting or demoting the last one is refused (409). The
 * check and the write are one step per process (`writes`); two replicas demoting the last two at
 * once could still leave none, and the next start makes the bootstrap account a server admin
 * again (`bootstrap`), the way back Keycloak's bootstrap admin is.
 */
export class AdminAccounts {
  private readonly writes = new SerialQueue();

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
          _id: randomUUID(), username, passwordHash: this.hasher.hashAtStart(password), createdAt: this.clock.now(), serverAdmin: true,
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
    if (!isServerAdmin(existing) && (await this.repo.serverAdminIds(1)).length === 0) {
      await this.repo.setAccess(existing._id, true, existing.realmAccess ?? []);
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

  /** A page of accounts in username order (`max` 1..1000). */
  list(search: string, first: number, max: number): Promise<AdminAccountRecord[]> {
    if (!Number.isInteger(first) || first < 0) throw IamError.invalid("first", "first must be a non-negative integer");
    if (!Number.isInteger(max) || max < 1 || max > 1000) throw IamError.invalid("max", "max must be an integer from 1 to 1000");
    return this.repo.page(search.toLowerCase(), first, max);
  }

  async create(a: NewAdmin): Promise<AdminAccountRecord> {
    checkAdminUsername(a.username);
    checkAdminPassword(a.password);
    const realmAccess = normalizeRealmAccess(a.realmAccess);
    const record: AdminAccountRecord = {
      _id: randomUUID(), username: a.username, passwordHash: await this.hasher.hash(a.password), createdAt: this.clock.now(),
      serverAdmin: a.serverAdmin, realmAccess, accessRealms: realmAccess.map((g) => g.realm),
    };
    try {
      await this.repo.insert(record);
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`an admin named "${a.username}" already exists`, "username", "admin_exists");
      throw e;
    }
    return record;
  }

  /**
   * Changes an account's password or what it may do. A new password ends the account's sign-ins;
   * new roles apply to its tokens already issued (the gateway reads them with each session check).
   */
  update(id: string, callerId: string, change: AdminChange): Promise<AdminAccountRecord> {
    if (change.password !== undefined) checkAdminPassword(change.password);
    const realmAccess = change.realmAccess === undefined ? undefined : normalizeRealmAccess(change.realmAccess);
    return this.writes.run(async () => {
      const existing = await this.found(id);
      if (change.serverAdmin === false && isServerAdmin(existing)) {
        if (id === callerId) throw IamError.conflict("an admin may not take its own server admin role away", "serverAdmin", "own_role");
        await this.keepAServerAdmin(id);
      }
      let account = existing;
      if (change.serverAdmin !== undefined || realmAccess !== undefined) {
        account = (await this.repo.setAccess(id, change.serverAdmin ?? isServerAdmin(existing), realmAccess ?? existing.realmAccess ?? [])) ?? (await this.found(id));
      }
      if (change.password !== undefined) {
        const passwordHash = await this.hasher.hash(change.password);
        await this.repo.setPasswordHash(id, passwordHash);
        await this.passwordReset(id);
        account = { ...account, passwordHash };
      }
      return account;
    });
  }

  /** Deletes an account and ends its sign-ins; not the caller's own, nor the last server admin. */
  delete(id: string, callerId: string): Promise<void> {
    return this.writes.run(async () => {
      const existing = await this.found(id);
      if (id === callerId) throw IamError.conflict("an admin may not delete itself", "id", "own_account");
      if (isServerAdmin(existing)) await this.keepAServerAdmin(id);
      if (!(await this.repo.delete(id))) throw IamError.notFound(`admin "${id}"`, "admin_not_found");
      await this.passwordReset(id);
    });
  }

  /** A deleted realm's grants go with it, so a later realm of the same name starts with none. */
  async forgetRealm(realm: string): Promise<void> {
    await this.writes.run(async () => {
      for (const a of await this.repo.withAccessTo(realm)) {
        await this.repo.setAccess(a._id, isServerAdmin(a), (a.realmAccess ?? []).filter((g) => g.realm !== realm));
      }
    });
  }

  private async found(id: string): Promise<AdminAccountRecord> {
    const account = id ? await this.repo.findById(id) : null;
    if (!account) throw IamError.notFound(`admin "${id}"`, "admin_not_found");
    return account;
  }

  /** Refuses when `leaving` is the only server admin. */
  private async keepAServerAdmin(leaving: string): Promise<void> {
    const others = (await this.repo.serverAdminIds(2)).filter((x) => x !== leaving);
    if (others.length === 0) throw IamError.conflict("the last server admin cannot be removed or demoted", "serverAdmin", "last_server_admin");
  }
}
