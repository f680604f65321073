import type { Collection, Store } from "../../../kit/src/store/port.js";
import { countWrites, type WriteCounter } from "../../../kit/src/store/write-counted.js";
import type { RoleRecord } from "../domain/role.js";

/** Realm roles and client roles; a name is unique per realm (realm roles) or per client. */
export class RoleRepository {
  private constructor(private readonly roles: Collection<RoleRecord>) {}

  /** `writes` counts this repository's writes for a read cache (WriteCounter). */
  static async open(store: Store, writes?: WriteCounter): Promise<RoleRepository> {
    const roles = await store.collection<RoleRecord>({
      name: "roles",
      indexes: [{ fields: ["realmId", "clientId", "name"], unique: true }],
    });
    return new RoleRepository(writes ? countWrites(roles, writes) : roles);
  }

  /** Throws IamError alreadyExists when the name is taken in its container. */
  insert(role: RoleRecord): Promise<void> {
    return this.roles.insert(role);
  }

  findByName(realmId: string, clientId: string, name: string): Promise<RoleRecord | null> {
    return this.roles.findOne({ realmId, clientId, name });
  }

  findByNames(realmId: string, clientId: string, names: string[]): Promise<RoleRecord[]> {
    return names.length ? this.roles.find({ realmId, clientId, name: { $in: names } }) : Promise.resolve([]);
  }

  findByIds(realmId: string, ids: string[]): Promise<RoleRecord[]> {
    return ids.length ? this.roles.find({ realmId, _id: { $in: ids } }, { sort: [["name", 1]] }) : Promise.resolve([]);
  }

  list(realmId: string, clientId: string): Promise<RoleRecord[]> {
    return this.roles.find({ realmId, clientId }, { sort: [["name", 1]] });
  }

  /** Renames or describes a role; throws IamError alreadyExists when the new name is taken in its container. */
  update(realmId: string, id: string, set: Partial<Pick<RoleRecord, "name" | "description">>): Promise<RoleRecord | null> {
    return this.roles.findOneAndUpdate({ realmId, _id: id }, { $set: set });
  }

  /** One contained role more (idempotent; one atomic change per id, so concurrent adds all stay). */
  addComposite(realmId: string, roleId: string, containedId: string): Promise<number> {
    return this.roles.update({ realmId, _id: roleId }, { $addToSet: { composites: containedId } });
  }

  removeComposite(realmId: string, roleId: string, containedId: string): Promise<number> {
    return this.roles.update({ realmId, _id: roleId }, { $pull: { composites: containedId } });
  }

  /** A deleted role leaves every composite that contained it. */
  pullFromComposites(realmId: string, containedId: string): Promise<number> {
    return this.roles.update({ realmId, composites: { $includes: containedId } }, { $pull: { composites: containedId } });
  }

  delete(realmId: string, id: string): Promise<boolean> {
    return this.roles.deleteMany({ realmId, _id: id }).then((n) => n > 0);
  }

  deleteClient(realmId: string, clientId: string): Promise<number> {
    return this.roles.deleteMany({ realmId, clientId });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.roles.deleteMany({ realmId });
  }
}
