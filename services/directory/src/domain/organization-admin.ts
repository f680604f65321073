import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Outbox } from "../../../kit/src/bus/outbox.js";
import type { Clock, Filter } from "../../../kit/src/store/port.js";
import { expectFields, recordWriteKind } from "../../../kit/src/events/audited-write.js";
import { auditedWrite } from "./audited-write.js";
import type { RealmRecord } from "./realm.js";
import type { OrganizationRealms } from "./organization-realms.js";
import { organizationFields, organizationView, type OrganizationRecord, type OrganizationView } from "./organization.js";
import {
  aliasFromName, checkAlias, checkDescription, checkDomains, checkIdentityProviders, checkOrganizationAttributes,
  checkOrganizationName, checkPage, checkRedirectUrl, emailDomain, type OrganizationInput,
} from "./organization-rules.js";
import type { OrganizationRepository } from "../store/organization-repository.js";
import type { OrganizationDomainRepository } from "../store/organization-domain-repository.js";
import type { OrganizationMemberRepository } from "../store/organization-member-repository.js";
import type { OrganizationRoleRepository } from "../store/organization-role-repository.js";

export const DEFAULT_ORGANIZATIONS_MAX = 10;
export const MAX_ORGANIZATIONS_MAX = 1000;

export interface OrganizationQuery {
  search?: string;
  exact?: boolean;
  first?: number;
  max?: number;
  brief?: boolean;
}

/**
 * Organizations of a realm (spec 1.13, Keycloak 26's Organizations): create, search, read,
 * update, delete. Every write is audited (ORGANIZATION admin events, staged in the outbox with
 * the write). Email domains are claimed in their own collection, unique per realm (409 when
 * another organization holds one).
 */
export class OrganizationAdmin {
  /** Set where organization roles are wired: deleting an organization or a realm drops its roles. */
  roleRepo?: Pick<OrganizationRoleRepository, "deleteOrganization" | "deleteRealm">;
  /** Set where members are wired: deletes the MANAGED members' accounts of an organization being deleted. */
  removeManagedMembers?: (realm: RealmRecord, organizationId: string) => Promise<void>;
  private readonly kind = recordWriteKind("directory.organization", (realmId, id) => this.repo.findById(realmId, id), organizationFields);

  constructor(
    private readonly realms: OrganizationRealms,
    private readonly repo: OrganizationRepository,
    private readonly domains: OrganizationDomainRepository,
    private readonly members: OrganizationMemberRepository,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.kind);
  }

  async create(realmName: string, input: OrganizationInput): Promise<OrganizationView> {
    const realm = await this.realms.byName(realmName);
    const name = checkOrganizationName(input.name);
    const alias = input.alias !== undefined && input.alias.trim() !== "" ? checkAlias(input.alias) : aliasFromName(name);
    const now = this.clock.now();
    const org: OrganizationRecord = {
      _id: randomUUID(), realmId: realm._id, name, nameKey: name.toLowerCase(), alias,
      description: checkDescription(input.description ?? ""), enabled: input.enabled ?? true,
      redirectUrl: checkRedirectUrl(input.redirectUrl ?? ""),
      domains: input.domains === undefined || input.domains === null ? [] : checkDomains(input.domains),
      attributes: checkOrganizationAttributes(input.attributes ?? null),
      identityProviders: input.identityProviders === undefined || input.identityProviders === null ? [] : checkIdentityProviders(input.identityProviders),
      createdAt: now, updatedAt: now,
    };
    await this.refuseTaken(realm, org);
    const view = organizationView(org);
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, id: org._id, expect: "present" },
      { operationType: "CREATE", resourceType: "ORGANIZATION", path: `organizations/${org._id}`, representation: view }, async () => {
        await this.claimDomains(realm, org._id, org.domains.map((d) => d.name));
        try {
          await this.repo.insert(org);
        } catch (e) {
          await this.domains.release(realm._id, org._id, org.domains.map((d) => d.name));
          if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict("an organization with this name or alias already exists", "name");
          throw e;
        }
        return true;
      });
    return view;
  }

  async list(realmName: string, q: OrganizationQuery): Promise<OrganizationView[]> {
    const realm = await this.realms.byName(realmName);
    const { skip, limit } = checkPage(q.first, q.max, DEFAULT_ORGANIZATIONS_MAX, MAX_ORGANIZATIONS_MAX);
    const filter = await this.searchFilter(realm, q);
    return (await this.repo.page(realm._id, filter, skip, limit)).map((o) => organizationView(o, q.brief === true));
  }

  async count(realmName: string, q: OrganizationQuery): Promise<number> {
    const realm = await this.realms.byName(realmName);
    return this.repo.count(realm._id, await this.searchFilter(realm, q));
  }

  async get(realmName: string, id: string): Promise<OrganizationView> {
    const realm = await this.realms.byName(realmName);
    return organizationView(await this.find(realm, id));
  }

  /**
   * Changes the fields sent (a Keycloak client sends the whole representation back, which reads
   * the same). The alias is fixed at creation: tokens and scopes name the organization by it.
   */
  async update(realmName: string, id: string, input: OrganizationInput): Promise<OrganizationView> {
    const realm = await this.realms.byName(realmName);
    const current = await this.find(realm, id);
    if (input.id !== undefined && input.id !== id) throw IamError.invalid("id", "id does not match the organization of the path");
    if (input.alias !== undefined && input.alias !== current.alias) throw IamError.invalid("alias", "alias cannot be changed");
    const set: Partial<OrganizationRecord> = { updatedAt: this.clock.now() };
    if (input.name !== undefined) {
      set.name = checkOrganizationName(input.name);
      set.nameKey = set.name.toLowerCase();
    }
    if (input.description !== undefined) set.description = checkDescription(input.description);
    if (input.enabled !== undefined) set.enabled = input.enabled;
    if (input.redirectUrl !== undefined) set.redirectUrl = checkRedirectUrl(input.redirectUrl);
    if (input.attributes !== undefined && input.attributes !== null) set.attributes = checkOrganizationAttributes(input.attributes);
    if (input.domains !== undefined && input.domains !== null) set.domains = checkDomains(input.domains);
    if (input.identityProviders !== undefined && input.identityProviders !== null) set.identityProviders = checkIdentityProviders(input.identityProviders);
    const after: OrganizationRecord = { ...current, ...set };
    if (set.nameKey !== undefined && set.nameKey !== current.nameKey) await this.refuseTaken(realm, after);
    const before = new Set(current.domains.map((d) => d.name));
    const now = new Set(after.domains.map((d) => d.name));
    const added = [...now].filter((d) => !before.has(d));
    const dropped = [...before].filter((d) => !now.has(d));
    const view = organizationView(after);
    const updated = await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, id, expect: expectFields(organizationFields, after) },
      { operationType: "UPDATE", resourceType: "ORGANIZATION", path: `organizations/${id}`, representation: view }, async () => {
        await this.claimDomains(realm, id, added);
        let done;
        try {
          done = await this.repo.update(realm._id, id, set);
        } catch (e) {
          await this.domains.release(realm._id, id, added);
          if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict("an organization with this name already exists", "name");
          throw e;
        }
        if (!done) {
          await this.domains.release(realm._id, id, added);
          return false;
        }
        await this.domains.release(realm._id, id, dropped);
        return true;
      });
    if (!updated) throw IamError.notFound(`organization "${id}"`, "organization_not_found");
    return view;
  }

  /**
   * Deletes the organization, its memberships and its domains. Its UNMANAGED members' accounts
   * stay; its MANAGED members' accounts are deleted first, as Keycloak 26 does (their lifecycle
   * is the organization's), so a failure part-way leaves the organization to delete again.
   */
  async delete(realmName: string, id: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    await this.find(realm, id);
    await this.removeManagedMembers?.(realm, id);
    const deleted = await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, id, expect: "absent" },
      { operationType: "DELETE", resourceType: "ORGANIZATION", path: `organizations/${id}` }, async () => {
        const gone = await this.repo.delete(realm._id, id);
        // Also when another delete won the race: what it may not have reached yet goes here.
        await this.members.deleteOrganization(realm._id, id);
        await this.domains.deleteOrganization(realm._id, id);
        await this.roleRepo?.deleteOrganization(realm._id, id);
        return gone;
      });
    if (!deleted) throw IamError.notFound(`organization "${id}"`, "organization_not_found");
  }

  /**
   * The identity-first login's question (organization-routing in the gateway): which enabled
   * organization owns the email's domain. Only a verified domain routes a user: an admin's
   * unverified claim on a domain must not send its users to another organization's provider.
   */
  async findByEmail(realmName: string, email: string): Promise<OrganizationRecord | null> {
    // Keycloak's organization authenticator steps aside while the realm's switch is off.
    const realm = await this.realms.inEffect(realmName);
    const domain = emailDomain(email);
    if (!realm || !domain) return null;
    const claim = await this.domains.holderOf(realm._id, domain);
    const org = claim ? await this.repo.findById(realm._id, claim.organizationId) : null;
    if (!org || !org.enabled || !org.domains.some((d) => d.name === domain && d.verified)) return null;
    return org;
  }

  async deleteRealm(realmId: string): Promise<number> {
    return (await this.repo.deleteRealm(realmId)) + (await this.domains.deleteRealm(realmId)) + (await this.members.deleteRealm(realmId))
      + ((await this.roleRepo?.deleteRealm(realmId)) ?? 0);
  }

  async find(realm: RealmRecord, id: string): Promise<OrganizationRecord> {
    const org = await this.repo.findById(realm._id, id);
    if (!org) throw IamError.notFound(`organization "${id}"`, "organization_not_found");
    return org;
  }

  /** Keycloak's search: the name or a domain, a substring (case-insensitive) or, with `exact`, equal. */
  private async searchFilter(realm: RealmRecord, q: OrganizationQuery): Promise<Filter> {
    const text = (q.search ?? "").trim();
    if (!text) return {};
    const key = text.toLowerCase();
    const byDomain = await this.domains.organizationsMatching(realm._id, key, q.exact === true);
    const byName: Filter = { nameKey: q.exact ? key : { $contains: key } };
    return byDomain.length ? { $or: [byName, { _id: { $in: byDomain } }] } : byName;
  }

  /** A readable 409 for a taken name or alias; the unique indexes still decide a race. */
  private async refuseTaken(realm: RealmRecord, org: OrganizationRecord): Promise<void> {
    const sameName = await this.repo.page(realm._id, { nameKey: org.nameKey }, 0, 1);
    if (sameName.some((o) => o._id !== org._id)) throw IamError.conflict(`an organization named "${org.name}" already exists`, "name");
    const sameAlias = await this.repo.findByAlias(realm._id, org.alias);
    if (sameAlias && sameAlias._id !== org._id) throw IamError.conflict(`an organization with alias "${org.alias}" already exists`, "alias");
  }

  private async claimDomains(realm: RealmRecord, id: string, names: string[]): Promise<void> {
    const taken = await this.domains.claim(realm._id, id, names);
    if (taken) throw IamError.conflict(`domain "${taken}" is already linked to another organization`, "domains");
  }
}
