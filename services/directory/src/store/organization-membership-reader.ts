import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";
import type { OrganizationRecord } from "../domain/organization.js";

interface MemberDoc extends Doc {
  realmId: string;
  organizationId: string;
  userId: string;
  roles?: string[];
}

/**
 * Read-only view of a user's organizations for claim resolution (their owner,
 * OrganizationRepository and OrganizationMemberRepository, declares the indexes).
 */
export class OrganizationMembershipReader {
  private constructor(private readonly members: Collection<MemberDoc>, private readonly organizations: Collection<OrganizationRecord>) {}

  static async open(store: Store): Promise<OrganizationMembershipReader> {
    return new OrganizationMembershipReader(
      await store.collection<MemberDoc>({ name: "organization_members" }),
      await store.collection<OrganizationRecord>({ name: "organizations" }),
    );
  }

  /** The enabled organizations the user is a member of, with the organization roles granted. */
  async organizationsOf(realmId: string, userId: string): Promise<Array<{ organization: OrganizationRecord; roles: string[] }>> {
    const members = await this.members.find({ realmId, userId }, { limit: 1000 });
    if (!members.length) return [];
    const roles = new Map(members.map((m) => [m.organizationId, [...(m.roles ?? [])].sort()]));
    const orgs = await this.organizations.find({ realmId, _id: { $in: [...roles.keys()] }, enabled: true });
    return orgs.map((organization) => ({ organization, roles: roles.get(organization._id) ?? [] }));
  }
}
