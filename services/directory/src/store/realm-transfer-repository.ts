import { IamError } from "../../../kit/src/errors.js";
import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** The directory collections a realm's export reads and its import writes (the owners keep their indexes). */
export const TRANSFER_COLLECTIONS = [
  "users", "credentials", "otp_credentials", "passkey_credentials", "group_memberships", "role_mappings", "scope_assignments",
  "client_scopes", "protocol_mappers", "clients", "groups", "roles", "organizations", "organization_domains", "organization_members", "organization_roles",
  "authentication_flows",
] as const;
export type TransferCollection = (typeof TRANSFER_COLLECTIONS)[number];

type Row = Doc & { realmId: string };

/**
 * Whole-realm reads and writes for export and import, named by intent. Reads page by `_id` (a
 * keyset, so a 100,000-user realm is read a page at a time, never all at once); writes are
 * upserts by the document's kept ids, so a record left by an earlier realm of the same name whose
 * deletion cascade has not run yet is taken over rather than colliding.
 */
export class RealmTransferRepository {
  private constructor(private readonly cols: Record<TransferCollection, Collection<Row>>, private readonly seeds: Collection<Doc>) {}

  static async open(store: Store): Promise<RealmTransferRepository> {
    const cols = {} as Record<TransferCollection, Collection<Row>>;
    // Declared without indexes: each owning repository declares them; declaring is idempotent.
    for (const name of TRANSFER_COLLECTIONS) cols[name] = await store.collection<Row>({ name });
    return new RealmTransferRepository(cols, await store.collection<Doc>({ name: "realm_seeds" }));
  }

  /** Every record of a small per-realm collection (clients, roles, scopes...), in `_id` order. */
  all<T extends Row>(name: TransferCollection, realmId: string): Promise<T[]> {
    return this.cols[name].find({ realmId }, { sort: [["_id", 1]] }) as Promise<T[]>;
  }

  /**
   * A page of the realm's human users in creation order, after the user `after` ("" first), read
   * by a keyset on the users' (realmId, createdAt, _id) index: each page costs the same however
   * deep into a 100,000-user realm it is.
   */
  async usersAfter<T extends Row>(realmId: string, after: { createdAt: number; id: string } | undefined, limit: number): Promise<T[]> {
    // Service accounts are not filtered here (the caller drops them): a filter on
    // serviceAccountClientId would lead SQLite to its (realmId, serviceAccountClientId) index and
    // a sort of the whole realm per page.
    if (!after) return this.cols.users.find({ realmId }, { sort: [["createdAt", 1], ["_id", 1]], limit }) as Promise<T[]>;
    // Two range reads rather than one $or, which SQLite would not serve from the index: the rest
    // of the last user's millisecond (in _id order, which the index gives with createdAt fixed),
    // then the users created after it.
    const same = await this.cols.users.find({ realmId, createdAt: after.createdAt, _id: { $gt: after.id } }, { sort: [["_id", 1]], limit });
    if (same.length === limit) return same as T[];
    const later = await this.cols.users.find({ realmId, createdAt: { $gt: after.createdAt } }, { sort: [["createdAt", 1], ["_id", 1]], limit: limit - same.length });
    return [...same, ...later] as T[];
  }

  /** The records of these users in a per-user collection (credentials, otp, memberships, mappings). */
  forUsers<T extends Row>(name: TransferCollection, realmId: string, userIds: string[], field = "userId"): Promise<T[]> {
    return userIds.length ? this.cols[name].find({ realmId, [field]: { $in: userIds } }) as Promise<T[]> : Promise.resolve([]);
  }

  /** The role mappings of these users or groups: by the (realmId, holderType, holderId) index prefix. */
  mappingsOf<T extends Row>(realmId: string, holderType: "user" | "group", holderIds: string[]): Promise<T[]> {
    return holderIds.length ? this.cols.role_mappings.find({ realmId, holderType, holderId: { $in: holderIds } }) as Promise<T[]> : Promise.resolve([]);
  }

  /** The stored records with these ids, whatever realm they belong to (id collisions). */
  byIds(name: TransferCollection, ids: string[]): Promise<Row[]> {
    return ids.length ? this.cols[name].find({ _id: { $in: ids } }) : Promise.resolve([]);
  }

  /**
   * Writes the records: in one insertMany where no id is taken (the common case, and the fast
   * one for a batch of users), else one upsert each.
   */
  async put(name: TransferCollection, docs: Row[]): Promise<void> {
    if (docs.length === 0) return;
    try {
      await this.cols[name].insertMany(docs);
      return;
    } catch (e) {
      if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
    }
    for (const d of docs) await this.cols[name].upsert(d);
  }

  /** Marks the realm's built-in defaults as present: the imported document carries its own. */
  markSeeded(realmId: string, version: number, now: number): Promise<void> {
    return this.seeds.upsert({ _id: realmId, seededAt: now, version });
  }
}
