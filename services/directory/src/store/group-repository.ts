import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { GroupRecord } from "../domain/group.js";

/** Realm groups (hierarchical). */
export class GroupRepository {
  private constructor(readonly groups: Collection<GroupRecord>) {}

  static async open(store: Store): Promise<GroupRepository> {
    return new GroupRepository(await store.collection<GroupRecord>({
      name: "groups",
      indexes: [
        { fields: ["realmId", "path"], unique: true },
        { fields: ["realmId", "parentId", "name"] },
      ],
    }));
  }

  insert(group: GroupRecord): Promise<void> {
    return this.groups.insert(group);
  }

  findById(realmId: string, id: string): Promise<GroupRecord | null> {
    return this.groups.findOne({ _id: id, realmId });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.groups.deleteMany({ realmId });
  }
}
