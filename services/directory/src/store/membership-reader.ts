import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** A user's membership of a group; the collection is written by the group administration. */
export interface GroupMembershipDoc extends Doc {
  realmId: string;
  userId: string;
  groupId: string;
}

/** Read-only view of `group_memberships` for claim resolution (its owner declares the indexes). */
export class MembershipReader {
  private constructor(private readonly memberships: Collection<GroupMembershipDoc>) {}

  static async open(store: Store): Promise<MembershipReader> {
    return new MembershipReader(await store.collection<GroupMembershipDoc>({ name: "group_memberships" }));
  }

  async groupIdsOf(realmId: string, userId: string): Promise<string[]> {
    return (await this.memberships.find({ realmId, userId })).map((m) => m.groupId);
  }
}
