import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** A role of one organization; `_id` is `<organizationId>:<name>`, so a name is unique in it. */
export interface OrganizationRoleRecord extends Doc {
  realmId: string;
  organizationId: string;
  name: string;
  description: string;
  createdAt: number;
}

export class OrganizationRoleRepository {
  private constructor(private readonly roles: Collection<OrganizationRoleRecord>) {}

  static async open(store: Store): Promise<OrganizationRoleRepository> {
    return new OrganizationRoleRepository(await store.collection<OrganizationRoleRecord>({
      name: "organization_roles",
      indexes: [{ fields: ["realmId", "organizationId", "name"] }],
    }));
  }

  static idOf(organizationId: string, name: string): string {
    return `${organizationId}:${name}`;
  }

  /** A taken name throws alreadyExists. */
  insert(r: OrganizationRoleRecord): Promise<void> {
    return this.roles.insert(r);
  }

  find(realmId: string, organizationId: string, name: string): Promise<OrganizationRoleRecord | null> {
    return this.roles.findOne({ _id: OrganizationRoleRepository.idOf(organizationId, name), realmId });
  }

  list(realmId: string, organizationId: string): Promise<OrganizationRoleRecord[]> {
    return this.roles.find({ realmId, organizationId }, { sort: [["name", 1]], limit: 1000 });
  }

  async delete(realmId: string, organizationId: string, name: string): Promise<boolean> {
    return (await this.roles.deleteMany({ _id: OrganizationRoleRepository.idOf(organizationId, name), realmId })) > 0;
  }

  deleteOrganization(realmId: string, organizationId: string): Promise<number> {
    return this.roles.deleteMany({ realmId, organizationId });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.roles.deleteMany({ realmId });
  }
}
