import type { OAuthRealm, RealmSettings } from "../domain/realm-settings.js";

/** What the browser flow needs of a realm (owned by the directory): the token service's cached settings. */
export type FlowRealm = OAuthRealm;

/** Realm lookups of the browser flow, through the same cache (and invalidation) as the token endpoint. */
export class FlowRealms {
  constructor(private readonly settings: RealmSettings) {}

  /** The enabled realm, or null when unknown or disabled. */
  async get(name: string): Promise<FlowRealm | null> {
    const realm = name ? await this.settings.find(name) : null;
    return realm && realm.enabled ? realm : null;
  }
}

/** The issuer of a realm (spec 4.17): {base_url}/realms/{realm}. */
export function issuerOf(baseUrl: string, realm: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/realms/${realm}`;
}
