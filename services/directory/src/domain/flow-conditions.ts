import type { FlowCondition } from "../../../kit/src/authentication-flows/flow-model.js";
import type { RealmRecord } from "./realm.js";
import type { GroupRecord } from "./group.js";
import type { UserRepository } from "../store/user-repository.js";
import type { GroupRepository } from "../store/group-repository.js";
import type { MembershipReader } from "../store/membership-reader.js";
import type { RoleMappingRepository } from "../store/role-mapping-repository.js";
import type { RoleRepository } from "../store/role-repository.js";
import type { ClientRepository } from "../store/client-repository.js";
import { withComposites } from "./role-composites.js";

const MAX_GROUP_DEPTH = 64;

/**
 * The conditions of authentication flows, as the directory (which owns users, roles and groups)
 * decides them for the user logging in:
 * - condition-user-role: the user holds the role directly or through a group or its ancestors
 *   (`config.role`, a realm role; with `config.clientId`, that client's role);
 * - condition-user-group: the user is a member of the group (`config.group`, a path like `/a/b`
 *   or a top-level name) or of one of its subgroups;
 * - condition-user-attribute: one of the attribute's values equals `config.value`;
 * - condition-client: the login is for the client `config.clientId`.
 * `negate` is applied by the interpreter (flow-plan.ts), not here. An unknown user holds nothing.
 */
export class FlowConditions {
  constructor(
    private readonly users: UserRepository,
    private readonly groups: GroupRepository,
    private readonly memberships: MembershipReader,
    private readonly mappings: RoleMappingRepository,
    private readonly roles: RoleRepository,
    private readonly clients: ClientRepository,
  ) {}

  async evaluate(realm: RealmRecord, userId: string, clientId: string, conditions: FlowCondition[]): Promise<boolean[]> {
    const user = userId ? await this.users.findById(realm._id, userId) : null;
    let groups: GroupRecord[] | undefined;
    let roleKeys: Set<string> | undefined;
    const groupsOf = async () => (groups ??= user ? await this.groupsWithAncestors(realm, user._id) : []);
    const out: boolean[] = [];
    for (const c of conditions) {
      const config = c.config ?? {};
      if (c.type === "condition-client") out.push(clientId !== "" && clientId === config.clientId);
      else if (!user) out.push(false);
      else if (c.type === "condition-user-attribute") out.push((user.attributes?.[config.attribute ?? ""] ?? []).includes(config.value ?? ""));
      else if (c.type === "condition-user-group") {
        const wanted = config.group ?? "";
        out.push((await groupsOf()).some((g) => g.path === wanted || (!wanted.startsWith("/") && g.path === `/${wanted}`)));
      } else if (c.type === "condition-user-role") {
        roleKeys ??= await this.roleKeys(realm, user._id, (await groupsOf()).map((g) => g._id));
        out.push(roleKeys.has(`${config.clientId ?? ""}\u0000${config.role ?? ""}`));
      } else out.push(false);
    }
    return out;
  }

  /** The user's groups and every ancestor of them: a member of a subgroup is in the group. */
  private async groupsWithAncestors(realm: RealmRecord, userId: string): Promise<GroupRecord[]> {
    const out = new Map<string, GroupRecord>();
    for (const id of await this.memberships.groupIdsOf(realm._id, userId)) {
      let group = await this.groups.findById(realm._id, id);
      for (let depth = 0; group && depth < MAX_GROUP_DEPTH && !out.has(group._id); depth++) {
        out.set(group._id, group);
        group = group.parentId ? await this.groups.findById(realm._id, group.parentId) : null;
      }
    }
    return [...out.values()];
  }

  /** `<clientId>\0<role>` for each effective role ("" as clientId for realm roles). */
  private async roleKeys(realm: RealmRecord, userId: string, groupIds: string[]): Promise<Set<string>> {
    const maps = [
      ...(await this.mappings.ofHolders(realm._id, "user", [userId])),
      ...(await this.mappings.ofHolders(realm._id, "group", groupIds)),
    ];
    // Held directly or through groups, then what composites among them contain (Keycloak's effective roles).
    const roles = await withComposites(this.roles, realm._id, await this.roles.findByIds(realm._id, [...new Set(maps.map((m) => m.roleId))]));
    const clients = await this.clients.findByIds(realm._id, [...new Set(roles.map((r) => r.clientId).filter(Boolean))]);
    const clientIdOf = new Map(clients.map((c) => [c._id, c.clientId]));
    return new Set(roles.map((r) => `${r.clientId ? clientIdOf.get(r.clientId) ?? "" : ""}\u0000${r.name}`));
  }
}
