import { legacyUsernameKeyOf, usernameKeyOf } from "../domain/username.js";
import type { Collection, Filter, FindOptions, Store } from "../../../kit/src/store/port.js";
import type { UserRecord } from "../domain/user.js";

/** Realm users. Uniqueness of username and email is per realm and case-insensitive. */
export class UserRepository {
  private constructor(readonly users: Collection<UserRecord>) {}

  static async open(store: Store): Promise<UserRepository> {
    return new UserRepository(await store.collection<UserRecord>({
      name: "users",
      indexes: [
        { fields: ["realmId", "usernameKey"], unique: true },
        { fields: ["realmId", "emailKey"], unique: true },
        { fields: ["realmId", "createdAt", "_id"] },
        { fields: ["realmId", "serviceAccountClientId"] },
        { fields: ["realmId", "federationProviderId", "federationExternalId"] },
      ],
    }));
  }

  /** Throws IamError alreadyExists when the username is taken in the realm. */
  insert(user: UserRecord): Promise<void> {
    return this.users.insert(user);
  }

  findById(realmId: string, id: string): Promise<UserRecord | null> {
    return this.users.findOne({ _id: id, realmId });
  }

  /**
   * By the NFKC key, then (only when it differs: a username with compatibility characters) by the
   * lower-cased key a user created before normalisation was stored under (domain/username.ts).
   */
  async findByUsername(realmId: string, username: string): Promise<UserRecord | null> {
    const key = usernameKeyOf(username);
    const found = await this.users.findOne({ realmId, usernameKey: key });
    const legacy = legacyUsernameKeyOf(username);
    return found ?? (legacy !== key ? this.users.findOne({ realmId, usernameKey: legacy }) : null);
  }

  findByEmail(realmId: string, email: string): Promise<UserRecord | null> {
    return this.users.findOne({ realmId, emailKey: email.toLowerCase() });
  }

  /** The user a federation provider linked to an LDAP entry's stable id. */
  findByLink(realmId: string, providerId: string, externalId: string): Promise<UserRecord | null> {
    return this.users.findOne({ realmId, federationProviderId: providerId, federationExternalId: externalId });
  }

  /** The provider's users linked to any of these stable ids. */
  findByLinks(realmId: string, providerId: string, externalIds: string[]): Promise<UserRecord[]> {
    return externalIds.length ? this.users.find({ realmId, federationProviderId: providerId, federationExternalId: { $in: externalIds } }) : Promise.resolve([]);
  }

  /** Inserts several users in one write where the store can; a taken key throws alreadyExists. */
  insertMany(users: UserRecord[]): Promise<void> {
    return this.users.insertMany(users);
  }

  /** A page of a provider's linked users, by creation. */
  linkedPage(realmId: string, providerId: string, skip: number, limit: number): Promise<UserRecord[]> {
    return this.users.find({ realmId, federationProviderId: providerId }, { sort: [["createdAt", 1], ["_id", 1]], skip, limit });
  }

  /** Removes a user's federation link (the entry left LDAP, the provider says unlink). */
  async unlink(realmId: string, id: string, now: number): Promise<boolean> {
    return (await this.users.update({ _id: id, realmId }, {
      $unset: ["federationProviderId", "federationExternalId", "federationDn", "federationMissing"], $set: { updatedAt: now },
    })) > 0;
  }

  findByIds(realmId: string, ids: string[]): Promise<UserRecord[]> {
    return ids.length ? this.users.find({ realmId, _id: { $in: ids } }) : Promise.resolve([]);
  }

  /** A page of the realm's users matching `filter`, ordered by creation then id, and the total. */
  async page(realmId: string, filter: Filter, paging: Pick<FindOptions, "skip" | "limit">): Promise<{ total: number; users: UserRecord[] }> {
    const f: Filter = { ...filter, realmId };
    const [total, users] = await Promise.all([
      this.users.count(f),
      this.users.find(f, { sort: [["createdAt", 1], ["_id", 1]], ...paging }),
    ]);
    return { total, users };
  }

  /** Applies the changes; returns the user after the change, or null. Unique keys throw alreadyExists. */
  update(realmId: string, id: string, set: Partial<UserRecord>): Promise<UserRecord | null> {
    return this.users.findOneAndUpdate({ _id: id, realmId }, { $set: set });
  }

  /** Every realm's users after `afterId`, in id order: for start-up upkeep that walks them all once. */
  after(afterId: string, limit: number): Promise<UserRecord[]> {
    return this.users.find({ _id: { $gt: afterId } }, { sort: [["_id", 1]], limit });
  }

  /** Moves a user's username key, if it is still `from`; returns whether it moved. Throws alreadyExists when `to` is taken. */
  async moveUsernameKey(realmId: string, id: string, from: string, to: string): Promise<boolean> {
    return (await this.users.update({ _id: id, realmId, usernameKey: from }, { $set: { usernameKey: to } })) === 1;
  }

  /** Deletes one user; returns whether it existed. */
  async deleteById(realmId: string, id: string): Promise<boolean> {
    return (await this.users.deleteMany({ _id: id, realmId })) > 0;
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.users.deleteMany({ realmId });
  }
}
