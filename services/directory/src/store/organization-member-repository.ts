import { IamError } from "../../../kit/src/errors.js";
import type { Collection, Filter, Store } from "../../../kit/src/store/port.js";

/**
 * One user's membership of one organization. `_id` is `<organizationId>:<userId>`, so adding is a
 * conditional insert (a second add is refused by the store, never read-then-write). `usernameKey`
 * orders a page of members by username, as Keycloak lists them; a rename updates it.
 */
export interface OrganizationMemberRecord {
  _id: string;
  realmId: string;
  organizationId: string;
  userId: string;
  usernameKey: string;
  /** "UNMANAGED" (an admin or an invitation added it) or "MANAGED" (the organization's IdP created the user). */
  membershipType: string;
  /** Names of the organization's roles granted to the member (organization-roles.ts). */
  roles?: string[];
  createdAt: number;
  [key: string]: unknown;
}

export class OrganizationMemberRepository {
  private constructor(private readonly members: Collection<OrganizationMemberRecord>) {}

  static async open(store: Store): Promise<OrganizationMemberRepository> {
    return new OrganizationMemberRepository(await store.collection<OrganizationMemberRecord>({
      name: "organization_members",
      indexes: [
        { fields: ["realmId", "organizationId", "usernameKey"] },
        // A page of one membership type (`?membershipType=`, an organization's MANAGED members).
        { fields: ["realmId", "organizationId", "membershipType", "usernameKey"] },
        { fields: ["realmId", "userId"] },
      ],
    }));
  }

  static idOf(organizationId: string, userId: string): string {
    return `${organizationId}:${userId}`;
  }

  /** Adds the membership; false when it already existed. */
  async add(m: Pick<OrganizationMemberRecord, "realmId" | "organizationId" | "userId" | "usernameKey" | "membershipType" | "createdAt">): Promise<boolean> {
    try {
      await this.members.insert({ ...m, _id: OrganizationMemberRepository.idOf(m.organizationId, m.userId) });
      return true;
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") return false;
      throw e;
    }
  }

  find(realmId: string, organizationId: string, userId: string): Promise<OrganizationMemberRecord | null> {
    return this.members.findOne({ _id: OrganizationMemberRepository.idOf(organizationId, userId), realmId });
  }

  /** The membership's type; false when there is no such membership. */
  async setType(realmId: string, organizationId: string, userId: string, membershipType: string): Promise<boolean> {
    return (await this.members.update({ _id: OrganizationMemberRepository.idOf(organizationId, userId), realmId }, { $set: { membershipType } })) > 0;
  }

  async remove(realmId: string, organizationId: string, userId: string): Promise<boolean> {
    return (await this.members.deleteMany({ _id: OrganizationMemberRepository.idOf(organizationId, userId), realmId })) > 0;
  }

  /** A page of the organization's memberships in username order. */
  page(realmId: string, organizationId: string, skip: number, limit: number, filter: Filter = {}): Promise<OrganizationMemberRecord[]> {
    return this.members.find({ ...filter, realmId, organizationId }, { sort: [["usernameKey", 1]], skip, limit });
  }

  count(realmId: string, organizationId: string): Promise<number> {
    return this.members.count({ realmId, organizationId });
  }

  ofUser(realmId: string, userId: string): Promise<OrganizationMemberRecord[]> {
    return this.members.find({ realmId, userId }, { limit: 1000 });
  }

  /** Grants or revokes one role (atomic per element: $addToSet / $pull); false when not a member. */
  async changeRole(realmId: string, organizationId: string, userId: string, role: string, grant: boolean): Promise<boolean> {
    const filter = { _id: OrganizationMemberRepository.idOf(organizationId, userId), realmId };
    return (await this.members.update(filter, grant ? { $addToSet: { roles: role } } : { $pull: { roles: role } })) > 0;
  }

  /** Revokes a deleted role from every member of the organization. */
  pullRole(realmId: string, organizationId: string, role: string): Promise<number> {
    return this.members.update({ realmId, organizationId }, { $pull: { roles: role } });
  }

  /** Follows a username change into the user's memberships. */
  renameMember(realmId: string, userId: string, usernameKey: string): Promise<number> {
    return this.members.update({ realmId, userId }, { $set: { usernameKey } });
  }

  deleteOrganization(realmId: string, organizationId: string): Promise<number> {
    return this.members.deleteMany({ realmId, organizationId });
  }

  deleteUser(realmId: string, userId: string): Promise<number> {
    return this.members.deleteMany({ realmId, userId });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.members.deleteMany({ realmId });
  }
}
