import { IamError } from "../../../kit/src/errors.js";
import type { Outbox, OutboxKind } from "../../../kit/src/bus/outbox.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { auditedWrite } from "./audited-write.js";
import type { RealmRecord } from "./realm.js";
import type { OrganizationRealms } from "./organization-realms.js";
import type { UserRecord } from "./user.js";
import { organizationView, type OrganizationView } from "./organization.js";
import { checkPage } from "./organization-rules.js";
import type { OrganizationAdmin } from "./organization-admin.js";
import type { OrganizationRepository } from "../store/organization-repository.js";
import type { OrganizationMemberRepository } from "../store/organization-member-repository.js";
import type { UserRepository } from "../store/user-repository.js";

export const DEFAULT_MEMBERS_MAX = 10;
export const MAX_MEMBERS_MAX = 1000;
/** Members read at a time by a search (OrganizationMembers.search). */
const SEARCH_BATCH = 500;

/** Whether `search` (lower case) is in the user's username, email, first or last name, ignoring case. */
function memberMatches(user: UserRecord, search: string): boolean {
  return [user.username, user.email, user.firstName, user.lastName].some((field) => (field ?? "").toLowerCase().includes(search));
}

/**
 * Keycloak 26's membership types: UNMANAGED, an existing account an admin or an invitation added,
 * which outlives the membership; MANAGED, an account the organization's identity provider created
 * at its first login, whose lifecycle is the organization's (removing the member deletes it).
 */
export const MEMBERSHIP_TYPES = ["UNMANAGED", "MANAGED"] as const;
export type MembershipType = (typeof MEMBERSHIP_TYPES)[number];

export interface OrganizationMember {
  user: UserRecord;
  membershipType: string;
}

/** Deletes an account with its own USER admin event and cascade (UserAdmin.delete). */
export type DeleteUser = (realmName: string, userId: string) => Promise<void>;

export function checkMembershipType(v: string): MembershipType | undefined {
  if (v === "") return undefined;
  if (!(MEMBERSHIP_TYPES as readonly string[]).includes(v)) {
    throw IamError.invalid("membershipType", `membershipType must be one of ${MEMBERSHIP_TYPES.join(", ")}`);
  }
  return v as MembershipType;
}

interface MembershipSnapshot {
  realmId: string;
  organizationId: string;
  userId: string;
  present: boolean;
}

/**
 * An organization's members (Keycloak 26's `/organizations/{id}/members`): existing users of the
 * realm added or removed by an admin (or by an accepted invitation), listed in username order.
 * Each change records an ORGANIZATION_MEMBERSHIP admin event, staged with it.
 */
export class OrganizationMembers {
  /** Set where users are wired: how a MANAGED member's account is deleted with its membership. */
  deleteUser?: DeleteUser;
  private readonly kind: OutboxKind<MembershipSnapshot> = {
    name: "directory.organization-membership",
    applied: async (s) => ((await this.members.find(s.realmId, s.organizationId, s.userId)) !== null) === s.present,
  };

  constructor(
    private readonly realms: OrganizationRealms,
    private readonly organizations: OrganizationAdmin,
    private readonly repo: OrganizationRepository,
    private readonly members: OrganizationMemberRepository,
    private readonly users: UserRepository,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.kind);
  }

  /**
   * Adds an existing user. As Keycloak: an unknown user is a 400 (the body names it, not the
   * path), a user already a member a 409.
   */
  async add(realmName: string, organizationId: string, userId: string, membershipType = "UNMANAGED"): Promise<OrganizationMember> {
    const realm = await this.realms.byName(realmName);
    await this.organizations.find(realm, organizationId);
    const id = userId.trim();
    if (!id) throw IamError.invalid("userId", "the body must be the id of a user, as a JSON string");
    const user = await this.users.findById(realm._id, id);
    if (!user) throw IamError.invalid("userId", `user "${id.slice(0, 64)}" does not exist`, "user_not_found");
    return this.addUser(realm, organizationId, user, membershipType);
  }

  /** Adds a user known to exist (an invitation accepted); 409 when already a member. */
  async addUser(realm: RealmRecord, organizationId: string, user: UserRecord, membershipType = "UNMANAGED"): Promise<OrganizationMember> {
    const event = {
      operationType: "CREATE" as const, resourceType: "ORGANIZATION_MEMBERSHIP", path: `organizations/${organizationId}/members/${user._id}`,
      representation: { organizationId, userId: user._id, membershipType },
    };
    const added = await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, organizationId, userId: user._id, present: true }, event, async () => {
      if (!(await this.members.add({
        realmId: realm._id, organizationId, userId: user._id, usernameKey: user.usernameKey, membershipType, createdAt: this.clock.now(),
      }))) return false;
      await this.settle(realm, organizationId, user);
      return true;
    });
    if (!added) throw IamError.conflict("user is already a member of the organization", "userId");
    return { user, membershipType };
  }

  async list(realmName: string, organizationId: string, q: { search?: string; first?: number; max?: number; membershipType?: string }): Promise<OrganizationMember[]> {
    const realm = await this.realms.byName(realmName);
    await this.organizations.find(realm, organizationId);
    const { skip, limit } = checkPage(q.first, q.max, DEFAULT_MEMBERS_MAX, MAX_MEMBERS_MAX);
    const type = checkMembershipType(q.membershipType ?? "");
    const search = (q.search ?? "").trim().toLowerCase();
    const byType = type ? { membershipType: type } : {};
    if (search) return this.search(realm, organizationId, search, skip, limit, byType);
    return this.withUsers(realm, await this.members.page(realm._id, organizationId, skip, limit, byType));
  }

  /**
   * Keycloak's member search: the text in the username, email, first or last name, ignoring case.
   * A member's record holds its username alone, so members are read in username order a batch at
   * a time with their users, and the matches counted until the page is full: a substring cannot use
   * an index either way, and an organization's members are read once at most.
   */
  private async search(
    realm: RealmRecord, organizationId: string, search: string, skip: number, limit: number, byType: { membershipType?: string },
  ): Promise<OrganizationMember[]> {
    const out: OrganizationMember[] = [];
    let passed = 0;
    for (let offset = 0; ; offset += SEARCH_BATCH) {
      const batch = await this.members.page(realm._id, organizationId, offset, SEARCH_BATCH, byType);
      for (const member of await this.withUsers(realm, batch)) {
        if (!memberMatches(member.user, search)) continue;
        if (passed++ < skip) continue;
        out.push(member);
        if (out.length === limit) return out;
      }
      if (batch.length < SEARCH_BATCH) return out;
    }
  }

  /** The page's members with their users, in the page's order; a member whose user is gone is left out. */
  private async withUsers(realm: RealmRecord, page: Array<{ userId: string; membershipType: string }>): Promise<OrganizationMember[]> {
    const users = new Map((await this.users.findByIds(realm._id, page.map((m) => m.userId))).map((u) => [u._id, u]));
    return page.flatMap((m) => {
      const user = users.get(m.userId);
      return user ? [{ user, membershipType: m.membershipType }] : [];
    });
  }

  async count(realmName: string, organizationId: string): Promise<number> {
    const realm = await this.realms.byName(realmName);
    await this.organizations.find(realm, organizationId);
    return this.members.count(realm._id, organizationId);
  }

  async get(realmName: string, organizationId: string, userId: string): Promise<OrganizationMember> {
    const realm = await this.realms.byName(realmName);
    await this.organizations.find(realm, organizationId);
    const m = await this.members.find(realm._id, organizationId, userId);
    const user = m ? await this.users.findById(realm._id, userId) : null;
    if (!m || !user) throw IamError.notFound(`member "${userId}" of organization "${organizationId}"`, "member_not_found");
    return { user, membershipType: m.membershipType };
  }

  /**
   * Keycloak 26.8's membership-type update (OrganizationMemberResource.updateMembershipType): the
   * same type changes nothing; another is written and recorded as an UPDATE of the membership.
   * MANAGED ties the account's life to the organization's from then on: removing the member, or
   * the organization, deletes it.
   */
  async setMembershipType(realmName: string, organizationId: string, userId: string, membershipType: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    await this.organizations.find(realm, organizationId);
    const type = checkMembershipType(membershipType);
    if (!type) throw IamError.invalid("membershipType", "membershipType cannot be null");
    const current = await this.members.find(realm._id, organizationId, userId);
    if (!current) throw IamError.notFound(`member "${userId}" of organization "${organizationId}"`, "member_not_found");
    if (current.membershipType === type) return;
    const event = {
      operationType: "UPDATE" as const, resourceType: "ORGANIZATION_MEMBERSHIP", path: `organizations/${organizationId}/members/${userId}/membership-type`,
      representation: { organizationId, userId, membershipType: type },
    };
    const changed = await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, organizationId, userId, present: true }, event,
      () => this.members.setType(realm._id, organizationId, userId, type));
    if (!changed) throw IamError.notFound(`member "${userId}" of organization "${organizationId}"`, "member_not_found");
  }

  /**
   * Ends the membership. An UNMANAGED member's account stays; a MANAGED member's account is
   * deleted with it, as Keycloak 26 does (its lifecycle is the organization's): the membership's
   * DELETE event, then the user's own (UserAdmin.delete, which also ends the user's other
   * memberships, sessions and credentials). The account goes first, so a failure part-way leaves
   * the member listed and the DELETE can be sent again.
   */
  async remove(realmName: string, organizationId: string, userId: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    await this.organizations.find(realm, organizationId);
    const current = await this.members.find(realm._id, organizationId, userId);
    if (!current) throw IamError.notFound(`member "${userId}" of organization "${organizationId}"`, "member_not_found");
    const managed = current.membershipType === "MANAGED" && this.deleteUser !== undefined;
    const event = { operationType: "DELETE" as const, resourceType: "ORGANIZATION_MEMBERSHIP", path: `organizations/${organizationId}/members/${userId}` };
    const removed = await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, organizationId, userId, present: false }, event, async () => {
      if (managed) await this.deleteManagedUser(realm.name, userId);
      // The user's deletion removed the membership already: the write is still this event's.
      return (await this.members.remove(realm._id, organizationId, userId)) || managed;
    });
    if (!removed) throw IamError.notFound(`member "${userId}" of organization "${organizationId}"`, "member_not_found");
  }

  /**
   * The broker's first login through `alias` (Keycloak's "Organization Member Onboard" step): the
   * user joins each enabled organization the provider is linked to, MANAGED when the login created
   * the account, UNMANAGED when it linked one that existed before. An existing membership is kept
   * as it is. Answers the organizations joined.
   */
  async onboard(realmName: string, alias: string, userId: string, created: boolean): Promise<string[]> {
    // Off: a broker login joins no organization (Keycloak checks isEnabledAndOrganizationsPresent).
    const realm = await this.realms.inEffect(realmName);
    if (!realm) return [];
    const user = await this.users.findById(realm._id, userId);
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    const joined: string[] = [];
    for (const org of await this.repo.linkedTo(realm._id, alias)) {
      if (!org.enabled) continue;
      try {
        await this.addUser(realm, org._id, user, created ? "MANAGED" : "UNMANAGED");
        joined.push(org._id);
      } catch (e) {
        if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
      }
    }
    return joined;
  }

  /** The MANAGED members' ids of an organization, for its deletion (each account goes with it). */
  async managedUserIds(realmId: string, organizationId: string): Promise<string[]> {
    const ids: string[] = [];
    for (let skip = 0; ; skip += 500) {
      const page = await this.members.page(realmId, organizationId, skip, 500, { membershipType: "MANAGED" });
      ids.push(...page.map((m) => m.userId));
      if (page.length < 500) return ids;
    }
  }

  async deleteManagedUser(realmName: string, userId: string): Promise<void> {
    try {
      await this.deleteUser!(realmName, userId);
    } catch (e) {
      // Already gone (a concurrent removal): what is left to do is the membership's.
      if (!(e instanceof IamError && e.code === "notFound")) throw e;
    }
  }

  /** The organizations a user belongs to (Keycloak's `/organizations/members/{id}/organizations`). */
  async organizationsOf(realmName: string, userId: string): Promise<OrganizationView[]> {
    const realm = await this.realms.byName(realmName);
    if (!(await this.users.findById(realm._id, userId))) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    const ids = (await this.members.ofUser(realm._id, userId)).map((m) => m.organizationId);
    return (await this.repo.findByIds(realm._id, ids)).map((o) => organizationView(o, true));
  }

  /**
   * A deletion or rename of the user between the read and the insert missed this membership;
   * reading the user again after the insert closes the gap (as group memberships do).
   */
  private async settle(realm: RealmRecord, organizationId: string, before: UserRecord): Promise<void> {
    const now = await this.users.findById(realm._id, before._id);
    if (!now) {
      await this.members.remove(realm._id, organizationId, before._id);
      throw IamError.invalid("userId", `user "${before._id}" does not exist`, "user_not_found");
    }
    if (now.usernameKey !== before.usernameKey) await this.members.renameMember(realm._id, before._id, now.usernameKey);
  }
}
