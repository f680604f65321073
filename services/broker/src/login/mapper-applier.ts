import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import type { JsonObject } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { UserService, type User } from "../../../../gen/iam/directory/v1/user_pb.js";
import { HolderType, RoleService } from "../../../../gen/iam/directory/v1/role_pb.js";
import { GroupService, type Group } from "../../../../gen/iam/directory/v1/group_pb.js";
import type { IdentityProviderRecord } from "../domain/identity-provider.js";
import type { RealmRef } from "../domain/realm-ref.js";
import { planMappers, preprocess, type MapperPlan, type Preprocessed } from "../domain/mapper-plan.js";
import type { MapperRepository } from "../store/mapper-repository.js";

/**
 * Runs a provider's mappers at a brokered login (mapper-plan.ts decides, this applies through
 * the directory's RPCs, which own users, roles and groups). A role or group a mapper names that
 * does not exist is skipped with a warning, as Keycloak's HardcodedRoleMapper does ("Unable to
 * find role"); its ClaimToRoleMapper fails the login instead, but a stale mapper should not lock
 * every brokered user out.
 */
export class MapperApplier {
  private readonly users: Client<typeof UserService>;
  private readonly roles: Client<typeof RoleService>;
  private readonly groups: Client<typeof GroupService>;

  constructor(private readonly mappers: MapperRepository, directory: Transport, private readonly logger: Logger) {
    this.users = createClient(UserService, directory);
    this.roles = createClient(RoleService, directory);
    this.groups = createClient(GroupService, directory);
  }

  /** Before the first login creates the user: the username template and the user fields. */
  async preprocess(realm: RealmRef, p: IdentityProviderRecord, claims: Record<string, unknown>): Promise<Preprocessed> {
    return preprocess(await this.mappers.listByProvider(realm.id, p.alias), p, claims);
  }

  /** After the login resolved the user: `created` when this login created it (importNewUser). */
  async apply(realm: RealmRef, p: IdentityProviderRecord, userId: string, claims: Record<string, unknown>, created: boolean): Promise<void> {
    const mappers = await this.mappers.listByProvider(realm.id, p.alias);
    if (!mappers.length) return;
    const plan = planMappers(mappers, p, claims, created);
    await this.applyUser(realm, userId, plan);
    for (const role of dedupe(plan.grantRoles)) await this.role(realm, userId, role, true);
    for (const role of dedupe(plan.removeRoles)) if (!plan.grantRoles.includes(role)) await this.role(realm, userId, role, false);
    if (plan.joinGroups.length) await this.joinGroups(realm, userId, dedupe(plan.joinGroups));
  }

  private async applyUser(realm: RealmRef, userId: string, plan: MapperPlan): Promise<void> {
    if (!Object.keys(plan.attributes).length && !Object.keys(plan.fields).length) return;
    const user = (await this.users.getUser({ realm: realm.name, userId })).user as User;
    const current = (user.attributes ?? {}) as JsonObject;
    const attributes: JsonObject = { ...current };
    for (const [name, values] of Object.entries(plan.attributes)) {
      // Within the directory's bounds (user-rules.ts), so a long upstream claim cannot fail the login.
      if (values.length) attributes[name] = values.slice(0, MAX_VALUES).map((v) => v.slice(0, MAX_VALUE_LENGTH));
      else delete attributes[name];
    }
    const update: { firstName?: string; lastName?: string; email?: string; attributes?: JsonObject } = {};
    if (JSON.stringify(attributes) !== JSON.stringify(current)) update.attributes = attributes;
    for (const [k, v] of Object.entries(plan.fields) as Array<[keyof typeof plan.fields, string]>) {
      if (v !== user[k]) update[k] = v.slice(0, 255);
    }
    if (!Object.keys(update).length) return;
    try {
      await this.users.updateUser({ realm: realm.name, userId, update });
    } catch (e) {
      // Another local user holds the mapped email: the rest is still written, as the profile sync does.
      if (ConnectError.from(e).code !== Code.AlreadyExists || update.email === undefined) throw e;
      this.logger.warn({ realm: realm.name, userId }, "mapped email is taken by another user; mappers applied without it");
      delete update.email;
      if (Object.keys(update).length) await this.users.updateUser({ realm: realm.name, userId, update });
    }
  }

  /**
   * Keycloak's KeycloakModelUtils.getRoleFromString: "clientId.role" names a client role when a
   * client of that clientId has it (each '.' tried in turn), else the whole string a realm role.
   */
  private async role(realm: RealmRef, userId: string, name: string, grant: boolean): Promise<void> {
    const ref = await this.findRole(realm, name);
    if (!ref) {
      this.logger.warn({ realm: realm.name, role: name }, "identity provider mapper names an unknown role; skipped");
      return;
    }
    const req = { realm: realm.name, holderType: HolderType.USER, holderId: userId, clientId: ref.clientId, roleNames: [ref.role] };
    if (grant) await this.roles.assignRoleMappings(req);
    else await this.roles.removeRoleMappings(req);
  }

  private async findRole(realm: RealmRef, name: string): Promise<{ clientId: string; role: string } | null> {
    for (let i = name.indexOf("."); i > 0; i = name.indexOf(".", i + 1)) {
      const candidate = { clientId: name.slice(0, i), role: name.slice(i + 1) };
      if (await this.exists(realm, candidate)) return candidate;
    }
    const realmRole = { clientId: "", role: name };
    return (await this.exists(realm, realmRole)) ? realmRole : null;
  }

  private async exists(realm: RealmRef, r: { clientId: string; role: string }): Promise<boolean> {
    try {
      await this.roles.getRole({ realm: realm.name, clientId: r.clientId, name: r.role });
      return true;
    } catch (e) {
      if (ConnectError.from(e).code === Code.NotFound) return false;
      throw e;
    }
  }

  /** Keycloak's HardcodedGroupMapper: the group by its path ("/parent/child"); joining twice is a no-op. */
  private async joinGroups(realm: RealmRef, userId: string, paths: string[]): Promise<void> {
    const byPath = new Map<string, string>();
    const walk = (gs: Group[]) => gs.forEach((g) => { byPath.set(g.path, g.id); walk(g.subGroups); });
    walk((await this.groups.listGroups({ realm: realm.name })).groups);
    for (const path of paths) {
      const groupId = byPath.get(path);
      if (!groupId) {
        this.logger.warn({ realm: realm.name, group: path }, "identity provider mapper names an unknown group; skipped");
        continue;
      }
      try {
        await this.groups.addUserToGroup({ realm: realm.name, userId, groupId });
      } catch (e) {
        if (ConnectError.from(e).code !== Code.AlreadyExists) throw e;
      }
    }
  }
}

const MAX_VALUES = 100;
const MAX_VALUE_LENGTH = 2048;

function dedupe(xs: string[]): string[] {
  return [...new Set(xs.filter(Boolean))];
}
