import { z } from "zod";
import { IamError } from "../../../kit/src/errors.js";
import {
  authenticationFlowSchema, clientSchema, clientScopeSchema, groupSchema, jsonPath, organizationSchema, realmSettingsSchema, roleSchema, userSchema,
  type ClientDoc, type GroupDoc, type Problem, type RealmSettingsDoc, type UserDoc,
} from "../../../kit/src/realm-transfer/document-schema.js";
import { checkRealmFields, checkRealmName } from "./realm-rules.js";
import { checkAlias, checkDomains, checkOrganizationName, checkOrganizationRoleName, checkRedirectUrl } from "./organization-rules.js";
import { checkAttributes, checkOptionalEmail, checkUserFields, checkUsername } from "./user-rules.js";
import { checkProfileConsistency } from "./client-profile.js";
import { resolveAuthMethod } from "./client-auth-method.js";
import { checkBackchannelUri, checkClientId, checkJwks, checkGrantTypes, checkRedirectUri, checkTypeAndGrants, checkTokenExchange, checkUriList, checkWebOrigin } from "./client-rules.js";
import { hashFormat } from "./stored-hash.js";
import type { PluginRegistry } from "../../../kit/src/plugins/plugin-registry.js";
import { MAPPER_TYPES, checkMapperConfig, checkMapperType } from "./mapper-rules.js";
import type { TransferCollection } from "../store/realm-transfer-repository.js";
import { checkFlowsPart } from "./realm-import-flows-check.js";

/** The directory's sections of a realm document (the gateway sends only these). */
export const directoryPartSchema = z.strictObject({
  realm: realmSettingsSchema,
  roles: z.array(roleSchema),
  clientScopes: z.array(clientScopeSchema),
  clients: z.array(clientSchema),
  groups: z.array(groupSchema),
  organizations: z.array(organizationSchema).optional(),
  authenticationFlows: z.array(authenticationFlowSchema).optional(),
  users: z.array(userSchema).optional(),
});
export type DirectoryPart = z.infer<typeof directoryPartSchema>;

/** Ids the document asks to keep, per collection, with where each is named (for collision problems). */
export type KeptIds = Map<TransferCollection, Map<string, string>>;

/**
 * Checks the directory's part of an imported realm document, all of it, before anything is written
 * (spec 4.1 import): the same rules as the Admin API's creates (realm-rules, client-rules,
 * user-rules), names unique where the store makes them unique, every reference resolvable (scope
 * and role names, client slugs, group paths), password hashes in a verifiable format, and ids
 * unique within the document. Each problem carries its JSON path; none stops the others.
 */
export function checkDirectoryPart(raw: unknown, plugins?: PluginRegistry): { part?: DirectoryPart; problems: Problem[]; ids: KeptIds } {
  const ids: KeptIds = new Map();
  const parsed = directoryPartSchema.safeParse(raw);
  if (!parsed.success) return { problems: parsed.error.issues.map((i) => ({ path: jsonPath(i.path), message: i.message })), ids };
  const part = parsed.data;
  const problems: Problem[] = [];
  const at = (path: string, fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      if (!(e instanceof IamError)) throw e;
      problems.push({ path: e.field && !path.endsWith(`.${e.field}`) ? `${path}.${e.field}` : path, message: e.message });
    }
  };
  const keep = (col: TransferCollection, id: string, path: string) => {
    const seen = ids.get(col) ?? new Map<string, string>();
    ids.set(col, seen);
    if (seen.has(id)) problems.push({ path: `${path}.id`, message: `id "${id}" is also used at ${seen.get(id)}` });
    else seen.set(id, path);
  };
  const unique = () => {
    const seen = new Map<string, string>();
    return (key: string, path: string, what: string) => {
      if (seen.has(key)) problems.push({ path, message: `${what} is also used at ${seen.get(key)}` });
      else seen.set(key, path);
    };
  };

  checkSettings(part.realm, at);

  const realmRoles = new Set<string>();
  const roleName = unique();
  part.roles.forEach((r, i) => {
    keep("roles", r.id, `$.roles[${i}]`);
    roleName(r.name, `$.roles[${i}].name`, `role "${r.name}"`);
    realmRoles.add(r.name);
  });

  const scopes = new Set<string>();
  const scopeName = unique();
  part.clientScopes.forEach((s, i) => {
    keep("client_scopes", s.id, `$.clientScopes[${i}]`);
    scopeName(s.name, `$.clientScopes[${i}].name`, `client scope "${s.name}"`);
    scopes.add(s.name);
    const mapperName = unique();
    s.protocolMappers.forEach((m, j) => {
      keep("protocol_mappers", m.id, `$.clientScopes[${i}].protocolMappers[${j}]`);
      const mp = `$.clientScopes[${i}].protocolMappers[${j}]`;
      mapperName(m.name, `${mp}.name`, `mapper "${m.name}"`);
      at(mp, () => checkMapperType(m.mapperType, plugins));
      if (MAPPER_TYPES[m.mapperType] || plugins?.mapper(m.mapperType)) at(mp, () => checkMapperConfig(m.mapperType, m.config, plugins));
    });
  });

  const clientRoles = new Map<string, Set<string>>();
  const clientSlug = unique();
  const usernames = unique();
  part.clients.forEach((c, i) => {
    const p = `$.clients[${i}]`;
    keep("clients", c.id, p);
    clientSlug(c.clientId, `${p}.clientId`, `clientId "${c.clientId}"`);
    checkClient(c, p, at);
    const roles = new Set<string>();
    const name = unique();
    c.roles.forEach((r, j) => {
      keep("roles", r.id, `${p}.roles[${j}]`);
      name(r.name, `${p}.roles[${j}].name`, `role "${r.name}"`);
      roles.add(r.name);
    });
    clientRoles.set(c.clientId, roles);
    for (const kind of ["defaultClientScopes", "optionalClientScopes"] as const) {
      c[kind].forEach((s, j) => { if (!scopes.has(s)) problems.push({ path: `${p}.${kind}[${j}]`, message: `no client scope "${s}" in clientScopes` }); });
    }
    const both = c.defaultClientScopes.filter((s) => c.optionalClientScopes.includes(s));
    if (both.length) problems.push({ path: `${p}.optionalClientScopes`, message: `scope(s) ${both.join(", ")} are both default and optional` });
    if (c.serviceAccount) {
      keep("users", c.serviceAccount.id, `${p}.serviceAccount`);
      usernames(c.serviceAccount.username.toLowerCase(), `${p}.serviceAccount.username`, `username "${c.serviceAccount.username}"`);
    }
  });
  const roleRefs = (p: string, realm: string[], client: Record<string, string[]>) => {
    realm.forEach((r, j) => { if (!realmRoles.has(r)) problems.push({ path: `${p}.realmRoles[${j}]`, message: `no realm role "${r}" in roles` }); });
    for (const [slug, names] of Object.entries(client)) {
      const roles = clientRoles.get(slug);
      if (!roles) problems.push({ path: `${p}.clientRoles${jsonPath([slug]).slice(1)}`, message: `no client "${slug}" in clients` });
      else names.forEach((r, j) => { if (!roles.has(r)) problems.push({ path: `${p}.clientRoles${jsonPath([slug, j]).slice(1)}`, message: `client "${slug}" has no role "${r}"` }); });
    }
  };
  part.clients.forEach((c, i) => { if (c.serviceAccount) roleRefs(`$.clients[${i}].serviceAccount`, c.serviceAccount.realmRoles, c.serviceAccount.clientRoles); });
  // A composite names roles as holders do.
  part.roles.forEach((r, i) => { if (r.composites) roleRefs(`$.roles[${i}].composites`, r.composites.realmRoles, r.composites.clientRoles); });
  part.clients.forEach((c, i) => c.roles.forEach((r, j) => {
    if (r.composites) roleRefs(`$.clients[${i}].roles[${j}].composites`, r.composites.realmRoles, r.composites.clientRoles);
  }));

  const groupPaths = new Set<string>();
  const walk = (groups: GroupDoc[], parent: string, p: string) => {
    const sibling = unique();
    groups.forEach((g, i) => {
      const gp = `${p}[${i}]`;
      keep("groups", g.id, gp);
      if (g.name.includes("/")) problems.push({ path: `${gp}.name`, message: "a group name must not contain /" });
      sibling(g.name, `${gp}.name`, `group "${g.name}"`);
      const path = `${parent}/${g.name}`;
      groupPaths.add(path);
      if (g.attributes) at(`${gp}.attributes`, () => checkAttributes(g.attributes));
      roleRefs(gp, g.realmRoles, g.clientRoles);
      walk(g.subGroups, path, `${gp}.subGroups`);
    });
  };
  walk(part.groups, "", "$.groups");

  // Organizations: the Admin API's rules, names, aliases and domains unique in the realm.
  const orgNames = unique(), aliases = new Set<string>(), orgAliases = unique(), domains = unique();
  const orgRoles = new Map<string, Set<string>>();
  (part.organizations ?? []).forEach((o, i) => {
    const p = `$.organizations[${i}]`;
    keep("organizations", o.id, p);
    at(`${p}.name`, () => checkOrganizationName(o.name));
    at(`${p}.alias`, () => checkAlias(o.alias));
    at(`${p}.redirectUrl`, () => checkRedirectUrl(o.redirectUrl ?? ""));
    at(`${p}.domains`, () => checkDomains(o.domains));
    orgNames(o.name.trim().toLowerCase(), `${p}.name`, `organization name "${o.name}"`);
    orgAliases(o.alias, `${p}.alias`, `alias "${o.alias}"`);
    aliases.add(o.alias);
    o.domains.forEach((d, j) => domains(d.name.trim().toLowerCase(), `${p}.domains[${j}].name`, `domain "${d.name}"`));
    const roleNames = unique();
    orgRoles.set(o.alias, new Set((o.roles ?? []).map((r) => r.name)));
    (o.roles ?? []).forEach((r, j) => {
      at(`${p}.roles[${j}].name`, () => checkOrganizationRoleName(r.name));
      roleNames(r.name, `${p}.roles[${j}].name`, `role "${r.name}"`);
    });
  });

  checkFlowsPart(part, problems, at, keep);

  const emails = unique();
  // A passkey's credential id is unique in its realm (an assertion names only it).
  const credentialIds = unique();
  (part.users ?? []).forEach((u, i) => {
    const p = `$.users[${i}]`;
    keep("users", u.id, p);
    u.credentials.forEach((c, j) => {
      if (c.type !== "passkey") return;
      keep("passkey_credentials", c.id, `${p}.credentials[${j}]`);
      credentialIds(c.credentialId, `${p}.credentials[${j}].credentialId`, `passkey credential id "${c.credentialId}"`);
    });
    usernames(u.username.trim().toLowerCase(), `${p}.username`, `username "${u.username}"`);
    if (u.email) emails(u.email.trim().toLowerCase(), `${p}.email`, `email "${u.email}"`);
    checkUser(u, p, at, problems);
    roleRefs(p, u.realmRoles, u.clientRoles);
    u.groups.forEach((g, j) => { if (!groupPaths.has(g)) problems.push({ path: `${p}.groups[${j}]`, message: `no group "${g}" in groups` }); });
    (u.organizations ?? []).forEach((a, j) => { if (!aliases.has(a)) problems.push({ path: `${p}.organizations[${j}]`, message: `no organization "${a}" in organizations` }); });
    (u.managedOrganizations ?? []).forEach((a, j) => {
      if (!(u.organizations ?? []).includes(a)) problems.push({ path: `${p}.managedOrganizations[${j}]`, message: `the user is not a member of organization "${a}"` });
    });
    // Grants are a member's: of an organization the user is in, and of that organization's roles.
    for (const [alias, granted] of Object.entries(u.organizationRoles ?? {})) {
      const at_ = `${p}.organizationRoles.${alias}`;
      if (!(u.organizations ?? []).includes(alias)) problems.push({ path: at_, message: `the user is not a member of organization "${alias}"` });
      else granted.forEach((r, j) => { if (!orgRoles.get(alias)?.has(r)) problems.push({ path: `${at_}[${j}]`, message: `no role "${r}" in organization "${alias}"` }); });
    }
  });
  return { part, problems, ids };
}

function checkSettings(s: RealmSettingsDoc, at: (path: string, fn: () => unknown) => void): void {
  at("$.realm.name", () => checkRealmName(s.name));
  const { name: _n, ...fields } = s;
  for (const [k, v] of Object.entries(fields)) at(`$.realm.${k}`, () => checkRealmFields({ [k]: v }));
}

function checkClient(c: ClientDoc, p: string, at: (path: string, fn: () => unknown) => void): void {
  at(`${p}.clientId`, () => checkClientId(c.clientId));
  at(`${p}.redirectUris`, () => checkUriList("redirectUris", c.redirectUris, checkRedirectUri));
  at(`${p}.webOrigins`, () => checkUriList("webOrigins", c.webOrigins, checkWebOrigin));
  at(`${p}.grantTypes`, () => checkTypeAndGrants(c.clientType, checkGrantTypes(c.grantTypes)));
  if (c.backchannelLogoutUri) at(`${p}.backchannelLogoutUri`, () => checkBackchannelUri(c.backchannelLogoutUri));
  if (c.jwks) at(`${p}.jwks`, () => checkJwks(c.jwks));
  if (c.standardTokenExchangeEnabled) at(`${p}.standardTokenExchangeEnabled`, () => checkTokenExchange(c.clientType, true));
  // The Admin API's rules for the method and its keys (a private_key_jwt client needs keys).
  if (c.tokenEndpointAuthMethod || c.jwksUri) {
    at(p, () => resolveAuthMethod(c.clientType, { tokenEndpointAuthMethod: c.tokenEndpointAuthMethod, jwks: c.jwks, jwksUri: c.jwksUri }));
  }
  if (c.clientProfile) {
    at(p, () => checkProfileConsistency({
      ...c, _id: c.id, realmId: "", createdAt: 0, updatedAt: 0,
      tokenEndpointAuthMethod: c.tokenEndpointAuthMethod ?? (c.clientType === "PUBLIC" ? "none" : "client_secret_basic"),
    }));
  }
  if (c.clientType === "PUBLIC" && c.secret !== undefined) at(`${p}.secret`, () => { throw IamError.invalid("secret", "a PUBLIC client has no secret"); });
}

function checkUser(u: UserDoc, p: string, at: (path: string, fn: () => unknown) => void, problems: Problem[]): void {
  at(`${p}.username`, () => checkUsername(u.username));
  if (u.email) at(`${p}.email`, () => checkOptionalEmail(u.email));
  at(p, () => checkUserFields({ firstName: u.firstName, lastName: u.lastName }));
  if (u.attributes) at(`${p}.attributes`, () => checkAttributes(u.attributes));
  const types = new Set<string>();
  u.credentials.forEach((c, j) => {
    if (c.type === "passkey") return;
    if (types.has(c.type)) problems.push({ path: `${p}.credentials[${j}].type`, message: `only one ${c.type} credential per user` });
    types.add(c.type);
    if (c.type === "password" && !hashFormat(c.passwordHash)) {
      problems.push({ path: `${p}.credentials[${j}].passwordHash`, message: "unsupported or malformed password hash (argon2, bcrypt or pbkdf2-sha1/256/512)" });
    }
  });
}
