import type { ServiceProviderRecord } from "../domain/service-provider.js";
import type { DirectoryReader, SamlUser } from "./user-profile.js";

/** The attribute that carries the user's roles when the SP maps none itself. */
export const DEFAULT_ROLE_ATTRIBUTE = "Role";

/**
 * The AttributeStatement (SAML 2.0 core 2.7.3) of an assertion: one Attribute per entry of the
 * SP's attributeStatements (name -> source, see sp-rules.ts), plus the user's roles as "Role"
 * when no mapping already carries them. Values are plain strings; escaping is the DOM's job.
 * `attribute:<name>` sources yield no value: the directory's User message exposes no custom
 * attributes yet.
 */
export async function assertionAttributes(
  sp: ServiceProviderRecord, user: SamlUser, realm: string, directory: DirectoryReader,
): Promise<Array<[string, string[]]>> {
  let roles: Promise<string[]> | undefined;
  let groups: Promise<string[]> | undefined;
  const rolesOnce = () => (roles ??= directory.roleNames(realm, user.id));
  const groupsOnce = () => (groups ??= directory.groupPaths(realm, user.id));
  const out: Array<[string, string[]]> = [];
  const mapped = Object.entries(sp.attributeStatements ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, source] of mapped) {
    out.push([name, await valuesOf(source, user, rolesOnce, groupsOnce)]);
  }
  if (!mapped.some(([, source]) => source === "roles") && !mapped.some(([name]) => name === DEFAULT_ROLE_ATTRIBUTE)) {
    out.push([DEFAULT_ROLE_ATTRIBUTE, await rolesOnce()]);
  }
  return out;
}

async function valuesOf(
  source: string, user: SamlUser, roles: () => Promise<string[]>, groups: () => Promise<string[]>,
): Promise<string[]> {
  const one = (v: string) => (v ? [v] : []);
  switch (source) {
    case "username": return one(user.username);
    case "email": return one(user.email);
    case "firstName": return one(user.firstName);
    case "lastName": return one(user.lastName);
    case "roles": return roles();
    case "groups": return groups();
    default: return [];
  }
}
