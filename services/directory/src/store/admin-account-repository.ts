import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** What an admin may do in one realm (admin-access.ts names the roles). */
export interface RealmAccessRecord {
  realm: string;
  roles: string[];
}

export interface AdminAccountRecord extends Doc {
  username: string;
  passwordHash: string;
  createdAt: number;
  /**
   * Every realm and the administrators themselves. Absent on accounts stored before admins had
   * permissions: those were all server admins, and stay so.
   */
  serverAdmin?: boolean;
  realmAccess?: RealmAccessRecord[];
  /** The realms of `realmAccess`, for finding the accounts a deleted realm's grants are on. */
  accessRealms?: string[];
}

/** Accounts stored before `serverAdmin` existed could do everything (see AdminAccountRecord). */
export function isServerAdmin(a: AdminAccountRecord): boolean {
  return a.serverAdmin ?? true;
}

/** Server administrators (not realm users): the accounts behind POST /admin/auth/login. */
export class AdminAccountRepository {
  private constructor(private readonly accounts: Collection<AdminAccountRecord>) {}

  static async open(store: Store): Promise<AdminAccountRepository> {
    return new AdminAccountRepository(await store.collection<AdminAccountRecord>({
      name: "admin_accounts",
      indexes: [{ fields: ["username"], unique: true }, { fields: ["accessRealms"], multikey: true }],
    }));
  }

  findByUsername(username: string): Promise<AdminAccountRecord | null> {
    return this.accounts.findOne({ username });
  }

  findById(id: string): Promise<AdminAccountRecord | null> {
    return this.accounts.get(id);
  }

  /** A page of accounts in username order; `search`, a case-insensitive part of the username. */
  page(search: string, first: number, max: number): Promise<AdminAccountRecord[]> {
    return this.accounts.find(search ? { username: { $contains: search } } : {}, { sort: [["username", 1]], skip: first, limit: max });
  }

  /** The accounts holding a grant in `realm`. */
  withAccessTo(realm: string): Promise<AdminAccountRecord[]> {
    return this.accounts.find({ accessRealms: { $includes: realm } }, { limit: 10_000 });
  }

  /** Server admins, counting those stored before the field (isServerAdmin), up to `limit`. */
  async serverAdminIds(limit: number): Promise<string[]> {
    const found = await this.accounts.find({ $or: [{ serverAdmin: true }, { serverAdmin: { $exists: false } }] }, { limit });
    return found.map((a) => a._id);
  }

  insert(account: AdminAccountRecord): Promise<void> {
    return this.accounts.insert(account);
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.accounts.update({ _id: id }, { $set: { passwordHash } });
  }

  /** Sets what the account may do; null when it is gone. */
  setAccess(id: string, serverAdmin: boolean, realmAccess: RealmAccessRecord[]): Promise<AdminAccountRecord | null> {
    return this.accounts.findOneAndUpdate({ _id: id }, { $set: { serverAdmin, realmAccess, accessRealms: realmAccess.map((g) => g.realm) } });
  }

  async delete(id: string): Promise<boolean> {
    return (await this.accounts.findOneAndDelete({ _id: id })) !== null;
  }
}
