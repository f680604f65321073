import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

export interface AdminAccountRecord extends Doc {
  username: string;
  passwordHash: string;
  createdAt: number;
}

/** Server administrators (not realm users): the accounts behind POST /admin/auth/login. */
export class AdminAccountRepository {
  private constructor(private readonly accounts: Collection<AdminAccountRecord>) {}

  static async open(store: Store): Promise<AdminAccountRepository> {
    return new AdminAccountRepository(await store.collection<AdminAccountRecord>({
      name: "admin_accounts",
      indexes: [{ fields: ["username"], unique: true }],
    }));
  }

  findByUsername(username: string): Promise<AdminAccountRecord | null> {
    return this.accounts.findOne({ username });
  }

  findById(id: string): Promise<AdminAccountRecord | null> {
    return this.accounts.get(id);
  }

  insert(account: AdminAccountRecord): Promise<void> {
    return this.accounts.insert(account);
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.accounts.update({ _id: id }, { $set: { passwordHash } });
  }
}
