import { IamError } from "../../../kit/src/errors.js";
import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/**
 * The claim of an email domain by one organization. `_id` is `<realmId>:<domain>`, so two
 * organizations of a realm can never hold the same domain, whatever the interleaving of their
 * writes: the second insert is refused by the store (a conditional write, not read-then-write).
 */
export interface DomainClaim extends Doc {
  realmId: string;
  organizationId: string;
  name: string;
}

export class OrganizationDomainRepository {
  private constructor(private readonly claims: Collection<DomainClaim>) {}

  static async open(store: Store): Promise<OrganizationDomainRepository> {
    return new OrganizationDomainRepository(await store.collection<DomainClaim>({
      name: "organization_domains",
      indexes: [{ fields: ["realmId", "organizationId"] }, { fields: ["realmId", "name"] }],
    }));
  }

  static idOf(realmId: string, name: string): string {
    return `${realmId}:${name}`;
  }

  /**
   * Claims each domain for the organization; a domain the organization already holds is kept. On
   * the first domain another organization holds, what this call claimed is released and the name of
   * that domain is returned.
   */
  async claim(realmId: string, organizationId: string, names: string[]): Promise<string | null> {
    const taken: string[] = [];
    for (const name of names) {
      try {
        await this.claims.insert({ _id: OrganizationDomainRepository.idOf(realmId, name), realmId, organizationId, name });
        taken.push(name);
      } catch (e) {
        if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
        const holder = await this.claims.get(OrganizationDomainRepository.idOf(realmId, name));
        if (holder?.organizationId === organizationId) continue;
        await this.release(realmId, organizationId, taken);
        return name;
      }
    }
    return null;
  }

  /** Releases the organization's claims on these domains (never another organization's). */
  async release(realmId: string, organizationId: string, names: string[]): Promise<void> {
    if (!names.length) return;
    await this.claims.deleteMany({ realmId, organizationId, _id: { $in: names.map((n) => OrganizationDomainRepository.idOf(realmId, n)) } });
  }

  holderOf(realmId: string, name: string): Promise<DomainClaim | null> {
    return this.claims.get(OrganizationDomainRepository.idOf(realmId, name)).then((c) => (c && c.realmId === realmId ? c : null));
  }

  /** Ids of the organizations holding a domain containing `text` (or equal to it with `exact`). */
  async organizationsMatching(realmId: string, text: string, exact: boolean): Promise<string[]> {
    const found = await this.claims.find({ realmId, name: exact ? text.toLowerCase() : { $contains: text } }, { limit: 1000 });
    return [...new Set(found.map((c) => c.organizationId))];
  }

  deleteOrganization(realmId: string, organizationId: string): Promise<number> {
    return this.claims.deleteMany({ realmId, organizationId });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.claims.deleteMany({ realmId });
  }
}
