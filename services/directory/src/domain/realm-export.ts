import { groupByLocale } from "./realm-localization.js";
import { IamError } from "../../../kit/src/errors.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type {
  AuthenticationFlowDoc, ClientDoc, ClientScopeDoc, GroupDoc, OrganizationDoc, PasskeyDoc, RealmSettingsDoc, RoleDoc, UserDoc,
} from "../../../kit/src/realm-transfer/document-schema.js";
import { organizationsEnabledOf, REALM_DEFAULTS, type RealmRecord } from "./realm.js";
import { webAuthnPolicyOf } from "./webauthn-policy.js";
import type { ClientRecord } from "./client.js";
import type { RoleMappingRecord, RoleRecord } from "./role.js";
import type { GroupRecord } from "./group.js";
import type { ClientScopeRecord, ProtocolMapperRecord, ScopeAssignmentRecord } from "./client-scope.js";
import { userRequiredActions, type UserRecord } from "./user.js";
import type { RealmTransferRepository } from "../store/realm-transfer-repository.js";
import type { CredentialRecord } from "../store/credential-repository.js";
import type { OtpRecord } from "../store/otp-repository.js";
import type { PasskeyRecord } from "../store/passkey-repository.js";
import type { MembershipRecord } from "../store/membership-repository.js";
import type { OrganizationMemberRecord } from "../store/organization-member-repository.js";
import type { OrganizationRoleRecord } from "../store/organization-role-repository.js";
import { ACCOUNT_CONSOLE_CLIENT_ID } from "./account-console-client.js";
import type { OrganizationRecord } from "./organization.js";
import type { FlowRecord } from "./authentication-flow.js";

/** Users per export page: a page is read, converted and sent before the next is read. */
export const USER_PAGE = 500;

interface StoredMapper { _id: string; realmId: string; scopeId: string; name: string; mapperType: string; protocol: string; config: Array<{ key: string; value: string }> }

export interface RealmSections {
  realm: RealmSettingsDoc;
  roles: RoleDoc[];
  clientScopes: ClientScopeDoc[];
  clients: ClientDoc[];
  groups: GroupDoc[];
  organizations?: OrganizationDoc[];
  authenticationFlows?: AuthenticationFlowDoc[];
}

/** What role names and paths mean in one realm: ids resolved to the names a document holds. */
interface Names {
  roles: Map<string, RoleRecord>;
  clientSlugs: Map<string, string>;
  groupPaths: Map<string, string>;
}

/**
 * The directory's part of a realm export (spec 4.1, DESIGN 3). Secrets (client secrets, the SMTP
 * password, TOTP seeds) are opened only with includeSecrets and are otherwise absent, not masked.
 * References are by name, as an admin reads them: roles by name (client roles under their
 * client's clientId), scopes by name, groups by path; ids are carried so the import keeps them.
 */
export class RealmExport {
  constructor(private readonly repo: RealmTransferRepository, private readonly secrets: SecretBox) {}

  async sections(realm: RealmRecord, includeSecrets: boolean): Promise<RealmSections> {
    const organizations = await this.repo.all<OrganizationRecord>("organizations", realm._id);
    const flows = (await this.repo.all<FlowRecord>("authentication_flows", realm._id)).sort((a, b) => (a.alias < b.alias ? -1 : 1));
    const orgRoles = organizations.length ? await this.repo.all<OrganizationRoleRecord>("organization_roles", realm._id) : [];
    const [clients, roles, scopes, rawMappers, assignments, groups] = await Promise.all([
      this.repo.all<ClientRecord>("clients", realm._id), this.repo.all<RoleRecord>("roles", realm._id),
      this.repo.all<ClientScopeRecord>("client_scopes", realm._id), this.repo.all<StoredMapper & ProtocolMapperRecord>("protocol_mappers", realm._id),
      this.repo.all<ScopeAssignmentRecord>("scope_assignments", realm._id), this.repo.all<GroupRecord>("groups", realm._id),
    ]);
    const names = this.names(clients, roles, groups);
    const scopeNames = new Map(scopes.map((s) => [s._id, s.name]));
    const groupMappings = await this.repo.mappingsOf<RoleMappingRecord>(realm._id, "group", groups.map((g) => g._id));
    const saUsers = await this.serviceAccounts(realm, clients);
    const saMappings = await this.repo.mappingsOf<RoleMappingRecord>(realm._id, "user", [...saUsers.values()].map((u) => u._id));
    return {
      realm: this.settings(realm, includeSecrets),
      roles: roles.filter((r) => r.clientId === "").map((r) => roleDoc(r, names)),
      clientScopes: scopes.map((s) => ({
        id: s._id, name: s.name, description: s.description, protocol: s.protocol,
        protocolMappers: rawMappers.filter((m) => m.scopeId === s._id).sort(byCreation).map((m) => ({
          id: m._id, name: m.name, mapperType: m.mapperType, protocol: m.protocol, config: mapperConfig(m.config),
        })),
      })),
      // The account console's client is a default every realm gets (account-console-client.ts),
      // its redirect URI this server's: the realm that imports the document seeds its own.
      clients: clients.filter((c) => c.clientId !== ACCOUNT_CONSOLE_CLIENT_ID).map((c) => {
        const scopeList = (kind: string) => assignments.filter((a) => a.clientId === c._id && a.kind === kind)
          .map((a) => scopeNames.get(a.scopeId)).filter((n): n is string => n !== undefined).sort();
        const sa = saUsers.get(c.clientId);
        const secret = includeSecrets && c.secretSealed ? this.secrets.open(c.secretSealed, `client:${c._id}:secret`) : undefined;
        return {
          id: c._id, clientId: c.clientId, name: c.name, description: c.description, clientType: c.clientType, enabled: c.enabled,
          redirectUris: c.redirectUris, webOrigins: c.webOrigins, grantTypes: c.grantTypes, requireConsent: c.requireConsent,
          backchannelLogoutUri: c.backchannelLogoutUri, backchannelLogoutSessionRequired: c.backchannelLogoutSessionRequired,
          ...(c.jwks && c.jwks.keys.length ? { jwks: c.jwks } : {}),
          requestObjectSignatureAlg: (c.requestObjectSignatureAlg ?? "") as ClientDoc["requestObjectSignatureAlg"] & string,
          requirePushedAuthorizationRequests: c.requirePushedAuthorizationRequests ?? false,
          dpopBoundAccessTokens: c.dpopBoundAccessTokens ?? false, dpopNonceRequired: c.dpopNonceRequired ?? false,
          standardTokenExchangeEnabled: c.standardTokenExchangeEnabled ?? false,
          idTokenSignedResponseAlg: (c.idTokenSignedResponseAlg ?? "") as ClientDoc["idTokenSignedResponseAlg"] & string,
          accessTokenSignedResponseAlg: (c.accessTokenSignedResponseAlg ?? "") as ClientDoc["accessTokenSignedResponseAlg"] & string,
          // Only when not the default, so documents of clients without them stay as they were.
          ...(c.tokenEndpointAuthMethod && c.tokenEndpointAuthMethod !== (c.clientType === "PUBLIC" ? "none" : "client_secret_basic")
            ? { tokenEndpointAuthMethod: c.tokenEndpointAuthMethod as ClientDoc["tokenEndpointAuthMethod"] & string } : {}),
          ...(c.jwksUri ? { jwksUri: c.jwksUri } : {}),
          ...(c.clientProfile ? { clientProfile: c.clientProfile as ClientDoc["clientProfile"] & string } : {}),
          ...(c.browserFlowOverride ? { browserFlowOverride: c.browserFlowOverride } : {}),
          ...(c.directGrantFlowOverride ? { directGrantFlowOverride: c.directGrantFlowOverride } : {}),
          ...(secret !== undefined ? { secret } : {}),
          defaultClientScopes: scopeList("default"), optionalClientScopes: scopeList("optional"),
          roles: roles.filter((r) => r.clientId === c._id).map((r) => roleDoc(r, names)),
          ...(sa ? { serviceAccount: { id: sa._id, username: sa.username, ...roleRefs(saMappings.filter((m) => m.holderId === sa._id), names) } } : {}),
        };
      }),
      groups: groupTree(groups, groupMappings, names),
      // Only when the realm has some: documents of realms without organizations read as before.
      ...(organizations.length ? { organizations: organizations.map((o) => organizationDoc(o, orgRoles.filter((r) => r.organizationId === o._id))) } : {}),
      // Only when the realm has some: the built-in flows are every realm's and not exported.
      ...(flows.length ? { authenticationFlows: flows.map((f) => ({ id: f._id, alias: f.alias, description: f.description, steps: JSON.parse(f.stepsJson) as Array<Record<string, unknown>> })) } : {}),
    };
  }

  /**
   * One page of users after the page token ("" first: `<createdAt>:<id>` of the last user sent),
   * with credentials, TOTP, role mappings and memberships.
   */
  async users(realm: RealmRecord, pageToken: string, includeSecrets: boolean): Promise<{ users: UserDoc[]; last: string }> {
    const m = /^(\d{1,16}):(.+)$/.exec(pageToken);
    if (pageToken !== "" && !m) throw IamError.invalid("pageToken", "malformed page token");
    const raw = await this.repo.usersAfter<UserRecord>(realm._id, m ? { createdAt: Number(m[1]), id: m[2]! } : undefined, USER_PAGE);
    if (raw.length === 0) return { users: [], last: "" };
    const lastUser = raw[raw.length - 1]!;
    const last = raw.length < USER_PAGE ? "" : `${lastUser.createdAt}:${lastUser._id}`;
    // Service accounts travel with their clients (sections()).
    const page = raw.filter((u) => u.serviceAccountClientId === "");
    if (page.length === 0) return { users: [], last };
    const ids = page.map((u) => u._id);
    const [clients, roles, groups, creds, otps, passkeys, memberships, mappings, orgMembers, orgs] = await Promise.all([
      this.repo.all<ClientRecord>("clients", realm._id), this.repo.all<RoleRecord>("roles", realm._id), this.repo.all<GroupRecord>("groups", realm._id),
      this.repo.forUsers<CredentialRecord & { realmId: string; _id: string }>("credentials", realm._id, ids),
      this.repo.forUsers<OtpRecord>("otp_credentials", realm._id, ids),
      this.repo.forUsers<PasskeyRecord>("passkey_credentials", realm._id, ids),
      this.repo.forUsers<MembershipRecord>("group_memberships", realm._id, ids),
      this.repo.mappingsOf<RoleMappingRecord>(realm._id, "user", ids),
      this.repo.forUsers<OrganizationMemberRecord & { _id: string; realmId: string }>("organization_members", realm._id, ids),
      this.repo.all<OrganizationRecord>("organizations", realm._id),
    ]);
    const aliasOf = new Map(orgs.map((o) => [o._id, o.alias]));
    const names = this.names(clients, roles, groups);
    const organizationsOf = (userId: string) => {
      const mine = orgMembers.filter((m) => m.userId === userId && aliasOf.has(m.organizationId));
      const aliases = mine.map((m) => aliasOf.get(m.organizationId)!).sort();
      const granted = mine.filter((m) => m.roles?.length).map((m) => [aliasOf.get(m.organizationId)!, [...m.roles!].sort()] as const);
      const managed = mine.filter((m) => m.membershipType === "MANAGED").map((m) => aliasOf.get(m.organizationId)!).sort();
      return {
        ...(aliases.length ? { organizations: aliases } : {}),
        ...(managed.length ? { managedOrganizations: managed } : {}),
        ...(granted.length ? { organizationRoles: Object.fromEntries(granted.sort(([a], [b]) => (a < b ? -1 : 1))) } : {}),
      };
    };
    const users = page.map((u): UserDoc => {
      const credentials: UserDoc["credentials"] = [];
      const pw = creds.find((c) => c.userId === u._id && c.type === "password");
      if (pw) credentials.push({ type: "password", passwordHash: pw.hash, temporary: pw.temporary, createdAt: pw.createdAt });
      const otp = otps.find((o) => o.userId === u._id && o.confirmed && o.secretSealed);
      if (otp) {
        credentials.push({
          type: "totp", createdAt: otp.createdAt,
          ...(includeSecrets ? { secret: this.secrets.open(otp.secretSealed!, `realm:${realm._id}:user:${u._id}:totp`) } : {}),
        });
      }
      for (const k of passkeys.filter((p) => p.userId === u._id).sort((a, b) => a.createdAt - b.createdAt || (a._id < b._id ? -1 : 1))) {
        credentials.push({
          type: "passkey", id: k._id, credentialId: k.credentialId, publicKey: k.publicKey, signCount: k.signCount,
          transports: k.transports as PasskeyDoc["transports"], label: k.label, backedUp: k.backedUp, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt,
        });
      }
      return {
        id: u._id, username: u.username, email: u.email, firstName: u.firstName, lastName: u.lastName,
        enabled: u.enabled, emailVerified: u.emailVerified, requirePasswordReset: u.requirePasswordReset, requiredActions: userRequiredActions(u),
        ...(u.attributes && Object.keys(u.attributes).length ? { attributes: u.attributes } : {}),
        createdAt: u.createdAt, credentials,
        ...roleRefs(mappings.filter((m) => m.holderId === u._id), names),
        groups: memberships.filter((m) => m.userId === u._id).map((m) => names.groupPaths.get(m.groupId)).filter((p): p is string => !!p).sort(),
        federatedIdentities: [],
        ...organizationsOf(u._id),
      };
    });
    return { users, last };
  }

  private settings(r: RealmRecord, includeSecrets: boolean): RealmSettingsDoc {
    const smtpPassword = includeSecrets && r.smtpPasswordSealed ? this.secrets.open(r.smtpPasswordSealed, `realm:${r._id}:smtpPassword`) : undefined;
    return {
      name: r.name, displayName: r.displayName, enabled: r.enabled,
      accessTokenLifespan: r.accessTokenLifespan, refreshTokenLifespan: r.refreshTokenLifespan, offlineTokenLifespan: r.offlineTokenLifespan,
      ssoSessionMaxLifespan: r.ssoSessionMaxLifespan ?? REALM_DEFAULTS.ssoSessionMaxLifespan,
      rememberMe: r.rememberMe ?? REALM_DEFAULTS.rememberMe,
      ssoSessionIdleTimeoutRememberMe: r.ssoSessionIdleTimeoutRememberMe ?? REALM_DEFAULTS.ssoSessionIdleTimeoutRememberMe,
      ssoSessionMaxLifespanRememberMe: r.ssoSessionMaxLifespanRememberMe ?? REALM_DEFAULTS.ssoSessionMaxLifespanRememberMe,
      smtpHost: r.smtpHost, smtpPort: r.smtpPort, smtpUser: r.smtpUser, ...(smtpPassword ? { smtpPassword } : {}),
      smtpFrom: r.smtpFrom, smtpSecure: r.smtpSecure,
      passwordMinLength: r.passwordMinLength, passwordRequireUppercase: r.passwordRequireUppercase,
      passwordRequireLowercase: r.passwordRequireLowercase, passwordRequireDigits: r.passwordRequireDigits,
      passwordRequireSpecialChars: r.passwordRequireSpecialChars, passwordHistoryCount: r.passwordHistoryCount,
      passwordMaxAgeDays: r.passwordMaxAgeDays, bruteForceEnabled: r.bruteForceEnabled, maxLoginFailures: r.maxLoginFailures,
      lockoutDuration: r.lockoutDuration, failureResetTime: r.failureResetTime, permanentLockoutAfter: r.permanentLockoutAfter,
      registrationAllowed: r.registrationAllowed, requireEmailVerification: r.requireEmailVerification, mfaRequired: r.mfaRequired,
      eventsEnabled: r.eventsEnabled, eventsExpiration: r.eventsExpiration, adminEventsEnabled: r.adminEventsEnabled,
      themeName: r.themeName, theme: { ...r.theme }, loginTheme: r.loginTheme, accountTheme: r.accountTheme, emailTheme: r.emailTheme,
      rateLimitPerIp: r.rateLimitPerIp ?? 0, rateLimitPerClient: r.rateLimitPerClient ?? 0,
      requirePushedAuthorizationRequests: r.requirePushedAuthorizationRequests ?? false,
      resetPasswordAllowed: r.resetPasswordAllowed ?? REALM_DEFAULTS.resetPasswordAllowed,
      editUsernameAllowed: r.editUsernameAllowed ?? false,
      organizationsEnabled: organizationsEnabledOf(r),
      actionTokenGeneratedByAdminLifespan: r.actionTokenGeneratedByAdminLifespan ?? REALM_DEFAULTS.actionTokenGeneratedByAdminLifespan,
      actionTokenGeneratedByUserLifespan: r.actionTokenGeneratedByUserLifespan ?? REALM_DEFAULTS.actionTokenGeneratedByUserLifespan,
      ...(r.browserFlow ? { browserFlow: r.browserFlow } : {}), ...(r.directGrantFlow ? { directGrantFlow: r.directGrantFlow } : {}),
      ...webAuthnPolicyOf(r),
      internationalizationEnabled: r.internationalizationEnabled ?? false, supportedLocales: [...(r.supportedLocales ?? [])],
      ...(r.defaultLocale ? { defaultLocale: r.defaultLocale } : {}),
      // Keycloak's export carries the overrides as localizationTexts: locale -> key -> text.
      ...(r.localizationTexts?.length ? { localizationTexts: groupByLocale(r.localizationTexts) } : {}),
    };
  }

  private async serviceAccounts(realm: RealmRecord, clients: ClientRecord[]): Promise<Map<string, UserRecord>> {
    const out = new Map<string, UserRecord>();
    const slugs = new Set(clients.map((c) => c.clientId));
    const all = await this.repo.forUsers<UserRecord>("users", realm._id, [...slugs], "serviceAccountClientId");
    for (const u of all) out.set(u.serviceAccountClientId, u);
    return out;
  }

  private names(clients: ClientRecord[], roles: RoleRecord[], groups: GroupRecord[]): Names {
    return {
      roles: new Map(roles.map((r) => [r._id, r])),
      clientSlugs: new Map(clients.map((c) => [c._id, c.clientId])),
      groupPaths: new Map(groups.map((g) => [g._id, g.path])),
    };
  }
}

/** A role, with the roles it contains by name (those since deleted left out). */
function roleDoc(r: RoleRecord, names: Names): RoleDoc {
  const composites = r.composites?.length ? roleRefsOf(r.composites, names) : undefined;
  const any = composites && (composites.realmRoles.length > 0 || Object.keys(composites.clientRoles).length > 0);
  return { id: r._id, name: r.name, ...(r.description ? { description: r.description } : {}), ...(any ? { composites } : {}) };
}

function roleRefs(mappings: RoleMappingRecord[], names: Names): { realmRoles: string[]; clientRoles: Record<string, string[]> } {
  return roleRefsOf(mappings.map((m) => m.roleId), names);
}

function roleRefsOf(roleIds: string[], names: Names): { realmRoles: string[]; clientRoles: Record<string, string[]> } {
  const realmRoles: string[] = [];
  const clientRoles: Record<string, string[]> = {};
  for (const roleId of roleIds) {
    const role = names.roles.get(roleId);
    if (!role) continue;
    if (role.clientId === "") realmRoles.push(role.name);
    else {
      const slug = names.clientSlugs.get(role.clientId);
      if (slug) (clientRoles[slug] ??= []).push(role.name);
    }
  }
  for (const list of Object.values(clientRoles)) list.sort();
  return { realmRoles: realmRoles.sort(), clientRoles };
}

function groupTree(groups: GroupRecord[], mappings: RoleMappingRecord[], names: Names): GroupDoc[] {
  const build = (parentId: string): GroupDoc[] => groups.filter((g) => g.parentId === parentId)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((g) => ({
      id: g._id, name: g.name, ...(g.description ? { description: g.description } : {}),
      ...(g.attributes && Object.keys(g.attributes).length ? { attributes: g.attributes } : {}),
      ...roleRefs(mappings.filter((m) => m.holderType === "group" && m.holderId === g._id), names),
      subGroups: build(g._id),
    }));
  return build("");
}

function mapperConfig(config: unknown): Record<string, string> {
  if (Array.isArray(config)) return Object.fromEntries((config as Array<{ key: string; value: string }>).map((e) => [e.key, e.value]));
  return { ...(config as Record<string, string>) };
}

function byCreation(a: { createdAt?: number; _id: string }, b: { createdAt?: number; _id: string }): number {
  return (a.createdAt ?? 0) - (b.createdAt ?? 0) || (a._id < b._id ? -1 : 1);
}

function organizationDoc(o: OrganizationRecord, roles: OrganizationRoleRecord[]): OrganizationDoc {
  return {
    id: o._id, name: o.name, alias: o.alias, enabled: o.enabled, description: o.description, redirectUrl: o.redirectUrl,
    domains: o.domains.map((d) => ({ name: d.name, verified: d.verified })),
    ...(Object.keys(o.attributes).length ? { attributes: o.attributes } : {}),
    identityProviders: o.identityProviders,
    ...(roles.length ? { roles: roles.map((r) => ({ name: r.name, description: r.description })).sort((a, b) => (a.name < b.name ? -1 : 1)) } : {}),
  };
}
