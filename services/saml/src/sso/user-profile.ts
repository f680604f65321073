import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { UserService } from "../../../../gen/iam/directory/v1/user_pb.js";
import { GroupService } from "../../../../gen/iam/directory/v1/group_pb.js";
import { HolderType, RoleService } from "../../../../gen/iam/directory/v1/role_pb.js";

/** The user data an assertion can carry (spec 2.11 attributeStatements sources). */
export interface SamlUser {
  id: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  enabled: boolean;
}

export interface RealmEventSettings {
  id: string;
  name: string;
  eventsEnabled: boolean;
  eventsExpiration: number;
}

/**
 * Reads what SSO needs from the directory (the owner of realms, users, groups and roles,
 * DESIGN 3) through its generated clients.
 */
export class DirectoryReader {
  private readonly realms: Client<typeof RealmService>;
  private readonly users: Client<typeof UserService>;
  private readonly groups: Client<typeof GroupService>;
  private readonly roles: Client<typeof RoleService>;

  constructor(directory: Transport) {
    this.realms = createClient(RealmService, directory);
    this.users = createClient(UserService, directory);
    this.groups = createClient(GroupService, directory);
    this.roles = createClient(RoleService, directory);
  }

  async realm(name: string): Promise<RealmEventSettings> {
    // Read per SSO/SLO request and kept nowhere: the directory's realm cache may answer.
    const { realm } = await this.realms.getRealm({ name, allowCached: true });
    if (!realm) throw new Error(`directory returned no realm for "${name}"`);
    return { id: realm.id, name: realm.name, eventsEnabled: realm.eventsEnabled, eventsExpiration: realm.eventsExpiration };
  }

  async user(realm: string, userId: string): Promise<SamlUser> {
    const { user } = await this.users.getUser({ realm, userId });
    if (!user) throw new Error(`directory returned no user "${userId}"`);
    return { id: user.id, username: user.username, email: user.email, firstName: user.firstName, lastName: user.lastName, enabled: user.enabled };
  }

  /** Paths of the groups the user is a direct member of ("/parent/child"), sorted. */
  async groupPaths(realm: string, userId: string): Promise<string[]> {
    const { groups } = await this.groups.listUserGroups({ realm, userId });
    return groups.map((g) => g.path).sort();
  }

  /**
   * The user's role names: realm roles by name, client roles as "<clientId>/<role>", mapped to
   * the user directly or to one of its groups or their ancestors. (Composite roles are not
   * expanded: the directory exposes no effective-roles RPC for a non-OIDC client.)
   */
  async roleNames(realm: string, userId: string): Promise<string[]> {
    const names = new Set<string>();
    const add = (roles: { name: string; clientId: string }[]) => {
      for (const r of roles) names.add(r.clientId ? `${r.clientId}/${r.name}` : r.name);
    };
    add((await this.roles.listRoleMappings({ realm, holderType: HolderType.USER, holderId: userId, clientId: "" })).roles);
    const { groups } = await this.groups.listUserGroups({ realm, userId });
    const seen = new Set<string>();
    const queue = groups.map((g) => ({ id: g.id, parentId: g.parentId }));
    while (queue.length) {
      const g = queue.shift()!;
      if (seen.has(g.id)) continue;
      seen.add(g.id);
      add((await this.roles.listRoleMappings({ realm, holderType: HolderType.GROUP, holderId: g.id, clientId: "" })).roles);
      if (g.parentId && !seen.has(g.parentId)) {
        const parent = (await this.groups.getGroup({ realm, groupId: g.parentId })).group;
        if (parent) queue.push({ id: parent.id, parentId: parent.parentId });
      }
    }
    return [...names].sort();
  }
}
