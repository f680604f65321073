import type { Doc } from "../../../kit/src/store/port.js";

/** One email domain of an organization (Keycloak's OrganizationDomainRepresentation). */
export interface OrganizationDomain {
  /** Lower-cased: email domains compare case-insensitively (RFC 5321 section 2.4). */
  name: string;
  verified: boolean;
}

/**
 * An organization (spec 1.13, in Keycloak 26's model). `nameKey` and `alias` are unique per realm;
 * its domains are also claimed in `organization_domains`, whose `_id` makes each domain unique
 * across the realm's organizations.
 */
export interface OrganizationRecord extends Doc {
  realmId: string;
  name: string;
  /** The lower-cased name: the unique key and the search key. */
  nameKey: string;
  alias: string;
  description: string;
  enabled: boolean;
  redirectUrl: string;
  domains: OrganizationDomain[];
  attributes: Record<string, string[]>;
  /** Aliases of the broker's identity providers linked to it (identity-first login). */
  identityProviders: string[];
  createdAt: number;
  updatedAt: number;
}

/** The Admin API's representation (proto Organization). */
export interface OrganizationView {
  id: string;
  name: string;
  alias: string;
  enabled: boolean;
  description: string;
  redirectUrl: string;
  domains: OrganizationDomain[];
  attributes?: Record<string, string[]>;
  identityProviders: string[];
}

export function organizationView(o: OrganizationRecord, brief = false): OrganizationView {
  return {
    id: o._id, name: o.name, alias: o.alias, enabled: o.enabled, description: o.description, redirectUrl: o.redirectUrl,
    domains: o.domains.map((d) => ({ name: d.name, verified: d.verified })),
    ...(brief ? {} : { attributes: o.attributes }),
    identityProviders: [...o.identityProviders],
  };
}

/** An organization's own fields, as the outbox's relay compares them after an update. */
export const organizationFields = (o: OrganizationRecord) => organizationView(o);
