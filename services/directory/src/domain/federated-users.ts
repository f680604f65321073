import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmRecord } from "./realm.js";
import type { RealmLookup } from "./realm-lookup.js";
import { emailKeyOf, type UserRecord } from "./user.js";
import { checkOptionalEmail, checkUsername } from "./user-rules.js";
import type { UserWrites } from "./user-writes.js";
import type { UserRepository } from "../store/user-repository.js";

/** An LDAP entry as the federation service maps it. */
export interface FederatedEntryInput {
  externalId: string;
  dn: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
}

export type UpsertOutcomeName = "CREATED" | "UPDATED" | "UNCHANGED" | "FAILED";
export interface UpsertResultRecord { outcome: UpsertOutcomeName; userId: string; error: string; message: string }

interface CheckedEntry { username: string; email: string; firstName: string; lastName: string }

/** The directory's rules for what an entry brings (spec 2.2, 8). */
function checkEntry(e: FederatedEntryInput): CheckedEntry {
  if (!e.externalId) throw IamError.invalid("externalId", "the entry has no stable id");
  return { username: checkUsername(e.username), email: checkOptionalEmail(e.email), firstName: e.firstName.slice(0, 255), lastName: e.lastName.slice(0, 255) };
}

function failure(err: unknown): UpsertResultRecord {
  if (!(err instanceof IamError)) throw err;
  return { outcome: "FAILED", userId: "", error: err.reason, message: err.message };
}

/** Entries per upsert call (one page of a sync is 500). */
export const MAX_UPSERT_ENTRIES = 1000;

/**
 * Users imported from LDAP (the federation service's sync and first logins). Such a user is a
 * directory user with a federation link (provider id, the entry's stable id, its DN), created and
 * updated by that link, with no password here: it is checked by an LDAP bind. As in Keycloak, an
 * import is not an admin's operation on a user and records no admin event of its own: the Admin
 * API's sync records one ACTION event with its counts (the federation service's). A local user
 * holding the username or email is never taken over: the entry fails with a conflict (Keycloak
 * refuses it too).
 */
export class FederatedUsers {
  constructor(
    private readonly realms: RealmLookup,
    private readonly repo: UserRepository,
    private readonly writes: Pick<UserWrites, "outbox" | "userRecords" | "removal" | "disabling">,
    private readonly clock: Clock,
  ) {}

  /**
   * One read finds the batch's linked users and one insertMany creates its new ones (a sync's page
   * is up to 500 entries); should that insert meet a taken username or email, each new user is
   * inserted alone, so only the entries in conflict fail.
   */
  async upsertMany(realmName: string, providerId: string, entries: FederatedEntryInput[]): Promise<UpsertResultRecord[]> {
    if (!providerId) throw IamError.invalid("providerId", "providerId is required");
    if (entries.length > MAX_UPSERT_ENTRIES) throw IamError.invalid("entries", `at most ${MAX_UPSERT_ENTRIES} entries per call`);
    const realm = await this.realms.byName(realmName);
    const linked = new Map((await this.repo.findByLinks(realm._id, providerId, entries.map((e) => e.externalId).filter(Boolean)))
      .map((u) => [u.federationExternalId as string, u]));
    const out: UpsertResultRecord[] = [];
    const fresh: Array<{ index: number; user: UserRecord }> = [];
    const seen = new Set<string>();
    for (const [index, e] of entries.entries()) {
      try {
        const m = checkEntry(e);
        const current = linked.get(e.externalId);
        if (current) {
          out.push(await this.refresh(realm, current, { ...m, dn: e.dn }));
        } else if (seen.has(e.externalId)) {
          throw IamError.conflict(`stable id "${e.externalId}" appears twice`, "externalId");
        } else {
          seen.add(e.externalId);
          const user = this.newUser(realm, providerId, e, m);
          fresh.push({ index, user });
          out.push({ outcome: "CREATED", userId: user._id, error: "", message: "" });
        }
      } catch (err) {
        out.push(failure(err));
      }
    }
    if (!fresh.length) return out;
    try {
      await this.repo.insertMany(fresh.map((f) => f.user));
    } catch (err) {
      if (!(err instanceof IamError && err.code === "alreadyExists")) throw err;
      for (const { index, user } of fresh) {
        try {
          await this.conflictAsFailure(realm, user.username, user.email, () => this.repo.insert(user));
        } catch (e) {
          out[index] = failure(e);
        }
      }
    }
    return out;
  }

  /** One entry (a first login's): its linked user updated, or a new one created. */
  async upsert(realm: RealmRecord, providerId: string, e: FederatedEntryInput): Promise<UpsertResultRecord> {
    const m = checkEntry(e);
    const current = await this.repo.findByLink(realm._id, providerId, e.externalId);
    if (current) return this.refresh(realm, current, { ...m, dn: e.dn });
    const user = this.newUser(realm, providerId, e, m);
    await this.conflictAsFailure(realm, user.username, user.email, () => this.repo.insert(user));
    return { outcome: "CREATED", userId: user._id, error: "", message: "" };
  }

  private newUser(realm: RealmRecord, providerId: string, e: FederatedEntryInput, m: CheckedEntry): UserRecord {
    const now = this.clock.now();
    const id = randomUUID();
    return {
      _id: id, realmId: realm._id, username: m.username, usernameKey: m.username.toLowerCase(), email: m.email, emailKey: emailKeyOf(id, m.email),
      firstName: m.firstName, lastName: m.lastName, enabled: true, emailVerified: false, requirePasswordReset: false, serviceAccountClientId: "",
      attributes: {}, createdAt: now, updatedAt: now,
      federationProviderId: providerId, federationExternalId: e.externalId, federationDn: e.dn,
    };
  }

  private async refresh(realm: RealmRecord, current: UserRecord, next: { username: string; email: string; firstName: string; lastName: string; dn: string }): Promise<UpsertResultRecord> {
    const set: Partial<UserRecord> = {};
    if (current.username !== next.username) Object.assign(set, { username: next.username, usernameKey: next.username.toLowerCase() });
    if (current.email !== next.email) {
      Object.assign(set, { email: next.email, emailKey: emailKeyOf(current._id, next.email) });
      if (current.emailKey !== emailKeyOf(current._id, next.email)) set.emailVerified = false;
    }
    if (current.firstName !== next.firstName) set.firstName = next.firstName;
    if (current.lastName !== next.lastName) set.lastName = next.lastName;
    if (current.federationDn !== next.dn) set.federationDn = next.dn;
    // Back in LDAP after a sync disabled the user for its absence: enabled again.
    if (current.federationMissing) Object.assign(set, { federationMissing: false, enabled: true });
    if (!Object.keys(set).length) return { outcome: "UNCHANGED", userId: current._id, error: "", message: "" };
    set.updatedAt = this.clock.now();
    let updated = null as UserRecord | null;
    await this.conflictAsFailure(realm, set.username ?? current.username, set.email ?? current.email, async () => {
      updated = await this.repo.update(realm._id, current._id, set);
    });
    return { outcome: updated ? "UPDATED" : "FAILED", userId: current._id, error: updated ? "" : "user_not_found", message: updated ? "" : "the user was removed meanwhile" };
  }

  async userById(realm: RealmRecord, id: string): Promise<UserRecord | null> {
    return this.repo.findById(realm._id, id);
  }

  async links(realmName: string, providerId: string, skip: number, limit: number): Promise<UserRecord[]> {
    const realm = await this.realms.byName(realmName);
    return this.repo.linkedPage(realm._id, providerId, Math.max(0, skip), Math.min(Math.max(1, limit || 1000), 5000));
  }

  /** Users whose entries left LDAP: unlinked (kept as local users without a password), or disabled (sessions end). */
  async release(realmName: string, providerId: string, userIds: string[], unlink: boolean): Promise<number> {
    const realm = await this.realms.byName(realmName);
    let n = 0;
    for (const id of userIds) {
      const u = await this.repo.findById(realm._id, id);
      if (!u || u.federationProviderId !== providerId) continue;
      if (unlink) {
        if (await this.repo.unlink(realm._id, id, this.clock.now())) n++;
        continue;
      }
      const write = async () => (await this.repo.update(realm._id, id, { enabled: false, federationMissing: true, updatedAt: this.clock.now() })) !== null;
      if (u.enabled ? await this.writes.disabling.disable(realm, id, write) : await write()) n++;
    }
    return n;
  }

  /** Every user of a deleted provider, removed as the Admin API's delete removes one (sessions end). */
  async removeAll(realmName: string, providerId: string): Promise<number> {
    const realm = await this.realms.byName(realmName);
    let n = 0;
    for (;;) {
      const page = await this.repo.linkedPage(realm._id, providerId, 0, 500);
      if (!page.length) return n;
      // Each announced (user.deleted ends sessions); the provider's DELETE is the admin event.
      for (const u of page) if (await this.writes.removal.remove(realm, u._id)) n++;
    }
  }

  private async conflictAsFailure(realm: RealmRecord, username: string, email: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") {
        const byName = await this.repo.findByUsername(realm._id, username);
        const what = byName ? `username "${username}"` : `email "${email}"`;
        throw IamError.conflict(`another user already holds ${what}`, byName ? "username" : "email");
      }
      throw e;
    }
  }
}
