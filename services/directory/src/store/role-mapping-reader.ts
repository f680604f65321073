import type { Collection, Store } from "../../../kit/src/store/port.js";

/**
 * Read/cleanup access to the `role_mappings` collection, which the roles work owns (spec 4.5, 4.6
 * group role mappings): documents {realmId, holderType: "group" | "user", holderId, roleId}. The
 * groups and users code only counts a group's mappings (single-group read) and drops a deleted
 * holder's mappings, so no mapping outlives its user or group.
 */
export interface RoleMappingDoc {
  _id: string;
  realmId: string;
  holderType: "group" | "user";
  holderId: string;
  roleId: string;
  [key: string]: unknown;
}

export class RoleMappingReader {
  private constructor(private readonly mappings: Collection<RoleMappingDoc>) {}

  static async open(store: Store): Promise<RoleMappingReader> {
    return new RoleMappingReader(await store.collection<RoleMappingDoc>({ name: "role_mappings" }));
  }

  countForGroup(realmId: string, groupId: string): Promise<number> {
    return this.mappings.count({ realmId, holderType: "group", holderId: groupId });
  }

  deleteHolders(realmId: string, holderType: "group" | "user", holderIds: string[]): Promise<number> {
    if (!holderIds.length) return Promise.resolve(0);
    return this.mappings.deleteMany({ realmId, holderType, holderId: { $in: holderIds } });
  }
}
