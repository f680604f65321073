import type { Entry } from "ldapts";
import type { ProviderRecord } from "./provider.js";

/** An LDAP entry as a user: the provider's attribute mappings applied (Keycloak's default mappers). */
export interface MappedEntry {
  externalId: string;
  dn: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
}

export function attributesToRead(p: ProviderRecord): string[] {
  return [...new Set([p.usernameLdapAttr, p.uuidLdapAttr, p.emailLdapAttr, p.firstNameLdapAttr, "cn", p.lastNameLdapAttr, "modifyTimestamp"])];
}

/** Why an entry cannot be a user; counted as failed by the sync, never aborting it. */
export class UnmappableEntry extends Error {}

/**
 * Maps one entry. The stable id is the provider's uuid attribute: entryUUID (RFC 4530) as text,
 * or Active Directory's objectGUID, a 16-byte little-endian GUID shown in its usual string form.
 * The first name is givenName, else cn (as Keycloak's default mapper for inetOrgPerson).
 */
export function mapEntry(p: ProviderRecord, e: Entry): MappedEntry {
  const username = first(e, p.usernameLdapAttr);
  if (!username) throw new UnmappableEntry(`entry "${e.dn}" has no ${p.usernameLdapAttr}`);
  const externalId = stableId(e, p.uuidLdapAttr);
  if (!externalId) throw new UnmappableEntry(`entry "${e.dn}" has no ${p.uuidLdapAttr}`);
  return {
    externalId,
    dn: e.dn,
    username,
    email: first(e, p.emailLdapAttr),
    firstName: first(e, p.firstNameLdapAttr) || first(e, "cn"),
    lastName: first(e, p.lastNameLdapAttr),
  };
}

function value(e: Entry, attr: string): Entry[string] | undefined {
  if (attr in e) return e[attr];
  const key = Object.keys(e).find((k) => k.toLowerCase() === attr.toLowerCase());
  return key === undefined ? undefined : e[key];
}

function first(e: Entry, attr: string): string {
  const v = value(e, attr);
  const one = Array.isArray(v) ? v[0] : v;
  if (one === undefined) return "";
  return Buffer.isBuffer(one) ? one.toString("utf8") : String(one);
}

function stableId(e: Entry, attr: string): string {
  const v = value(e, attr);
  const one = Array.isArray(v) ? v[0] : v;
  if (one === undefined) return "";
  if (Buffer.isBuffer(one)) return one.length === 16 ? guidString(one) : one.toString("hex");
  return String(one).toLowerCase();
}

/** objectGUID bytes -> "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (first three groups little-endian, as AD shows it). */
export function guidString(b: Buffer): string {
  const h = (i: number) => b[i]!.toString(16).padStart(2, "0");
  const le = (idx: number[]) => idx.map(h).join("");
  return `${le([3, 2, 1, 0])}-${le([5, 4])}-${le([7, 6])}-${le([8, 9])}-${le([10, 11, 12, 13, 14, 15])}`;
}
