import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { checkLength } from "../../../kit/src/validation/checks.js";
import type { JsonValue } from "@bufbuild/protobuf";
import { checkAttributes } from "./user-rules.js";
import type { RealmRecord } from "./realm.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { GroupRecord } from "./group.js";
import { groupTree, groupView, type GroupView } from "./group-view.js";
import { attributeMatcher, groupPage, nameMatcher, withHierarchy, type GroupQuery } from "./group-query.js";
import { repairGroupMemberOrder } from "./member-order-backfill.js";
import type { UserRecord } from "./user.js";
import type { GroupRepository } from "../store/group-repository.js";
import type { MembershipRepository } from "../store/membership-repository.js";
import type { RoleMappingReader } from "../store/role-mapping-reader.js";
import type { UserRepository } from "../store/user-repository.js";
import type { UserEvents } from "../events/user-events.js";
import type { Outbox, OutboxKind } from "../../../kit/src/bus/outbox.js";
import { auditedWrite } from "./audited-write.js";
import { expectFields, recordWriteKind } from "../../../kit/src/events/audited-write.js";

export const DEFAULT_MEMBERS_MAX = 100;
export const MAX_MEMBERS_MAX = 1000;

export interface GroupInput {
  name?: string;
  description?: string;
  parentId?: string;
  /** Keycloak's group attributes (the user attributes' rules); an update's replaces the whole set. */
  attributes?: JsonValue;
}

function checkGroupName(value: string | undefined): string {
  if (value === undefined) throw IamError.invalid("name", "name is required");
  const v = checkLength("name", value.trim(), 1, 255);
  // "/" separates path segments (spec 2.5 hierarchy); it cannot be part of a name.
  if (v.includes("/")) throw IamError.invalid("name", "name must not contain '/'");
  return v;
}

/** A group's own fields, as an update leaves them. */
const groupFields = (g: GroupRecord) => ({ name: g.name, description: g.description, path: g.path, attributes: g.attributes ?? {}, updatedAt: g.updatedAt });

/** What the outbox keeps of a membership write until its admin event is out. */
interface MembershipSnapshot {
  realmId: string;
  groupId: string;
  userId: string;
  present: boolean;
}

/** Groups and memberships (spec 2.5, 4.6). */
export class GroupAdmin {
  /** A group created, changed or deleted, as the relay finds it (its own fields; the subtree's paths follow). */
  private readonly groupKind = recordWriteKind("directory.group", (realmId, id) => this.repo.findById(realmId, id), groupFields);
  /** A membership added (`present`) or removed, as the relay finds it. */
  private readonly membershipKind: OutboxKind<MembershipSnapshot> = {
    name: "directory.group-membership",
    applied: async (s) => (await this.memberships.has(s.realmId, s.groupId, s.userId)) === s.present,
  };

  constructor(
    private readonly realms: RealmLookup,
    private readonly repo: GroupRepository,
    private readonly memberships: MembershipRepository,
    private readonly users: UserRepository,
    private readonly roleMappings: RoleMappingReader,
    private readonly events: UserEvents,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.groupKind);
    outbox.register(this.membershipKind);
  }

  async create(realmName: string, input: GroupInput): Promise<GroupView> {
    const realm = await this.realms.byName(realmName);
    const name = checkGroupName(input.name);
    const description = checkLength("description", input.description ?? "", 0, 1024);
    const attributes = checkAttributes(input.attributes);
    let parentPath = "";
    if (input.parentId) {
      const parent = await this.repo.findById(realm._id, input.parentId);
      if (!parent) throw IamError.notFound(`parent group "${input.parentId}"`, "group_not_found");
      parentPath = parent.path;
    }
    const now = this.clock.now();
    const group: GroupRecord = {
      _id: randomUUID(), realmId: realm._id, name, description, parentId: input.parentId ?? "",
      path: `${parentPath}/${name}`, attributes, createdAt: now, updatedAt: now,
    };
    const view = groupView(group);
    await auditedWrite(this.outbox, this.groupKind, realm, { realmId: realm._id, id: group._id, expect: "present" },
      { operationType: "CREATE", resourceType: "GROUP", path: `groups/${group._id}`, representation: view }, async () => {
        try {
          await this.repo.insert(group);
        } catch (e) {
          throw this.siblingConflict(e, name);
        }
        return true;
      });
    return view;
  }

  /** The tree, a page of it, or a search's hierarchy (group-query.ts; Keycloak's GET /groups). */
  async list(realmName: string, query: GroupQuery = {}): Promise<GroupView[]> {
    const realm = await this.realms.byName(realmName);
    const { first, max, search, exact = false, q } = query;
    if (search !== undefined && q !== undefined) throw IamError.invalid("q", "search and q cannot be combined");
    const { skip, limit } = groupPage(first, max);
    if (search === undefined && q === undefined) {
      if (first === undefined && max === undefined) return groupTree(await this.repo.listRealm(realm._id), "");
      return this.withSubtrees(realm, await this.repo.childrenPage(realm._id, "", skip, limit));
    }
    const matches = search !== undefined ? nameMatcher(search, exact) : attributeMatcher(q!);
    return groupTree(withHierarchy(await this.repo.listRealm(realm._id), matches), "").slice(skip, skip + limit);
  }

  /** Keycloak's GET /groups/count: every group, the top-level ones, or those whose name contains `search`. */
  async count(realmName: string, search: string | undefined, topLevel: boolean): Promise<number> {
    const realm = await this.realms.byName(realmName);
    if (search === undefined) return this.repo.count(realm._id, topLevel);
    const matches = nameMatcher(search, false);
    return (await this.repo.listRealm(realm._id)).filter((g) => matches(g) && (!topLevel || g.parentId === "")).length;
  }

  /** Keycloak's GET /groups/{id}/children: a page of the direct subgroups by name, each with its subtree. */
  async children(realmName: string, groupId: string, query: Omit<GroupQuery, "q"> = {}): Promise<GroupView[]> {
    const realm = await this.realms.byName(realmName);
    const { skip, limit } = groupPage(query.first, query.max);
    const parent = await this.find(realm, groupId);
    if (query.search === undefined) return this.withSubtrees(realm, await this.repo.childrenPage(realm._id, parent._id, skip, limit));
    const matches = nameMatcher(query.search, query.exact ?? false);
    return this.withSubtrees(realm, (await this.repo.children(realm._id, parent._id)).filter(matches).slice(skip, skip + limit));
  }

  private async withSubtrees(realm: RealmRecord, groups: GroupRecord[]): Promise<GroupView[]> {
    return Promise.all(groups.map(async (g) => groupView(g, groupTree(await this.repo.descendants(realm._id, g.path), g._id))));
  }

  async get(realmName: string, groupId: string): Promise<GroupView> {
    const realm = await this.realms.byName(realmName);
    const group = await this.find(realm, groupId);
    const [descendants, memberCount, roleCount] = await Promise.all([
      this.repo.descendants(realm._id, group.path),
      this.memberships.countMembers(realm._id, groupId),
      this.roleMappings.countForGroup(realm._id, groupId),
    ]);
    return { ...groupView(group, groupTree(descendants, groupId)), memberCount, roleCount };
  }

  /** Renames move the subtree: every descendant's path is rewritten (spec 2.5 hierarchy). */
  async update(realmName: string, groupId: string, input: Omit<GroupInput, "parentId">): Promise<GroupView> {
    const realm = await this.realms.byName(realmName);
    const current = await this.find(realm, groupId);
    const set: Partial<GroupRecord> = { updatedAt: this.clock.now() };
    if (input.description !== undefined) set.description = checkLength("description", input.description, 0, 1024);
    if (input.attributes !== undefined && input.attributes !== null) set.attributes = checkAttributes(input.attributes);
    if (input.name !== undefined) {
      set.name = checkGroupName(input.name);
      set.path = `${current.path.slice(0, current.path.length - current.name.length)}${set.name}`;
    }
    const moved = set.path !== undefined && set.path !== current.path;
    const after = { ...current, ...set };
    const descendants = await this.repo.descendants(realm._id, current.path);
    const renamed = descendants.map((d) => (moved ? { ...d, path: `${after.path}${d.path.slice(current.path.length)}` } : d));
    const view = groupView(after, groupTree(renamed, groupId));
    const updated = await auditedWrite(this.outbox, this.groupKind, realm, { realmId: realm._id, id: groupId, expect: expectFields(groupFields, after) },
      { operationType: "UPDATE", resourceType: "GROUP", path: `groups/${groupId}`, representation: view }, async () => {
        try {
          if (!(await this.repo.update(realm._id, groupId, set))) return false;
        } catch (e) {
          throw this.siblingConflict(e, set.name ?? current.name);
        }
        if (moved) for (const d of renamed) await this.repo.update(realm._id, d._id, { path: d.path });
        return true;
      }, moved ? this.events.groupChange(realm) : undefined); // the groups claim holds paths
    if (!updated) throw IamError.notFound(`group "${groupId}"`, "group_not_found");
    return view;
  }

  /** Deletes the group, its subtree, their memberships and role mappings; returns the group. */
  async delete(realmName: string, groupId: string): Promise<GroupView> {
    const realm = await this.realms.byName(realmName);
    const group = await this.find(realm, groupId);
    const descendants = await this.repo.descendants(realm._id, group.path);
    const view = groupView(group, groupTree(descendants, groupId));
    const ids = [groupId, ...descendants.map((d) => d._id)];
    await auditedWrite(this.outbox, this.groupKind, realm, { realmId: realm._id, id: groupId, expect: "absent" },
      { operationType: "DELETE", resourceType: "GROUP", path: `groups/${groupId}` }, async () => {
        await this.repo.deleteByIds(realm._id, ids);
        await this.memberships.deleteWhere({ realmId: realm._id, groupId: { $in: ids } });
        await this.roleMappings.deleteHolders(realm._id, "group", ids);
        return true;
      }, this.events.groupChange(realm));
    return view;
  }

  async members(realmName: string, groupId: string, first = 0, max = DEFAULT_MEMBERS_MAX): Promise<UserRecord[]> {
    const realm = await this.realms.byName(realmName);
    await this.find(realm, groupId);
    if (!Number.isInteger(first) || first < 0) throw IamError.invalid("first", "first must be a non-negative integer");
    if (!Number.isInteger(max) || max < 1) throw IamError.invalid("max", `max must be an integer between 1 and ${MAX_MEMBERS_MAX}`);
    // Memberships an older replica wrote without the username would sort first (rolling upgrade).
    await repairGroupMemberOrder({ memberships: this.memberships, users: this.users }, realm._id, groupId);
    const page = await this.memberships.members(realm._id, groupId, first, Math.min(max, MAX_MEMBERS_MAX));
    const users = new Map((await this.users.findByIds(realm._id, page.map((m) => m.userId))).map((u) => [u._id, u]));
    return page.map((m) => users.get(m.userId)).filter((u): u is UserRecord => u !== undefined);
  }

  /**
   * Adds the membership; adding twice is the same success (idempotent PUT), recorded once. A
   * membership grants the group's roles, so its admin event is staged with it (auditedWrite).
   */
  async addMember(realmName: string, userId: string, groupId: string): Promise<{ userId: string; groupId: string }> {
    const realm = await this.realms.byName(realmName);
    const user = await this.findUser(realm, userId);
    await this.find(realm, groupId);
    const membership = { userId, groupId };
    if (await this.memberships.has(realm._id, groupId, userId)) return membership;
    const event = { operationType: "CREATE" as const, resourceType: "GROUP_MEMBERSHIP", path: `users/${userId}/groups/${groupId}`, representation: membership };
    await auditedWrite(this.outbox, this.membershipKind, realm, { realmId: realm._id, groupId, userId, present: true }, event, async () => {
      if (!(await this.memberships.add({ realmId: realm._id, groupId, userId, usernameKey: user.usernameKey, createdAt: this.clock.now() }))) return false;
      await this.settleAgainstUser(realm, groupId, user);
      return true;
    }, this.events.serviceAccountChange(realm, user));
    return membership;
  }

  async removeMember(realmName: string, userId: string, groupId: string): Promise<{ userId: string; groupId: string }> {
    const realm = await this.realms.byName(realmName);
    const user = await this.findUser(realm, userId);
    await this.find(realm, groupId);
    const event = { operationType: "DELETE" as const, resourceType: "GROUP_MEMBERSHIP", path: `users/${userId}/groups/${groupId}` };
    const removed = await auditedWrite(this.outbox, this.membershipKind, realm, { realmId: realm._id, groupId, userId, present: false }, event,
      () => this.memberships.remove(realm._id, groupId, userId), this.events.serviceAccountChange(realm, user));
    if (!removed) throw IamError.notFound(`membership of user "${userId}" in group "${groupId}"`, "membership_not_found");
    return { userId, groupId };
  }

  async userGroups(realmName: string, userId: string): Promise<GroupView[]> {
    const realm = await this.realms.byName(realmName);
    await this.findUser(realm, userId);
    const ids = (await this.memberships.ofUser(realm._id, userId)).map((m) => m.groupId);
    return (await this.repo.findByIds(realm._id, ids)).map((g) => groupView(g));
  }

  async deleteRealm(realmId: string): Promise<number> {
    const n = await this.repo.deleteRealm(realmId);
    return n + (await this.memberships.deleteWhere({ realmId }));
  }

  private async find(realm: RealmRecord, groupId: string): Promise<GroupRecord> {
    const group = await this.repo.findById(realm._id, groupId);
    if (!group) throw IamError.notFound(`group "${groupId}"`, "group_not_found");
    return group;
  }

  /**
   * A rename (or deletion) of the user between our read and our insert updated (or deleted) the
   * memberships that existed then, not this one. Reading the user again after the insert closes
   * that gap: a change that landed before this read is applied here, and one that lands after it
   * also finds the membership in place and updates or deletes it itself.
   */
  private async settleAgainstUser(realm: RealmRecord, groupId: string, before: UserRecord): Promise<void> {
    const now = await this.users.findById(realm._id, before._id);
    if (!now) {
      await this.memberships.remove(realm._id, groupId, before._id);
      throw IamError.notFound(`user "${before._id}"`, "user_not_found");
    }
    if (now.usernameKey !== before.usernameKey) await this.memberships.renameMember(realm._id, before._id, now.usernameKey);
  }

  private async findUser(realm: RealmRecord, userId: string): Promise<UserRecord> {
    const user = await this.users.findById(realm._id, userId);
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    return user;
  }

  private siblingConflict(e: unknown, name: string): unknown {
    if (e instanceof IamError && e.code === "alreadyExists") {
      return IamError.conflict(`a sibling group named "${name}" already exists`, "name");
    }
    return e;
  }
}
