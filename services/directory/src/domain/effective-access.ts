import type { GroupRecord } from "./group.js";
import type { RoleRecord } from "./role.js";
import type { GroupRepository } from "../store/group-repository.js";
import type { MembershipReader } from "../store/membership-reader.js";
import type { RoleMappingRepository } from "../store/role-mapping-repository.js";
import type { RoleRepository } from "../store/role-repository.js";
import { withComposites } from "./role-composites.js";

/** Deeper than any real group tree; a bound on a corrupt parent chain. */
const MAX_GROUP_DEPTH = 64;

/** A group a user is in: directly, or as an ancestor of one of the user's groups. */
export interface HeldGroup {
  group: GroupRecord;
  direct: boolean;
}

/**
 * What a user holds, as tokens, flow conditions and the Admin API's effective role mappings all
 * read it (Keycloak's effective roles): the user's groups with their ancestors (a member of a
 * subgroup is in the group), and the roles mapped to the user or any of those groups, with what
 * the composites among them contain.
 */
export class EffectiveAccess {
  constructor(
    private readonly groups: GroupRepository,
    private readonly memberships: MembershipReader,
    private readonly mappings: RoleMappingRepository,
    private readonly roles: RoleRepository,
  ) {}

  async groupsOf(realmId: string, userId: string): Promise<HeldGroup[]> {
    const out = new Map<string, HeldGroup>();
    for (const id of await this.memberships.groupIdsOf(realmId, userId)) {
      let group = await this.groups.findById(realmId, id);
      let direct = true;
      for (let depth = 0; group && depth < MAX_GROUP_DEPTH; depth++) {
        const seen = out.get(group._id);
        if (seen) {
          seen.direct ||= direct;
          if (!direct) break;
        } else out.set(group._id, { group, direct });
        direct = false;
        group = group.parentId ? await this.groups.findById(realmId, group.parentId) : null;
      }
    }
    return [...out.values()];
  }

  /** A group and its ancestors, nearest first. */
  async groupWithAncestors(realmId: string, groupId: string): Promise<GroupRecord[]> {
    const out: GroupRecord[] = [];
    let group = await this.groups.findById(realmId, groupId);
    for (let depth = 0; group && depth < MAX_GROUP_DEPTH && !out.some((g) => g._id === group!._id); depth++) {
      out.push(group);
      group = group.parentId ? await this.groups.findById(realmId, group.parentId) : null;
    }
    return out;
  }

  /** Roles mapped to the user (when `userId` is set) or to `groupIds`, composites expanded. */
  async rolesOf(realmId: string, userId: string, groupIds: string[]): Promise<RoleRecord[]> {
    const maps = [
      ...(userId ? await this.mappings.ofHolders(realmId, "user", [userId]) : []),
      ...(await this.mappings.ofHolders(realmId, "group", groupIds)),
    ];
    return withComposites(this.roles, realmId, await this.roles.findByIds(realmId, [...new Set(maps.map((m) => m.roleId))]));
  }
}
