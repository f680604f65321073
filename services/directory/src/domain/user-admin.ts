import type { FederationFallback } from "./federation-fallback.js";
import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock, Filter } from "../../../kit/src/store/port.js";
import type { RealmRecord } from "./realm.js";
import type { RealmLookup } from "./realm-lookup.js";
import { emailKeyOf, userView, type UserCreateInput, type UserRecord, type UserUpdateInput } from "./user.js";
import { checkAttributes, checkOptionalEmail, checkUserFields, checkUsername, requiredActionFields } from "./user-rules.js";
import { legacyUsernameKeyOf, renames, usernameKeyOf } from "./username.js";
import { checkPasswordPolicy } from "./password-policy.js";
import type { UserCredentials } from "./user-credentials.js";
import type { UserWrites } from "./user-writes.js";
import type { UserRepository } from "../store/user-repository.js";
import type { OrganizationMemberRepository } from "../store/organization-member-repository.js";
import type { MembershipRepository } from "../store/membership-repository.js";
import type { UserEvents } from "../events/user-events.js";
import { auditedWrite } from "./audited-write.js";
import { expectFields } from "../../../kit/src/events/audited-write.js";

/** Spec 8: `skip` default 0, `limit` default 50. The cap bounds one read (spec leaves it unshown). */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

export interface UserQuery {
  skip?: number;
  limit?: number;
  search?: string;
  username?: string;
  email?: string;
  enabled?: boolean;
}

/**
 * User administration (spec 2.2, 4.2): validation, uniqueness per realm, events. Creation and
 * update stage their admin event with the write (auditedWrite); an update is told by the user's
 * view as it leaves it.
 */
export class UserAdmin {
  /** Set where the federation fallback is wired: refuses profile edits of READ_ONLY LDAP users. */
  federation?: Pick<FederationFallback, "refuseEdit">;
  /** Set where organizations are wired: their member pages follow a rename (username order). */
  organizationMembers?: Pick<OrganizationMemberRepository, "renameMember">;

  constructor(
    private readonly realms: RealmLookup,
    private readonly repo: UserRepository,
    private readonly credentials: UserCredentials,
    private readonly memberships: MembershipRepository,
    private readonly writes: UserWrites,
    private readonly events: UserEvents,
    private readonly clock: Clock,
  ) {}

  async create(realmName: string, input: UserCreateInput): Promise<{ realm: RealmRecord; user: UserRecord }> {
    const realm = await this.realms.byName(realmName);
    const username = checkUsername(input.username);
    const email = input.email === undefined ? "" : checkOptionalEmail(input.email);
    checkUserFields(input);
    const attributes = checkAttributes(input.attributes);
    const actions = requiredActionFields(input);
    // Policy first, hash before the insert: a refused password leaves no user behind.
    const hash = input.password === undefined ? undefined
      : await this.credentials.hash(checkPasswordPolicy(input.password, realm, { username, email }));
    const now = this.clock.now();
    const id = randomUUID();
    const user: UserRecord = {
      _id: id,
      realmId: realm._id,
      username,
      usernameKey: usernameKeyOf(username),
      email,
      emailKey: emailKeyOf(id, email),
      firstName: input.firstName ?? "",
      lastName: input.lastName ?? "",
      enabled: input.enabled ?? true,
      emailVerified: input.emailVerified ?? false,
      requirePasswordReset: actions.requirePasswordReset ?? false,
      ...(actions.requiredActions?.length ? { requiredActions: actions.requiredActions } : {}),
      serviceAccountClientId: "",
      attributes,
      createdAt: now,
      updatedAt: now,
    };
    await auditedWrite(this.writes.outbox, this.writes.userRecords, realm, { realmId: realm._id, id, expect: "present" },
      { operationType: "CREATE", resourceType: "USER", path: `users/${id}`, representation: userView(user) }, async () => {
        await this.uniqueOrConflict(realm._id, id, username, email, () => this.repo.insert(user));
        if (hash !== undefined) await this.credentials.store(realm, user, hash, user.requirePasswordReset);
        return true;
      });
    return { realm, user };
  }

  async list(realmName: string, q: UserQuery): Promise<{ total: number; users: UserRecord[] }> {
    const realm = await this.realms.byName(realmName);
    const skip = q.skip ?? 0;
    if (!Number.isInteger(skip) || skip < 0) throw IamError.invalid("skip", "skip must be a non-negative integer");
    const limit = q.limit ?? DEFAULT_LIMIT;
    // limit 0 is refused rather than meaning "all" (store port semantics); above the cap it is capped.
    if (!Number.isInteger(limit) || limit < 1) throw IamError.invalid("limit", `limit must be an integer between 1 and ${MAX_LIMIT}`);
    const filter: Filter = {};
    if (q.search) {
      filter.$or = ["usernameKey", "email", "firstName", "lastName"].map((f) => ({ [f]: { $contains: q.search as string } }));
    }
    // Either key: users stored before NFKC normalisation keep their lower-cased one (username.ts).
    if (q.username) filter.usernameKey = { $in: [...new Set([usernameKeyOf(q.username), legacyUsernameKeyOf(q.username)])] };
    if (q.email) filter.emailKey = q.email.trim().toLowerCase();
    if (q.enabled !== undefined) filter.enabled = q.enabled;
    return this.repo.page(realm._id, filter, { skip, limit: Math.min(limit, MAX_LIMIT) });
  }

  async get(realmName: string, userId: string): Promise<UserRecord> {
    const realm = await this.realms.byName(realmName);
    return this.find(realm, userId);
  }

  async find(realm: RealmRecord, userId: string): Promise<UserRecord> {
    const user = await this.repo.findById(realm._id, userId);
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    return user;
  }

  async update(realmName: string, userId: string, input: UserUpdateInput): Promise<UserRecord> {
    const realm = await this.realms.byName(realmName);
    const current = await this.find(realm, userId);
    checkUserFields(input);
    if (current.federationProviderId && this.federation) {
      // A READ_ONLY provider's users keep their profile as LDAP has it (federation-fallback.ts).
      for (const f of ["username", "email", "firstName", "lastName"] as const) {
        if (input[f] !== undefined && input[f].trim() !== current[f]) await this.federation.refuseEdit(realm, current, "profile", f);
      }
    }
    const set: Partial<UserRecord> = { updatedAt: this.clock.now() };
    // A username sent back unchanged is not checked again (username.ts renames).
    if (input.username !== undefined && renames(input.username, current.username)) {
      set.username = checkUsername(input.username);
      set.usernameKey = usernameKeyOf(set.username);
    }
    if (input.email !== undefined) {
      set.email = checkOptionalEmail(input.email);
      set.emailKey = emailKeyOf(userId, set.email);
      // A changed address is not verified any more, unless the same body says it is (migration).
      if (set.emailKey !== current.emailKey && input.emailVerified === undefined) set.emailVerified = false;
    }
    for (const f of ["firstName", "lastName", "enabled", "emailVerified"] as const) {
      if (input[f] !== undefined) (set as Record<string, unknown>)[f] = input[f];
    }
    Object.assign(set, requiredActionFields(input));
    if (input.attributes !== undefined) set.attributes = checkAttributes(input.attributes);
    let updated = null as UserRecord | null;
    const write = async (): Promise<boolean> => {
      await this.uniqueOrConflict(realm._id, userId, set.username ?? current.username, set.email ?? current.email, async () => {
        updated = await this.repo.update(realm._id, userId, set);
      });
      return updated !== null;
    };
    const expected: UserRecord = { ...current, ...set };
    await auditedWrite(this.writes.outbox, this.writes.userRecords, realm, { realmId: realm._id, id: userId, expect: expectFields(userView, expected) },
      { operationType: "UPDATE", resourceType: "USER", path: `users/${userId}`, representation: userView(expected) }, async () => {
        // Disabling ends the user's sessions (user.disabled), announced through the outbox.
        if (current.enabled && set.enabled === false) await this.writes.disabling.disable(realm, userId, write);
        else await write();
        return updated !== null;
      }, this.events.serviceAccountChange(realm, expected)); // profile claims of a service account's tokens
    if (!updated) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    const after: UserRecord = updated;
    if (after.usernameKey !== current.usernameKey) {
      await this.memberships.renameMember(realm._id, userId, after.usernameKey);
      await this.organizationMembers?.renameMember(realm._id, userId, after.usernameKey);
    }
    return after;
  }

  /** Removes the user and what the directory keeps of it, announcing it with its admin event (UserRemoval; spec 4.2: 204). */
  async delete(realmName: string, userId: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    if (!(await this.writes.removal.remove(realm, userId, { adminEvent: true }))) throw IamError.notFound(`user "${userId}"`, "user_not_found");
  }

  /**
   * Runs a write that may hit the (realmId, usernameKey) or (realmId, emailKey) unique index and
   * turns a violation into a 409 naming the field. The store reports only the first index field,
   * so the taken key is looked up; a concurrent creator makes exactly one insert win.
   */
  private async uniqueOrConflict(realmId: string, selfId: string, username: string, email: string, write: () => Promise<void>): Promise<void> {
    const taken = async (): Promise<void> => {
      const byName = await this.repo.findByUsername(realmId, username);
      if (byName && byName._id !== selfId) throw IamError.conflict(`username "${username}" already exists`, "username");
      if (email) {
        const byEmail = await this.repo.findByEmail(realmId, email);
        if (byEmail && byEmail._id !== selfId) throw IamError.conflict(`email "${email}" already exists`, "email");
      }
    };
    await taken();
    try {
      await write();
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") {
        await taken();
        throw IamError.conflict(`username "${username}" already exists`, "username");
      }
      throw e;
    }
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.repo.deleteRealm(realmId);
  }
}
