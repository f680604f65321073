import { IamError } from "../../../kit/src/errors.js";
import type { PluginRegistry } from "../../../kit/src/plugins/plugin-registry.js";
import { NO_SESSION, isPluginType, pluginClaims, type LoginSession } from "./plugin-claims.js";
import { applyMappers, type ClaimsSubject, type TokenClaims } from "./claims-engine.js";
import type { RoleRecord } from "./role.js";
import type { ClientTokenConfigs } from "./client-token-configs.js";
import type { ClientRecord } from "./client.js";
import { organizationsEnabledOf, type RealmRecord } from "./realm.js";
import type { RealmAccess } from "./realm-access.js";
import type { UserRecord } from "./user.js";
import type { ClientRepository } from "../store/client-repository.js";
import type { UserRepository } from "../store/user-repository.js";
import type { OrganizationMembershipReader } from "../store/organization-membership-reader.js";
import { ORGANIZATION_SCOPE, baseScopeName, requestedOrganization } from "../../../kit/src/validation/organization-scope.js";
import type { ClientTokenConfig } from "./client-token-configs.js";
import type { ClientScopeRecord, ProtocolMapperRecord } from "./client-scope.js";
import type { ResolvedClaimsCache } from "./resolved-claims-cache.js";
import type { EffectiveAccess } from "./effective-access.js";
import { inheritedGroupAttributes } from "./inherited-attributes.js";

export interface ResolvedClaims extends TokenClaims {
  grantedScopes: string[];
  realmRoles: string[];
  /** "<clientId>/<role>" */
  clientRoles: string[];
}


/**
 * The claims a user's tokens carry for a client (spec 2.8): the mappers of the client's default
 * scopes and of the requested optional scopes (with `onlyRequested`, of the requested scopes alone,
 * default or optional: RFC 6749 section 6 lets a refresh narrow the scope), over the user's profile, attributes, effective
 * roles (direct, through groups and their ancestors) and group paths. Every user effectively
 * holds the realm role `offline_access`, as Keycloak's default-roles composite grants it.
 */
export class ClaimsResolver {
  constructor(
    private readonly realms: RealmAccess,
    private readonly configs: ClientTokenConfigs,
    private readonly access: EffectiveAccess,
    private readonly users: UserRepository,
    private readonly clients: ClientRepository,
    private readonly organizations: OrganizationMembershipReader,
    private readonly plugins?: PluginRegistry,
    private readonly cache?: ResolvedClaimsCache,
  ) {}

  /**
   * `fromStore` reads the realm and the client's token configuration past this replica's caches,
   * for a caller that keeps the answer (proto ResolveClaimsRequest.from_store); per-token
   * resolutions use the caches (docs/performance.md), this one's (ResolvedClaimsCache)
   * among them unless a plugin mapper applies: a plugin computes its claims on every call.
   * `session` is the login the token belongs to, which only plugin mappers are told of (and may
   * write into a claim): as a resolution they apply to is never cached, the cache's key leaves the
   * session out, and a client without plugin mappers keeps sharing a user's entry across sessions.
   */
  async resolve(
    realmName: string, userId: string, clientId: string, requested: string[], onlyRequested = false, fromStore = false, session: LoginSession = NO_SESSION,
  ): Promise<ResolvedClaims> {
    const realm = await (fromStore ? this.realms.current(realmName) : this.realms.byName(realmName));
    const config = await (fromStore ? this.configs.current(realm._id, clientId) : this.configs.get(realm._id, clientId));
    if (!config) throw IamError.notFound(`client "${clientId}"`, "client_not_found");
    // `organization:<alias>` (or `:*`) stands for the client scope "organization" (Keycloak 26).
    const wanted = new Set(requested.map(baseScopeName));
    const applied = config.scopes
      .filter(({ scope, kind }) => wanted.has(scope.name) || (kind === "default" && !onlyRequested))
      .map(({ scope }) => scope);
    const appliedIds = new Set(applied.map((s) => s._id));
    const mappers = config.mappers.filter((m) => appliedIds.has(m.scopeId));
    const computes = this.plugins !== undefined && mappers.some((m) => isPluginType(m.mapperType));
    const resolve = () => this.resolveFor(realm, config, userId, requested, applied, mappers, computes, session);
    return fromStore || computes || !this.cache ? resolve() : this.cache.get(realm._id, userId, clientId, requested, onlyRequested, resolve);
  }

  private async resolveFor(
    realm: RealmRecord, config: ClientTokenConfig, userId: string, requested: string[],
    applied: ClientScopeRecord[], mappers: ProtocolMapperRecord[], computes: boolean, session: LoginSession,
  ): Promise<ResolvedClaims> {
    const { client } = config;
    const user = await this.users.findById(realm._id, userId);
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    // Every grant and userinfo resolve claims here: a disabled user gets none from the moment the
    // admin's write is acknowledged, as Keycloak checks the user on refresh and userinfo, not only
    // once the token service's user.disabled consumer has ended the sessions (milliseconds later
    // in process, the bus's delivery in a cluster). The write makes this replica's cached
    // resolutions stale at once, another replica's when its announcement arrives.
    if (!user.enabled) throw new IamError({ code: "failedPrecondition", reason: "user_disabled", message: "user is disabled" });

    const dynamicOrg = requested.find((n) => requestedOrganization(n) !== undefined);

    const groups = await this.access.groupsOf(realm._id, user._id);
    const direct = groups.filter((g) => g.direct).map((g) => g.group.path);
    const { realmRoles, clientRoles } = await this.effectiveRoles(realm, user, groups.map((g) => g.group._id), config.offline);
    const subject: ClaimsSubject = {
      id: user._id, username: user.username, email: user.email, firstName: user.firstName, lastName: user.lastName,
      emailVerified: user.emailVerified, updatedAt: Math.floor(user.updatedAt / 1000), attributes: user.attributes ?? {}, realmRoles, clientRoles, groupPaths: direct.sort(),
    };
    if (groups.some((g) => g.group.attributes && Object.keys(g.group.attributes).length)) subject.groupAttributes = inheritedGroupAttributes(groups);
    // Keycloak 26's organization mapper writes nothing while the realm's organizationsEnabled is off.
    if (applied.some((s) => s.name === ORGANIZATION_SCOPE) && organizationsEnabledOf(realm)) {
      const only = dynamicOrg === undefined ? "*" : requestedOrganization(dynamicOrg);
      subject.organizations = (await this.organizations.organizationsOf(realm._id, user._id))
        .filter(({ organization: o }) => only === "*" || o.alias === only)
        .map(({ organization: o, roles }) => ({ id: o._id, alias: o.alias, attributes: o.attributes, roles }));
    }
    const claimsClient = { clientId: client.clientId, webOrigins: resolveOrigins(client) };
    const grantedScopes = applied.map((s) => (s.name === ORGANIZATION_SCOPE && dynamicOrg !== undefined ? dynamicOrg : s.name));
    // Only awaited when a plugin mapper applies: per-token resolutions stay one hop shorter.
    const computed = computes && this.plugins
      ? await pluginClaims(this.plugins, mappers, subject, claimsClient, { realm: realm.name, requestedScopes: requested, grantedScopes, id: session.id, authTime: session.authTime })
      : undefined;
    const claims = applyMappers(mappers, subject, claimsClient, computed);
    return {
      ...claims,
      grantedScopes,
      realmRoles,
      clientRoles: Object.entries(clientRoles).flatMap(([c, rs]) => rs.map((r) => `${c}/${r}`)),
    };
  }

  private async effectiveRoles(realm: RealmRecord, user: UserRecord, groupIds: string[], offline: RoleRecord | null) {
    const roles = await this.access.rolesOf(realm._id, user._id, groupIds);
    const realmRoles = [...new Set([...roles.filter((r) => !r.clientId).map((r) => r.name), ...(offline ? [offline.name] : [])])].sort();
    const clients = await this.clients.findByIds(realm._id, [...new Set(roles.map((r) => r.clientId).filter(Boolean))]);
    const clientRoles: Record<string, string[]> = {};
    for (const c of clients) {
      clientRoles[c.clientId] = roles.filter((r) => r.clientId === c._id).map((r) => r.name).sort();
    }
    return { realmRoles, clientRoles };
  }
}

/** Web origins with "+" expanded to the origins of the redirect URIs (Keycloak's meaning). */
export function resolveOrigins(client: ClientRecord): string[] {
  const out = new Set<string>();
  for (const o of client.webOrigins) {
    if (o !== "+") out.add(o);
    else {
      for (const uri of client.redirectUris) {
        try {
          const u = new URL(uri);
          if (u.protocol === "https:" || u.protocol === "http:") out.add(u.origin);
        } catch { /* validated on write */ }
      }
    }
  }
  return [...out];
}
