import type { Collection, Store } from "../../../kit/src/store/port.js";
import { IamError } from "../../../kit/src/errors.js";
import type { HolderType, RoleMappingRecord } from "../domain/role.js";

/** Role mappings of users and groups; one mapping per holder and role (unique index). */
export class RoleMappingRepository {
  private constructor(private readonly mappings: Collection<RoleMappingRecord>) {}

  static async open(store: Store): Promise<RoleMappingRepository> {
    return new RoleMappingRepository(await store.collection<RoleMappingRecord>({
      name: "role_mappings",
      indexes: [
        { fields: ["realmId", "holderType", "holderId", "roleId"], unique: true },
        { fields: ["realmId", "roleId"] },
        { fields: ["realmId", "clientId"] },
      ],
    }));
  }

  /** Adds the mapping unless present (idempotent). The id is derived so a retry collides with itself. */
  async add(m: Omit<RoleMappingRecord, "_id"> & { clientId: string }): Promise<void> {
    try {
      await this.mappings.insert({ ...m, _id: `${m.holderType}:${m.holderId}:${m.roleId}` } as RoleMappingRecord);
    } catch (e) {
      if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
    }
  }

  remove(realmId: string, holderType: HolderType, holderId: string, roleIds: string[]): Promise<number> {
    return this.mappings.deleteMany({ realmId, holderType, holderId, roleId: { $in: roleIds } });
  }

  /** Mappings of the holders (one type), optionally of one client ("" = realm roles). */
  ofHolders(realmId: string, holderType: HolderType, holderIds: string[], clientId?: string): Promise<RoleMappingRecord[]> {
    if (!holderIds.length) return Promise.resolve([]);
    return this.mappings.find({
      realmId, holderType, holderId: { $in: holderIds }, ...(clientId !== undefined ? { clientId } : {}),
    });
  }

  deleteRole(realmId: string, roleId: string): Promise<number> {
    return this.mappings.deleteMany({ realmId, roleId });
  }

  deleteClient(realmId: string, clientId: string): Promise<number> {
    return this.mappings.deleteMany({ realmId, clientId });
  }

  deleteHolder(realmId: string, holderType: HolderType, holderId: string): Promise<number> {
    return this.mappings.deleteMany({ realmId, holderType, holderId });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.mappings.deleteMany({ realmId });
  }
}
