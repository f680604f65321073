import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import { checkFlowSteps } from "../../../kit/src/authentication-flows/flow-rules.js";
import type { FlowRecord } from "./authentication-flow.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { Problem, UserDoc } from "../../../kit/src/realm-transfer/document-schema.js";
import type { GroupDoc } from "../../../kit/src/realm-transfer/document-schema.js";
import type { RealmTransferRepository, TransferCollection } from "../store/realm-transfer-repository.js";
import type { RealmRepository } from "../store/realm-repository.js";
import type { DirectoryPart, KeptIds } from "./realm-import-check.js";
import { emailKeyOf, type UserRecord } from "./user.js";
import { orderedActions } from "../../../kit/src/validation/required-actions.js";
import type { RoleRecord } from "./role.js";
import type { RoleDoc } from "../../../kit/src/realm-transfer/document-schema.js";
import type { ClientRecord } from "./client.js";
import type { GroupRecord } from "./group.js";
import { BUILTIN_SEED_VERSION } from "./builtin-scopes.js";
import type { OrganizationRecord } from "./organization.js";
import type { PasskeyRecord } from "../store/passkey-repository.js";
import { OrganizationDomainRepository } from "../store/organization-domain-repository.js";
import { OrganizationMemberRepository } from "../store/organization-member-repository.js";
import { OrganizationRoleRepository, type OrganizationRoleRecord } from "../store/organization-role-repository.js";

type Row = { _id: string; realmId: string } & Record<string, unknown>;

/** Role, client and group names of the realm being imported, resolved to their kept ids. */
interface Resolver {
  realmRole: Map<string, RoleRecord>;
  clientRole: Map<string, Map<string, RoleRecord>>;
  clientBySlug: Map<string, ClientRecord>;
  groupByPath: Map<string, GroupRecord>;
  organizationByAlias: Map<string, OrganizationRecord>;
}

/**
 * Writes the directory's part of a validated realm document under the staging realm (realm-import.ts).
 * The realm's configuration goes in one call, its users in batches: each batch resolves role
 * names, client slugs and group paths against what the first call stored, so no call needs the
 * whole document. Every write is an upsert by the kept id (RealmTransferRepository).
 */
export class RealmImportWriter {
  constructor(
    private readonly repo: RealmTransferRepository,
    private readonly realms: RealmRepository,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** Problems for kept ids already used by records of another live realm. */
  async collisions(ids: KeptIds, realmName: string): Promise<Problem[]> {
    const problems: Problem[] = [];
    const liveOther = new Map<string, string | null>();
    for (const [col, paths] of ids) {
      const all = [...paths.keys()];
      for (let i = 0; i < all.length; i += 500) {
        for (const row of await this.repo.byIds(col, all.slice(i, i + 500))) {
          if (!liveOther.has(row.realmId)) {
            const realm = await this.realms.findById(row.realmId);
            liveOther.set(row.realmId, realm && realm.name !== realmName && realm.importHeartbeatAt === undefined ? realm.name : null);
          }
          const other = liveOther.get(row.realmId);
          if (other) problems.push({ path: `${paths.get(row._id)}.id`, message: `id "${row._id}" belongs to realm "${other}"` });
        }
      }
    }
    return problems;
  }

  /** Roles, client scopes and mappers, clients with their scopes and service accounts, groups. */
  async writeConfiguration(realmId: string, part: Omit<DirectoryPart, "realm" | "users">): Promise<Problem[]> {
    const notes: Problem[] = [];
    const now = this.clock.now();
    const put = (col: TransferCollection, rows: Row[]) => this.repo.put(col, rows);
    await put("roles", part.roles.map((r) => ({ _id: r.id, realmId, clientId: "", name: r.name, description: r.description ?? "", createdAt: now })));
    await put("client_scopes", part.clientScopes.map((s) => ({ _id: s.id, realmId, name: s.name, description: s.description ?? "", protocol: s.protocol, createdAt: now })));
    await put("protocol_mappers", part.clientScopes.flatMap((s) => s.protocolMappers.map((m, j) => ({
      _id: m.id, realmId, scopeId: s.id, name: m.name, mapperType: m.mapperType, protocol: m.protocol,
      config: Object.entries(m.config).map(([key, value]) => ({ key, value })), createdAt: now + j,
    }))));
    const scopeId = new Map(part.clientScopes.map((s) => [s.name, s.id]));
    for (const [i, c] of part.clients.entries()) {
      const client: ClientRecord = {
        _id: c.id, realmId, clientId: c.clientId, name: c.name, description: c.description, clientType: c.clientType, enabled: c.enabled,
        redirectUris: c.redirectUris, webOrigins: c.webOrigins, grantTypes: c.grantTypes, requireConsent: c.requireConsent,
        backchannelLogoutUri: c.backchannelLogoutUri, backchannelLogoutSessionRequired: c.backchannelLogoutSessionRequired,
        requestObjectSignatureAlg: c.requestObjectSignatureAlg ?? "", requirePushedAuthorizationRequests: c.requirePushedAuthorizationRequests ?? false,
        dpopBoundAccessTokens: c.dpopBoundAccessTokens ?? false, dpopNonceRequired: c.dpopNonceRequired ?? false,
        standardTokenExchangeEnabled: c.standardTokenExchangeEnabled ?? false,
        idTokenSignedResponseAlg: c.idTokenSignedResponseAlg ?? "", accessTokenSignedResponseAlg: c.accessTokenSignedResponseAlg ?? "",
        ...(c.tokenEndpointAuthMethod ? { tokenEndpointAuthMethod: c.tokenEndpointAuthMethod } : {}),
        ...(c.jwksUri ? { jwksUri: c.jwksUri } : {}), ...(c.clientProfile ? { clientProfile: c.clientProfile } : {}),
        ...(c.browserFlowOverride ? { browserFlowOverride: c.browserFlowOverride } : {}),
        ...(c.directGrantFlowOverride ? { directGrantFlowOverride: c.directGrantFlowOverride } : {}),
        ...(c.jwks && c.jwks.keys.length ? { jwks: c.jwks } : {}),
        createdAt: now, updatedAt: now,
      };
      if (c.secret) client.secretSealed = this.secrets.seal(c.secret, `client:${c.id}:secret`);
      else if (c.clientType === "CONFIDENTIAL") notes.push({ path: `$.clients[${i}].secret`, message: "no secret in the document (exported without includeSecrets): regenerate it before the client authenticates" });
      await put("clients", [client]);
      await put("roles", c.roles.map((r) => ({ _id: r.id, realmId, clientId: c.id, name: r.name, description: r.description ?? "", createdAt: now })));
      await put("scope_assignments", [
        ...c.defaultClientScopes.map((s) => ({ kind: "default", s })), ...c.optionalClientScopes.map((s) => ({ kind: "optional", s })),
      ].map(({ kind, s }) => ({ _id: `${c.id}:${scopeId.get(s)!}`, realmId, clientId: c.id, scopeId: scopeId.get(s)!, kind })));
    }
    const groups: Row[] = [];
    const flatten = (list: GroupDoc[], parentId: string, parentPath: string) => {
      for (const g of list) {
        const path = `${parentPath}/${g.name}`;
        groups.push({ _id: g.id, realmId, name: g.name, description: g.description ?? "", parentId, path, attributes: g.attributes ?? {}, createdAt: now, updatedAt: now });
        flatten(g.subGroups, g.id, path);
      }
    };
    flatten(part.groups, "", "");
    await put("groups", groups);

    const names = await this.resolver(realmId);
    // Composites by id, once every role of the document is written (a role may contain a later one).
    const composite = (r: RoleDoc, clientId: string): Row[] => {
      if (!r.composites) return [];
      const ids = this.mappings(realmId, "group", "", r.composites.realmRoles, r.composites.clientRoles, names).map((m) => String(m.roleId));
      return [{ _id: r.id, realmId, clientId, name: r.name, description: r.description ?? "", createdAt: now, composites: [...new Set(ids)] }];
    };
    await put("roles", [...part.roles.flatMap((r) => composite(r, "")), ...part.clients.flatMap((c) => c.roles.flatMap((r) => composite(r, c.id)))]);
    const mappings: Row[] = [];
    const walk = (list: GroupDoc[]) => list.forEach((g) => { mappings.push(...this.mappings(realmId, "group", g.id, g.realmRoles, g.clientRoles, names)); walk(g.subGroups); });
    walk(part.groups);
    for (const c of part.clients) {
      const sa = c.serviceAccount;
      if (!sa) continue;
      await put("users", [{
        _id: sa.id, realmId, username: sa.username, usernameKey: sa.username.toLowerCase(), email: "", emailKey: emailKeyOf(sa.id, ""),
        firstName: "", lastName: "", enabled: true, emailVerified: false, requirePasswordReset: false,
        serviceAccountClientId: c.clientId, attributes: {}, createdAt: now, updatedAt: now,
      } satisfies UserRecord]);
      mappings.push(...this.mappings(realmId, "user", sa.id, sa.realmRoles, sa.clientRoles, names));
    }
    await put("role_mappings", mappings);
    await put("authentication_flows", (part.authenticationFlows ?? []).map((f) => ({
      _id: f.id, realmId, alias: f.alias, description: f.description, stepsJson: JSON.stringify(checkFlowSteps(f.steps)), createdAt: now, updatedAt: now,
    } satisfies FlowRecord)));
    const orgs = part.organizations ?? [];
    await put("organizations", orgs.map((o) => ({
      _id: o.id, realmId, name: o.name.trim(), nameKey: o.name.trim().toLowerCase(), alias: o.alias.trim(), description: o.description ?? "",
      enabled: o.enabled, redirectUrl: o.redirectUrl ?? "", domains: o.domains.map((d) => ({ name: d.name.trim().toLowerCase(), verified: d.verified })),
      attributes: o.attributes ?? {}, identityProviders: o.identityProviders, createdAt: now, updatedAt: now,
    } satisfies OrganizationRecord)));
    await put("organization_roles", orgs.flatMap((o) => (o.roles ?? []).map((r) => ({
      _id: OrganizationRoleRepository.idOf(o.id, r.name), realmId, organizationId: o.id, name: r.name, description: r.description, createdAt: now,
    } satisfies OrganizationRoleRecord))));
    // Each domain's claim (organization-domain-repository.ts): the import was checked for duplicates.
    await put("organization_domains", orgs.flatMap((o) => o.domains.map((d) => {
      const name = d.name.trim().toLowerCase();
      return { _id: OrganizationDomainRepository.idOf(realmId, name), realmId, organizationId: o.id, name };
    })));
    await this.repo.markSeeded(realmId, BUILTIN_SEED_VERSION, now);
    return notes;
  }

  /** A batch of users with their credentials, TOTP, role mappings and group memberships. */
  async writeUsers(realmId: string, users: UserDoc[]): Promise<void> {
    const names = await this.resolver(realmId);
    const now = this.clock.now();
    const records: Row[] = [], creds: Row[] = [], otps: Row[] = [], passkeys: Row[] = [], members: Row[] = [], mappings: Row[] = [], orgMembers: Row[] = [];
    for (const u of users) {
      const username = u.username.trim();
      const email = u.email.trim();
      records.push({
        _id: u.id, realmId, username, usernameKey: username.toLowerCase(), email, emailKey: emailKeyOf(u.id, email),
        firstName: u.firstName, lastName: u.lastName, enabled: u.enabled, emailVerified: u.emailVerified,
        // UPDATE_PASSWORD listed or requirePasswordReset: one fact (user.ts), either sets it.
        requirePasswordReset: u.requirePasswordReset || (u.requiredActions ?? []).includes("UPDATE_PASSWORD"),
        ...(u.requiredActions?.some((a) => a !== "UPDATE_PASSWORD") ? { requiredActions: orderedActions(u.requiredActions).filter((a) => a !== "UPDATE_PASSWORD") } : {}),
        serviceAccountClientId: "", attributes: u.attributes ?? {},
        createdAt: u.createdAt, updatedAt: now,
      } satisfies UserRecord);
      for (const c of u.credentials) {
        if (c.type === "password") {
          creds.push({ _id: `${u.id}:password`, realmId, userId: u.id, type: "password", hash: c.passwordHash, temporary: c.temporary, createdAt: c.createdAt });
        } else if (c.type === "passkey") {
          passkeys.push({
            _id: c.id, realmId, userId: u.id, credentialId: c.credentialId, publicKey: c.publicKey, signCount: c.signCount,
            transports: c.transports, label: c.label, backedUp: c.backedUp, createdAt: c.createdAt, lastUsedAt: c.lastUsedAt,
          } satisfies PasskeyRecord);
        } else if (c.secret) {
          otps.push({
            _id: `${u.id}:totp`, realmId, userId: u.id, confirmed: true, lastUsedStep: 0, createdAt: c.createdAt,
            secretSealed: this.secrets.seal(c.secret, `realm:${realmId}:user:${u.id}:totp`),
          });
        }
      }
      for (const path of u.groups) {
        const g = names.groupByPath.get(path);
        if (g) members.push({ _id: `${g._id}:${u.id}`, realmId, groupId: g._id, userId: u.id, usernameKey: username.toLowerCase(), createdAt: now });
      }
      mappings.push(...this.mappings(realmId, "user", u.id, u.realmRoles, u.clientRoles, names));
      for (const alias of u.organizations ?? []) {
        const o = names.organizationByAlias.get(alias);
        if (o) {
          orgMembers.push({
            _id: OrganizationMemberRepository.idOf(o._id, u.id), realmId, organizationId: o._id, userId: u.id,
            usernameKey: username.toLowerCase(), membershipType: u.managedOrganizations?.includes(alias) ? "MANAGED" : "UNMANAGED", createdAt: now,
            ...(u.organizationRoles?.[alias]?.length ? { roles: [...u.organizationRoles[alias]!] } : {}),
          });
        }
      }
    }
    await this.repo.put("users", records);
    await this.repo.put("organization_members", orgMembers);
    await this.repo.put("credentials", creds);
    await this.repo.put("otp_credentials", otps);
    await this.repo.put("passkey_credentials", passkeys);
    await this.repo.put("group_memberships", members);
    await this.repo.put("role_mappings", mappings);
  }

  private mappings(realmId: string, holderType: "user" | "group", holderId: string, realmRoles: string[], clientRoles: Record<string, string[]>, n: Resolver): Row[] {
    const roles = [
      ...realmRoles.map((r) => n.realmRole.get(r)),
      ...Object.entries(clientRoles).flatMap(([slug, list]) => list.map((r) => n.clientRole.get(slug)?.get(r))),
    ].filter((r): r is RoleRecord => r !== undefined);
    return roles.map((r) => ({ _id: `${holderType}:${holderId}:${r._id}`, realmId, holderType, holderId, roleId: r._id, clientId: r.clientId }));
  }

  private async resolver(realmId: string): Promise<Resolver> {
    const [roles, clients, groups, organizations] = await Promise.all([
      this.repo.all<RoleRecord>("roles", realmId), this.repo.all<ClientRecord>("clients", realmId), this.repo.all<GroupRecord>("groups", realmId),
      this.repo.all<OrganizationRecord>("organizations", realmId),
    ]);
    const clientRole = new Map<string, Map<string, RoleRecord>>();
    const slugOf = new Map(clients.map((c) => [c._id, c.clientId]));
    for (const r of roles.filter((x) => x.clientId !== "")) {
      const slug = slugOf.get(r.clientId);
      if (slug) clientRole.set(slug, (clientRole.get(slug) ?? new Map()).set(r.name, r));
    }
    return {
      realmRole: new Map(roles.filter((r) => r.clientId === "").map((r) => [r.name, r])),
      clientRole,
      clientBySlug: new Map(clients.map((c) => [c.clientId, c])),
      groupByPath: new Map(groups.map((g) => [g.path, g])),
      organizationByAlias: new Map(organizations.map((o) => [o.alias, o])),
    };
  }
}
