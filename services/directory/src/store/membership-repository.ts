import { IamError } from "../../../kit/src/errors.js";
import type { Collection, Filter, Store } from "../../../kit/src/store/port.js";

/**
 * One user's membership of one group (spec 4.6). `_id` is `<groupId>:<userId>`, so adding is
 * idempotent. `usernameKey` is the member's lower-cased username, kept here so a group's members
 * page in username order (as Keycloak lists them) from one index: a rename updates it.
 */
export interface MembershipRecord {
  _id: string;
  realmId: string;
  groupId: string;
  userId: string;
  usernameKey: string;
  createdAt: number;
  [key: string]: unknown;
}

export class MembershipRepository {
  private constructor(private readonly memberships: Collection<MembershipRecord>) {}

  static async open(store: Store): Promise<MembershipRepository> {
    return new MembershipRepository(await store.collection<MembershipRecord>({
      name: "group_memberships",
      indexes: [
        { fields: ["realmId", "groupId", "usernameKey"] },
        { fields: ["realmId", "userId"] },
      ],
    }));
  }

  static idOf(groupId: string, userId: string): string {
    return `${groupId}:${userId}`;
  }

  /** Adds the membership; false when it already existed (the unique `_id` decides, atomically). */
  async add(m: { realmId: string; groupId: string; userId: string; usernameKey: string; createdAt: number }): Promise<boolean> {
    try {
      await this.memberships.insert({ ...m, _id: MembershipRepository.idOf(m.groupId, m.userId) });
      return true;
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") return false;
      throw e;
    }
  }

  /** Whether the user is a member of the group. */
  async has(realmId: string, groupId: string, userId: string): Promise<boolean> {
    return (await this.memberships.count({ _id: MembershipRepository.idOf(groupId, userId), realmId })) > 0;
  }

  async remove(realmId: string, groupId: string, userId: string): Promise<boolean> {
    return (await this.memberships.deleteMany({ _id: MembershipRepository.idOf(groupId, userId), realmId })) > 0;
  }

  countMembers(realmId: string, groupId: string): Promise<number> {
    return this.memberships.count({ realmId, groupId });
  }

  /** A page of the group's memberships in username order (`_id` only makes the order total). */
  members(realmId: string, groupId: string, skip: number, limit: number): Promise<MembershipRecord[]> {
    return this.memberships.find({ realmId, groupId }, { sort: [["usernameKey", 1], ["_id", 1]], skip, limit });
  }

  /** Follows a username change into every membership of the user. */
  renameMember(realmId: string, userId: string, usernameKey: string): Promise<number> {
    return this.memberships.update({ realmId, userId }, { $set: { usernameKey } });
  }

  /** Memberships written before they carried the username (domain/member-order-backfill.ts). */
  withoutUsername(limit: number): Promise<MembershipRecord[]> {
    return this.memberships.find({ usernameKey: { $exists: false } }, { limit });
  }

  /** The same, in one group (its index prefix: realmId, groupId). */
  withoutUsernameIn(realmId: string, groupId: string, limit: number): Promise<MembershipRecord[]> {
    return this.memberships.find({ realmId, groupId, usernameKey: { $exists: false } }, { limit });
  }

  setUsername(id: string, usernameKey: string): Promise<number> {
    return this.memberships.update({ _id: id }, { $set: { usernameKey } });
  }

  ofUser(realmId: string, userId: string): Promise<MembershipRecord[]> {
    return this.memberships.find({ realmId, userId });
  }

  deleteWhere(filter: Filter & { realmId: string }): Promise<number> {
    return this.memberships.deleteMany(filter);
  }
}
