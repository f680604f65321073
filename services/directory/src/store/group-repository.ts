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

  /** Every group of the realm, ordered by path (parents before children). */
  listRealm(realmId: string): Promise<GroupRecord[]> {
    return this.groups.find({ realmId }, { sort: [["path", 1]] });
  }

  /** A page of a parent's direct subgroups ("" for the top-level groups) by name. */
  childrenPage(realmId: string, parentId: string, skip: number, limit: number): Promise<GroupRecord[]> {
    return this.groups.find({ realmId, parentId }, { sort: [["name", 1]], skip, limit });
  }

  /** A parent's direct subgroups ("" for the top-level groups) by name. */
  children(realmId: string, parentId: string): Promise<GroupRecord[]> {
    return this.groups.find({ realmId, parentId }, { sort: [["name", 1]] });
  }

  /** How many groups the realm has, or top-level groups with `topLevel`. */
  count(realmId: string, topLevel: boolean): Promise<number> {
    return this.groups.count(topLevel ? { realmId, parentId: "" } : { realmId });
  }

  findByIds(realmId: string, ids: string[]): Promise<GroupRecord[]> {
    return ids.length ? this.groups.find({ realmId, _id: { $in: ids } }, { sort: [["path", 1]] }) : Promise.resolve([]);
  }

  /**
   * The group's descendants: paths starting with "<path>/". Names never contain "/", and "0" is
   * the character after "/", so the binary string range ["<path>/", "<path>0") is exactly them.
   */
  descendants(realmId: string, path: string): Promise<GroupRecord[]> {
    return this.groups.find({ realmId, path: { $gte: `${path}/`, $lt: `${path}0` } }, { sort: [["path", 1]] });
  }

  /** Applies the changes; returns the group after them, or null. A taken path throws alreadyExists. */
  update(realmId: string, id: string, set: Partial<GroupRecord>): Promise<GroupRecord | null> {
    return this.groups.findOneAndUpdate({ _id: id, realmId }, { $set: set });
  }

  deleteByIds(realmId: string, ids: string[]): Promise<number> {
    return this.groups.deleteMany({ realmId, _id: { $in: ids } });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.groups.deleteMany({ realmId });
  }
}
