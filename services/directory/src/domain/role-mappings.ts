import { IamError } from "../../../kit/src/errors.js";
import type { HolderType, RoleRecord } from "./role.js";
import type { RealmRecord } from "./realm.js";
import type { RoleAdmin, RoleWithClient } from "./role-admin.js";
import type { RoleRepository } from "../store/role-repository.js";
import type { RoleMappingRepository } from "../store/role-mapping-repository.js";
import type { ClientRepository } from "../store/client-repository.js";
import type { UserRepository } from "../store/user-repository.js";
import type { GroupRepository } from "../store/group-repository.js";
import type { UserEvents } from "../events/user-events.js";
import type { Outbox, OutboxKind } from "../../../kit/src/bus/outbox.js";
import type { UserRecord } from "./user.js";
import { auditedWrite } from "./audited-write.js";
import type { StagedEvents } from "../../../kit/src/events/audited-write.js";
import type { AuditedEvent } from "../../../kit/src/events/audited-write.js";
import type { EffectiveAccess } from "./effective-access.js";
import { OFFLINE_ACCESS_ROLE } from "./role.js";

export interface MappingTarget {
  realmName: string;
  holderType: HolderType;
  holderId: string;
  /** The client (slug) whose roles are meant; "" for realm roles. */
  clientId: string;
}

/** What the outbox keeps of a role mapping write until its admin event is out. */
interface RoleMappingsSnapshot {
  realmId: string;
  holderType: HolderType;
  holderId: string;
  roleIds: string[];
  /** Assigned (every mapping there) or removed (none left). */
  present: boolean;
}

/**
 * Role mappings of users (spec 4.5) and groups (spec 4.6). Assignment and removal are all or
 * nothing: every name must exist first, else a 400 names the unknown ones and nothing changes.
 * Both are idempotent. Each is a grant or withdrawal of access, so its admin event is staged with
 * it (auditedWrite): a crash cannot keep the change and lose the record.
 */
export class RoleMappings {
  private readonly kind: OutboxKind<RoleMappingsSnapshot> = {
    name: "directory.role-mappings",
    applied: async (s) => {
      const held = new Set((await this.mappings.ofHolders(s.realmId, s.holderType, [s.holderId])).map((m) => m.roleId));
      return s.roleIds.every((id) => held.has(id) === s.present);
    },
  };

  constructor(
    private readonly roles: RoleRepository,
    private readonly mappings: RoleMappingRepository,
    private readonly clients: ClientRepository,
    private readonly users: UserRepository,
    private readonly groups: GroupRepository,
    private readonly roleAdmin: RoleAdmin,
    private readonly userEvents: UserEvents,
    private readonly outbox: Outbox,
    private readonly access: EffectiveAccess,
  ) {
    outbox.register(this.kind);
  }

  async list(t: MappingTarget, allClients = false): Promise<RoleWithClient[]> {
    const { realm, clientRecordId } = await this.resolve(t);
    const found = await this.mappings.ofHolders(realm._id, t.holderType, [t.holderId], allClients ? undefined : clientRecordId);
    const roles = await this.roles.findByIds(realm._id, found.map((m) => m.roleId));
    return this.withClients(realm, roles);
  }

  /**
   * The roles the holder effectively has (Keycloak's effective role mappings): a user's own and its
   * groups' (with their ancestors), a group's own and its ancestors', with what composites among
   * them contain; a user's include the realm's offline_access, which every user holds (its tokens
   * carry it). Users: the realm's roles or, with a client, that client's; groups: all.
   */
  async effective(t: MappingTarget, allClients = false): Promise<RoleWithClient[]> {
    const { realm, clientRecordId } = await this.resolve(t);
    const groupIds = t.holderType === "user"
      ? (await this.access.groupsOf(realm._id, t.holderId)).map((g) => g.group._id)
      : (await this.access.groupWithAncestors(realm._id, t.holderId)).map((g) => g._id);
    const held = await this.access.rolesOf(realm._id, t.holderType === "user" ? t.holderId : "", groupIds);
    if (t.holderType === "user" && clientRecordId === "") {
      const offline = await this.roles.findByName(realm._id, "", OFFLINE_ACCESS_ROLE);
      if (offline && !held.some((r) => r._id === offline._id)) held.push(offline);
    }
    const roles = held.filter((r) => allClients || r.clientId === clientRecordId).sort((a, b) => a.name.localeCompare(b.name));
    return this.withClients(realm, roles);
  }

  async assign(t: MappingTarget, names: string[]): Promise<string[]> {
    const { realm, clientRecordId, roles, unique, user } = await this.resolveRoles(t, names);
    await auditedWrite(this.outbox, this.kind, realm, this.snapshot(realm, t, roles, true), this.event(t, "CREATE", clientRecordId, roles), async () => {
      for (const role of roles) {
        await this.mappings.add({ realmId: realm._id, holderType: t.holderType, holderId: t.holderId, roleId: role._id, clientId: clientRecordId });
      }
      return true;
    }, this.changed(realm, user));
    return unique;
  }

  async remove(t: MappingTarget, names: string[]): Promise<string[]> {
    const { realm, clientRecordId, roles, unique, user } = await this.resolveRoles(t, names);
    await auditedWrite(this.outbox, this.kind, realm, this.snapshot(realm, t, roles, false), this.event(t, "DELETE", clientRecordId, roles), async () => {
      await this.mappings.remove(realm._id, t.holderType, t.holderId, roles.map((r) => r._id));
      return true;
    }, this.changed(realm, user));
    return unique;
  }

  /** The realm, the client's record id ("" for realm roles) and the holder when it is a user (null for a group). */
  private async resolve(t: MappingTarget): Promise<{ realm: RealmRecord; clientRecordId: string; user: UserRecord | null }> {
    const { realm, client } = await this.roleAdmin.container(t.realmName, t.clientId);
    const holder = t.holderType === "user"
      ? await this.users.findById(realm._id, t.holderId)
      : await this.groups.findById(realm._id, t.holderId);
    if (!holder) throw IamError.notFound(`${t.holderType} "${t.holderId}"`, `${t.holderType}_not_found`);
    return { realm, clientRecordId: client?._id ?? "", user: t.holderType === "user" ? holder as UserRecord : null };
  }

  private async resolveRoles(t: MappingTarget, names: string[]) {
    if (!names.length) throw IamError.invalid("roleNames", "roleNames is required and must not be empty");
    const unique = [...new Set(names)];
    const resolved = await this.resolve(t);
    const roles = await this.roles.findByNames(resolved.realm._id, resolved.clientRecordId, unique);
    const missing = unique.filter((n) => !roles.some((r) => r.name === n));
    if (missing.length) throw IamError.invalid("roleNames", `unknown roles: ${missing.join(", ")}`, "unknown_roles");
    return { ...resolved, roles, unique };
  }

  private async withClients(realm: RealmRecord, roles: RoleRecord[]): Promise<RoleWithClient[]> {
    const clients = await this.clients.findByIds(realm._id, [...new Set(roles.map((r) => r.clientId).filter(Boolean))]);
    const slug = new Map(clients.map((c) => [c._id, c.clientId]));
    return roles.map((role) => ({ role, clientSlug: slug.get(role.clientId) ?? "" }));
  }

  /** A service account's or a group's roles change: its cached client_credentials grants drop, staged with the write. */
  private changed(realm: RealmRecord, user: UserRecord | null): StagedEvents | undefined {
    return user ? this.userEvents.serviceAccountChange(realm, user) : this.userEvents.groupChange(realm);
  }

  private snapshot(realm: RealmRecord, t: MappingTarget, roles: RoleRecord[], present: boolean): RoleMappingsSnapshot {
    return { realmId: realm._id, holderType: t.holderType, holderId: t.holderId, roleIds: roles.map((r) => r._id), present };
  }

  private event(t: MappingTarget, op: "CREATE" | "DELETE", clientRecordId: string, roles: RoleRecord[]): AuditedEvent {
    const base = `${t.holderType === "user" ? "users" : "groups"}/${t.holderId}/role-mappings`;
    // Removal events carry the removed roles too (Keycloak does), since they say what changed.
    return {
      operationType: op, resourceType: clientRecordId ? "CLIENT_ROLE_MAPPING" : "REALM_ROLE_MAPPING",
      path: clientRecordId ? `${base}/clients/${clientRecordId}` : `${base}/realm`,
      representation: roles.map((r) => ({ id: r._id, name: r.name })),
    };
  }
}
