import { randomBytes, randomUUID } from "node:crypto";
import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { UserService, type User } from "../../../../gen/iam/directory/v1/user_pb.js";
import { OrganizationService } from "../../../../gen/iam/directory/v1/organization_pb.js";
import { ErrorDetailSchema } from "../../../../gen/iam/kit/v1/kit_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { Logger } from "pino";
import type { IdentityProviderRecord } from "../domain/identity-provider.js";
import type { RealmRef } from "../domain/realm-ref.js";
import type { LinkRepository } from "../store/link-repository.js";
import { BrokerFailure } from "./broker-failure.js";
import type { UpstreamProfile } from "./upstream-profile.js";
import type { MapperApplier } from "./mapper-applier.js";

/** Who the upstream account is locally, or that an existing account must be proven first. */
export type Resolution =
  | { kind: "user"; userId: string; how: "login" | "created" | "linked" }
  | { kind: "confirm"; user: User };

const MAX_USERNAME_TRIES = 6;

/**
 * Maps an upstream account to a local user (the directory owns users; the broker owns links):
 * a known link (alias, upstream subject) names the user; on a first login an existing user with
 * the same email is linked only when the upstream verified the email and the provider trusts it,
 * asked to prove the local password otherwise; else a user is created, its username from
 * preferred_username or the email, with a suffix when taken.
 */
export class AccountLinker {
  private readonly users: Client<typeof UserService>;
  private readonly organizations: Client<typeof OrganizationService>;

  constructor(
    private readonly links: LinkRepository, directory: Transport, private readonly clock: Clock, private readonly logger: Logger,
    private readonly mappers: MapperApplier,
  ) {
    this.users = createClient(UserService, directory);
    this.organizations = createClient(OrganizationService, directory);
  }

  async resolve(realm: RealmRef, p: IdentityProviderRecord, profile: UpstreamProfile): Promise<Resolution> {
    let link = await this.links.findBySubject(realm.id, p.alias, profile.subject);
    if (link && link.providerId !== p._id) {
      // Left by a deleted provider of the same alias: another upstream's subject, never trusted.
      await this.links.deleteStale(realm.id, p.alias, p._id);
      link = null;
    }
    if (link) {
      const user = await this.getUser(realm, link.userId);
      if (user) {
        if (p.syncUserProfile) await this.sync(realm, p, user, profile);
        await this.mappers.apply(realm, p, user.id, profile.claims ?? {}, false);
        if (profile.username && profile.username !== link.username) await this.links.setUsername(link._id, profile.username);
        return { kind: "user", userId: user.id, how: "login" };
      }
      // The user was deleted and its links are still on their way out (user.deleted): start over.
      await this.links.deleteUser(realm.id, link.userId);
    }
    if (profile.email) {
      const existing = (await this.users.listUsers({ realm: realm.name, email: profile.email, limit: 2 })).users[0];
      if (existing) {
        if (!(profile.emailVerified && p.trustEmail)) return { kind: "confirm", user: existing };
        await this.link(realm, p, existing.id, profile);
        if (p.syncUserProfile) await this.sync(realm, p, existing, profile);
        // Keycloak runs updateBrokeredUser (by sync mode) when the first login links a user that was there.
        await this.mappers.apply(realm, p, existing.id, profile.claims ?? {}, false);
        await this.onboard(realm, p, existing.id, false);
        return { kind: "user", userId: existing.id, how: "linked" };
      }
    }
    const pre = await this.mappers.preprocess(realm, p, profile.claims ?? {});
    const created = await this.create(realm, p, { ...profile, ...pre.fields }, pre.username);
    await this.link(realm, p, created.id, profile);
    await this.mappers.apply(realm, p, created.id, profile.claims ?? {}, true);
    await this.onboard(realm, p, created.id, true);
    return { kind: "user", userId: created.id, how: "created" };
  }

  /** Links after the user proved the local account (confirm-link page). */
  async linkConfirmed(realm: RealmRef, p: IdentityProviderRecord, userId: string, profile: UpstreamProfile): Promise<void> {
    await this.link(realm, p, userId, profile);
    if (p.syncUserProfile) {
      const user = await this.getUser(realm, userId);
      if (user) await this.sync(realm, p, user, profile);
    }
    if (profile.claims) await this.mappers.apply(realm, p, userId, profile.claims, false);
    await this.onboard(realm, p, userId, false);
  }

  /**
   * Links the upstream account to a signed-in user who asked for it (Keycloak's
   * IdentityBrokerService.performAccountLinking): an account already linked to this user is
   * linked again (its username refreshed); one linked to another user, or a second account of
   * the same provider for this user, is refused. The profile is synced as at a login when the
   * provider says so; no organization onboarding, which belongs to a first login.
   */
  async linkSignedIn(realm: RealmRef, p: IdentityProviderRecord, userId: string, profile: UpstreamProfile): Promise<void> {
    await this.links.deleteStale(realm.id, p.alias, p._id);
    const owner = await this.links.findBySubject(realm.id, p.alias, profile.subject);
    if (owner && owner.userId !== userId) {
      throw new BrokerFailure("federated_identity_exists", `This ${p.displayName} account is already linked to another user.`, 409);
    }
    if (owner) {
      if (profile.username && profile.username !== owner.username) await this.links.setUsername(owner._id, profile.username);
    } else {
      if ((await this.links.listByUser(realm.id, userId)).some((l) => l.alias === p.alias)) {
        throw new BrokerFailure("already_linked", `Your account is already linked to another ${p.displayName} account.`, 409);
      }
      await this.link(realm, p, userId, profile);
    }
    if (p.syncUserProfile) {
      const user = await this.getUser(realm, userId);
      if (user) await this.sync(realm, p, user, profile);
    }
  }

  /**
   * Keycloak 26's organization onboarding on a first broker login: the user joins the
   * organizations the provider is linked to, MANAGED when this login created the account (its
   * lifecycle is then the organization's), UNMANAGED when it linked an account that was there.
   */
  private async onboard(realm: RealmRef, p: IdentityProviderRecord, userId: string, created: boolean): Promise<void> {
    const { organizationIds } = await this.organizations.onboardBrokeredUser({ realm: realm.name, identityProviderAlias: p.alias, userId, created });
    if (organizationIds.length) this.logger.info({ realm: realm.name, alias: p.alias, userId, organizations: organizationIds.length, created }, "brokered user joined organizations");
  }

  private async link(realm: RealmRef, p: IdentityProviderRecord, userId: string, profile: UpstreamProfile): Promise<void> {
    await this.links.deleteStale(realm.id, p.alias, p._id);
    try {
      await this.links.insert({
        _id: randomUUID(), realmId: realm.id, userId, alias: p.alias, providerId: p._id, subject: profile.subject,
        username: profile.username ?? profile.email ?? "", createdAt: this.clock.now(),
      });
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") {
        throw new BrokerFailure("already_linked", `This account is already linked to another ${p.displayName} account.`, 409, "federated_identity_exists");
      }
      throw e;
    }
  }

  /** `username`: a mapper's (username template), else preferred_username or the email. */
  private async create(realm: RealmRef, p: IdentityProviderRecord, profile: UpstreamProfile, username?: string): Promise<User> {
    const base = usernameBase(p, username ? { ...profile, username } : profile);
    let email = profile.email;
    for (let i = 0; i < MAX_USERNAME_TRIES; i++) {
      const username = i === 0 ? base : i < MAX_USERNAME_TRIES - 1 ? `${base}-${i + 1}` : `${base}-${randomBytes(4).toString("hex")}`;
      try {
        const { user } = await this.users.createUser({
          realm: realm.name,
          user: {
            username, enabled: true,
            ...(email ? { email, emailVerified: profile.emailVerified && p.trustEmail } : {}),
            ...(profile.firstName ? { firstName: profile.firstName.slice(0, 255) } : {}),
            ...(profile.lastName ? { lastName: profile.lastName.slice(0, 255) } : {}),
          },
        });
        if (!user) throw new Error("directory returned no user");
        return user;
      } catch (e) {
        const field = conflictField(e);
        if (field === "username") continue;
        // The email was taken between the lookup and the insert: the account is made without it.
        if (field === "email" && email) {
          email = undefined;
          i--;
          continue;
        }
        throw e;
      }
    }
    throw new BrokerFailure("username_taken", "No free username could be found for this account.", 409, "username_in_use");
  }

  /** syncUserProfile: the upstream's name and email replace the local ones on each login. */
  private async sync(realm: RealmRef, p: IdentityProviderRecord, user: User, profile: UpstreamProfile): Promise<void> {
    const update: { firstName?: string; lastName?: string; email?: string; emailVerified?: boolean } = {};
    if (profile.firstName && profile.firstName !== user.firstName) update.firstName = profile.firstName.slice(0, 255);
    if (profile.lastName && profile.lastName !== user.lastName) update.lastName = profile.lastName.slice(0, 255);
    if (profile.email && profile.email.toLowerCase() !== user.email.toLowerCase()) {
      update.email = profile.email;
      update.emailVerified = profile.emailVerified && p.trustEmail;
    }
    if (!Object.keys(update).length) return;
    try {
      await this.users.updateUser({ realm: realm.name, userId: user.id, update });
    } catch (e) {
      // Another local user holds the new email: the rest of the profile is still worth keeping.
      if (conflictField(e) !== "email") throw e;
      this.logger.warn({ realm: realm.name, userId: user.id }, "upstream email is taken by another user; profile synced without it");
      delete update.email;
      delete update.emailVerified;
      if (Object.keys(update).length) await this.users.updateUser({ realm: realm.name, userId: user.id, update });
    }
  }

  private async getUser(realm: RealmRef, userId: string): Promise<User | null> {
    try {
      return (await this.users.getUser({ realm: realm.name, userId })).user ?? null;
    } catch (e) {
      if (ConnectError.from(e).code === Code.NotFound) return null;
      throw e;
    }
  }
}

function usernameBase(p: IdentityProviderRecord, profile: UpstreamProfile): string {
  const raw = (profile.username ?? profile.email ?? `${p.alias}.${profile.subject}`).toLowerCase().replace(/[\u0000-\u001f\u007f\s]+/g, "");
  const name = raw.slice(0, 200);
  return name.length >= 2 ? name : `${p.alias}.${profile.subject}`.slice(0, 200);
}

function conflictField(e: unknown): string | undefined {
  const ce = ConnectError.from(e);
  if (ce.code !== Code.AlreadyExists) return undefined;
  return ce.findDetails(ErrorDetailSchema)[0]?.field ?? "username";
}
