import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";
import type { OrganizationRecord } from "../domain/organization.js";

interface MemberDoc extends Doc {
  realmId: string;
  organizationId: string;
  userId: string;
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

  /** The enabled organizations the user is a member of. */
  async organizationsOf(realmId: string, userId: string): Promise<OrganizationRecord[]> {
    const ids = (await this.members.find({ realmId, userId }, { limit: 1000 })).map((m) => m.organizationId);
    if (!ids.length) return [];
    return this.organizations.find({ realmId, _id: { $in: ids }, enabled: true });
  }
}
