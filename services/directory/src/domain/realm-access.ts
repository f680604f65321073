import type { RealmRecord } from "./realm.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { RealmDefaults } from "./realm-defaults.js";

/** Resolves a realm by name for clients, roles and scopes, seeding its defaults on first use. */
export class RealmAccess {
  constructor(private readonly lookup: RealmLookup, private readonly defaults: RealmDefaults) {}

  async byName(name: string): Promise<RealmRecord> {
    const realm = await this.lookup.byName(name);
    await this.defaults.ensure(realm);
    return realm;
  }

  /** As byName, from the store past the realm cache (RealmRepository.findCurrentByName). */
  async current(name: string): Promise<RealmRecord> {
    const realm = await this.lookup.current(name);
    await this.defaults.ensure(realm);
    return realm;
  }
}
