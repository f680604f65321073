import { jsonTimestamp } from "../../../kit/src/json-timestamp.js";

export type SyncMode = "IMPORT" | "READ_ONLY";
/** What a full sync does with a linked user whose entry left LDAP. */
export type VanishedUsers = "DISABLE" | "UNLINK";

export interface SyncResultRecord {
  created: number;
  updated: number;
  failed: number;
  removed: number;
  finishedAt: number;
}

/**
 * An LDAP provider of a realm (spec 2.10) as stored. `bindCredential` is sealed under the master
 * key (DESIGN 5; aad = provider id) and appears in no view. `nextSyncAt` / `leaseHolder` /
 * `leaseUntil` are the periodic sync's schedule and lease (sync-lease.ts), outside the view.
 */
export interface ProviderRecord {
  [key: string]: unknown;
  _id: string;
  realmId: string;
  realm: string;
  name: string;
  nameKey: string;
  providerType: "ldap";
  enabled: boolean;
  priority: number;
  connectionUrl: string;
  bindDn: string;
  bindCredential: string;
  usersDn: string;
  userObjectClass: string;
  usernameLdapAttr: string;
  uuidLdapAttr: string;
  emailLdapAttr: string;
  firstNameLdapAttr: string;
  lastNameLdapAttr: string;
  syncMode: SyncMode;
  syncPeriod: number;
  /** Changed-entries sync every N seconds (Keycloak's changedSyncPeriod); 0 = off. */
  changedSyncPeriod: number;
  importEnabled: boolean;
  connectionTimeout: number;
  vanishedUsers: VanishedUsers;
  createdAt: number;
  updatedAt: number;
  lastSync?: SyncResultRecord;
  /** Epoch ms of the next periodic sync; 0 when periodic sync is off. */
  nextSyncAt: number;
  /** Epoch ms of the next changed-entries sync; 0 when off. */
  nextChangedSyncAt: number;
  /** When the last successful sync (full or changed) started: a changed sync reads entries modified since. */
  lastSyncStartedAt?: number;
  leaseHolder?: string;
  leaseUntil?: number;
}

export interface ProviderInput {
  name?: string;
  providerType?: string;
  enabled?: boolean;
  priority?: number;
  connectionUrl?: string;
  bindDn?: string;
  bindCredential?: string;
  usersDn?: string;
  userObjectClass?: string;
  usernameLdapAttr?: string;
  uuidLdapAttr?: string;
  emailLdapAttr?: string;
  firstNameLdapAttr?: string;
  lastNameLdapAttr?: string;
  syncMode?: string;
  syncPeriod?: number;
  changedSyncPeriod?: number;
  importEnabled?: boolean;
  connectionTimeout?: number;
  vanishedUsers?: string;
}

/**
 * Defaults of spec 2.10 and Keycloak's LDAP mappers: inetOrgPerson, uid, IMPORT; mail, givenName
 * (else cn), sn; entryUUID as the stable id (objectGUID for Active Directory).
 */
export const PROVIDER_DEFAULTS = {
  enabled: true,
  priority: 0,
  userObjectClass: "inetOrgPerson",
  usernameLdapAttr: "uid",
  uuidLdapAttr: "entryUUID",
  emailLdapAttr: "mail",
  firstNameLdapAttr: "givenName",
  lastNameLdapAttr: "sn",
  syncMode: "IMPORT" as SyncMode,
  syncPeriod: 0,
  changedSyncPeriod: 0,
  importEnabled: true,
  connectionTimeout: 10,
  vanishedUsers: "DISABLE" as VanishedUsers,
};

/**
 * A new provider's record from a checked create input (checkCreateInput), the defaults filled
 * in and the periodic syncs scheduled. Shared by the Admin API's create and the realm import.
 */
export function newProviderRecord(
  input: ProviderInput, at: { id: string; realmId: string; realm: string }, bindCredentialSealed: string, now: number,
): ProviderRecord {
  const d = PROVIDER_DEFAULTS;
  const syncPeriod = input.syncPeriod ?? d.syncPeriod;
  const changedSyncPeriod = input.changedSyncPeriod ?? d.changedSyncPeriod;
  return {
    _id: at.id,
    realmId: at.realmId,
    realm: at.realm,
    name: (input.name as string).trim(),
    nameKey: (input.name as string).trim().toLowerCase(),
    providerType: "ldap",
    enabled: input.enabled ?? d.enabled,
    priority: input.priority ?? d.priority,
    connectionUrl: input.connectionUrl as string,
    bindDn: input.bindDn as string,
    bindCredential: bindCredentialSealed,
    usersDn: input.usersDn as string,
    userObjectClass: input.userObjectClass ?? d.userObjectClass,
    usernameLdapAttr: input.usernameLdapAttr ?? d.usernameLdapAttr,
    uuidLdapAttr: input.uuidLdapAttr ?? d.uuidLdapAttr,
    emailLdapAttr: input.emailLdapAttr ?? d.emailLdapAttr,
    firstNameLdapAttr: input.firstNameLdapAttr ?? d.firstNameLdapAttr,
    lastNameLdapAttr: input.lastNameLdapAttr ?? d.lastNameLdapAttr,
    syncMode: (input.syncMode as SyncMode | undefined) ?? d.syncMode,
    syncPeriod,
    changedSyncPeriod,
    importEnabled: input.importEnabled ?? d.importEnabled,
    connectionTimeout: input.connectionTimeout ?? d.connectionTimeout,
    vanishedUsers: (input.vanishedUsers as VanishedUsers | undefined) ?? d.vanishedUsers,
    createdAt: now,
    updatedAt: now,
    nextSyncAt: syncPeriod > 0 ? now + syncPeriod * 1000 : 0,
    nextChangedSyncAt: changedSyncPeriod > 0 ? now + changedSyncPeriod * 1000 : 0,
  };
}

/** The associated data binding a sealed bind credential to its provider (DESIGN 5). */
export function bindCredentialAad(id: string): string {
  return `federation-provider:${id}:bindCredential`;
}

/** The provider as the Admin API shows it: never the bind credential, nor the lease. */
export function providerView(p: ProviderRecord) {
  return {
    id: p._id,
    name: p.name,
    providerType: p.providerType,
    enabled: p.enabled,
    priority: p.priority,
    connectionUrl: p.connectionUrl,
    bindDn: p.bindDn,
    usersDn: p.usersDn,
    userObjectClass: p.userObjectClass,
    usernameLdapAttr: p.usernameLdapAttr,
    uuidLdapAttr: p.uuidLdapAttr,
    emailLdapAttr: p.emailLdapAttr,
    firstNameLdapAttr: p.firstNameLdapAttr,
    lastNameLdapAttr: p.lastNameLdapAttr,
    syncMode: p.syncMode,
    syncPeriod: p.syncPeriod,
    changedSyncPeriod: p.changedSyncPeriod,
    importEnabled: p.importEnabled,
    connectionTimeout: p.connectionTimeout,
    vanishedUsers: p.vanishedUsers,
    createdAt: jsonTimestamp(p.createdAt),
    updatedAt: jsonTimestamp(p.updatedAt),
    ...(p.lastSync ? { lastSync: { ...p.lastSync, finishedAt: jsonTimestamp(p.lastSync.finishedAt) } } : {}),
  };
}

/** What an update's admin-event check compares (the admin's fields, not the sync state). */
export function providerFields(p: ProviderRecord) {
  const { lastSync: _l, createdAt: _c, ...view } = providerView(p);
  return { ...view, bindCredential: p.bindCredential };
}
