import { IamError } from "../../../kit/src/errors.js";
import { isAttributeName, isDistinguishedName } from "./ldap-text.js";
import type { ProviderInput } from "./provider.js";

const MAX_TEXT = 1024;
/** A day: a longer period is a mistake more often than a wish (Keycloak takes any). */
export const MAX_SYNC_PERIOD = 86_400;

/** Spec 2.10's required fields on create (4.11: name, providerType, connectionUrl, bindDn, bindCredential, usersDn). */
export function checkCreateInput(input: ProviderInput): void {
  for (const f of ["name", "providerType", "connectionUrl", "bindDn", "bindCredential", "usersDn"] as const) {
    if (input[f] === undefined || input[f] === "") throw IamError.invalid(f, `${f} is required`);
  }
  checkFields(input);
}

/** Every field sent is checked as on create; a required field cannot be emptied. */
export function checkUpdateInput(input: ProviderInput): void {
  for (const f of ["name", "providerType", "connectionUrl", "bindDn", "bindCredential", "usersDn"] as const) {
    if (input[f] === "") throw IamError.invalid(f, `${f} cannot be empty`);
  }
  checkFields(input);
}

function checkFields(input: ProviderInput): void {
  for (const [k, v] of Object.entries(input)) {
    if (typeof v === "string" && v.length > MAX_TEXT) throw IamError.invalid(k, `${k} is longer than ${MAX_TEXT} characters`);
  }
  if (input.name !== undefined && !input.name.trim()) throw IamError.invalid("name", "name is required");
  if (input.providerType !== undefined && input.providerType !== "ldap") {
    throw IamError.invalid("providerType", 'providerType must be "ldap"');
  }
  if (input.connectionUrl !== undefined) checkConnectionUrl(input.connectionUrl);
  if (input.bindDn !== undefined && !isDistinguishedName(input.bindDn)) {
    throw IamError.invalid("bindDn", "bindDn is not a distinguished name (RFC 4514)");
  }
  if (input.usersDn !== undefined && !isDistinguishedName(input.usersDn)) {
    throw IamError.invalid("usersDn", "usersDn is not a distinguished name (RFC 4514)");
  }
  for (const f of ["userObjectClass", "usernameLdapAttr", "uuidLdapAttr", "emailLdapAttr", "firstNameLdapAttr", "lastNameLdapAttr"] as const) {
    const v = input[f];
    if (v !== undefined && !isAttributeName(v)) throw IamError.invalid(f, `${f} is not an LDAP attribute or object class name`);
  }
  if (input.syncMode !== undefined && input.syncMode !== "IMPORT" && input.syncMode !== "READ_ONLY") {
    throw IamError.invalid("syncMode", "syncMode must be IMPORT or READ_ONLY");
  }
  if (input.vanishedUsers !== undefined && input.vanishedUsers !== "DISABLE" && input.vanishedUsers !== "UNLINK") {
    throw IamError.invalid("vanishedUsers", "vanishedUsers must be DISABLE or UNLINK");
  }
  checkInt(input.priority, "priority", -1_000_000, 1_000_000);
  checkInt(input.syncPeriod, "syncPeriod", 0, MAX_SYNC_PERIOD);
  checkInt(input.changedSyncPeriod, "changedSyncPeriod", 0, MAX_SYNC_PERIOD);
  checkInt(input.connectionTimeout, "connectionTimeout", 1, 300);
}

function checkInt(v: number | undefined, field: string, min: number, max: number): void {
  if (v !== undefined && (!Number.isInteger(v) || v < min || v > max)) {
    throw IamError.invalid(field, `${field} must be an integer from ${min} to ${max}`);
  }
}

/** RFC 4516 scheme, host and port only: ldap:// or ldaps://, no DN, filter or credentials in it. */
function checkConnectionUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw IamError.invalid("connectionUrl", "connectionUrl must be an ldap:// or ldaps:// URL");
  }
  if (url.protocol !== "ldap:" && url.protocol !== "ldaps:") {
    throw IamError.invalid("connectionUrl", "connectionUrl must be an ldap:// or ldaps:// URL");
  }
  if (!url.hostname) throw IamError.invalid("connectionUrl", "connectionUrl must name a host");
  if (url.username || url.password) throw IamError.invalid("connectionUrl", "connectionUrl must not hold credentials");
  if ((url.pathname && url.pathname !== "/") || url.search || url.hash) {
    throw IamError.invalid("connectionUrl", "connectionUrl takes a scheme, host and port only");
  }
}
