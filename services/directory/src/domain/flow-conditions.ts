import type { FlowCondition } from "../../../kit/src/authentication-flows/flow-model.js";
import type { RealmRecord } from "./realm.js";
import type { GroupRecord } from "./group.js";
import type { UserRepository } from "../store/user-repository.js";
import type { ClientRepository } from "../store/client-repository.js";
import type { EffectiveAccess, HeldGroup } from "./effective-access.js";
import { inheritedGroupAttributes, resolveAttribute } from "./inherited-attributes.js";


/**
 * The conditions of authentication flows, as the directory (which owns users, roles and groups)
 * decides them for the user logging in:
 * - condition-user-role: the user holds the role directly or through a group or its ancestors
 *   (`config.role`, a realm role; with `config.clientId`, that client's role);
 * - condition-user-group: the user is a member of the group (`config.group`, a path like `/a/b`
 *   or a top-level name) or of one of its subgroups;
 * - condition-user-attribute: one of the attribute's values equals `config.value`; with
 *   `config.includeGroupAttributes`, the values the user's groups and their ancestors hold too
 *   (Keycloak's "Include group attributes", resolveAttribute with aggregation);
 * - condition-client: the login is for the client `config.clientId`.
 * `negate` is applied by the interpreter (flow-plan.ts), not here. An unknown user holds nothing.
 */
export class FlowConditions {
  constructor(
    private readonly users: UserRepository,
    private readonly access: EffectiveAccess,
    private readonly clients: ClientRepository,
  ) {}

  async evaluate(realm: RealmRecord, userId: string, clientId: string, conditions: FlowCondition[]): Promise<boolean[]> {
    const user = userId ? await this.users.findById(realm._id, userId) : null;
    let held: HeldGroup[] | undefined;
    let roleKeys: Set<string> | undefined;
    const heldGroups = async () => (held ??= user ? await this.access.groupsOf(realm._id, user._id) : []);
    const groupsOf = async (): Promise<GroupRecord[]> => (await heldGroups()).map((g) => g.group);
    const out: boolean[] = [];
    for (const c of conditions) {
      const config = c.config ?? {};
      if (c.type === "condition-client") out.push(clientId !== "" && clientId === config.clientId);
      else if (!user) out.push(false);
      else if (c.type === "condition-user-attribute") {
        const subject = { attributes: user.attributes ?? {}, ...(config.includeGroupAttributes === "true" ? { groupAttributes: inheritedGroupAttributes(await heldGroups()) } : {}) };
        out.push(resolveAttribute(subject, config.attribute ?? "", true).includes(config.value ?? ""));
      }
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

  /** `<clientId>\0<role>` for each effective role ("" as clientId for realm roles). */
  private async roleKeys(realm: RealmRecord, userId: string, groupIds: string[]): Promise<Set<string>> {
    const roles = await this.access.rolesOf(realm._id, userId, groupIds);
    const clients = await this.clients.findByIds(realm._id, [...new Set(roles.map((r) => r.clientId).filter(Boolean))]);
    const clientIdOf = new Map(clients.map((c) => [c._id, c.clientId]));
    return new Set(roles.map((r) => `${r.clientId ? clientIdOf.get(r.clientId) ?? "" : ""}\u0000${r.name}`));
  }
}
