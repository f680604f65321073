import { IamError } from "../../../kit/src/errors.js";
import { organizationsEnabledOf, type RealmRecord } from "./realm.js";
import type { RealmLookup } from "./realm-lookup.js";

/** Keycloak 26's message (Organizations.checkEnabled) when a realm's organizations are off. */
export const ORGANIZATIONS_NOT_ENABLED = "Organizations not enabled for this realm.";

/**
 * Keycloak answers 404 with this message on every path under `/organizations` while the realm's
 * `organizationsEnabled` is false: the tag is absent rather than refused, so the status is
 * NOT_FOUND, not 400 or 403.
 */
export function organizationsNotEnabled(): IamError {
  return new IamError({ code: "notFound", reason: "organizations_not_enabled", message: ORGANIZATIONS_NOT_ENABLED });
}

/**
 * The realm of an organization operation, with Keycloak 26's realm switch applied: the Admin API
 * and the invitation link are refused while it is off (`byName`), and what happens at login
 * (identity-first routing by email domain, joining organizations at a first broker login) simply
 * does not happen (`inEffect`), as Keycloak's `isEnabledAndOrganizationsPresent` guards do. The
 * organizations themselves stay stored: turning the switch on again brings them back as they were.
 */
export class OrganizationRealms {
  constructor(private readonly lookup: Pick<RealmLookup, "byName">) {}

  /** The realm, or 404 `realm_not_found`, or 404 `organizations_not_enabled` while the switch is off. */
  async byName(name: string): Promise<RealmRecord> {
    const realm = await this.lookup.byName(name);
    if (!organizationsEnabledOf(realm)) throw organizationsNotEnabled();
    return realm;
  }

  /** The realm while its organizations are in effect; null while the switch is off. */
  async inEffect(name: string): Promise<RealmRecord | null> {
    const realm = await this.lookup.byName(name);
    return organizationsEnabledOf(realm) ? realm : null;
  }
}
