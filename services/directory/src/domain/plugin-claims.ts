import type { PluginRegistry } from "../../../kit/src/plugins/plugin-registry.js";
import { PLUGIN_TYPE_PREFIX } from "../../../kit/src/validation/mapper-types.js";
import type { ClaimsClient, ClaimsSubject, MapperSpec, PluginClaim } from "./claims-engine.js";

export function isPluginType(mapperType: string): boolean {
  return mapperType.startsWith(PLUGIN_TYPE_PREFIX);
}

/**
 * The login a resolution is for (ResolveClaimsRequest session_id, auth_time): what plugin mappers
 * see of the user session (plugin-api.ts MapperSession), which nothing else reads.
 */
export interface LoginSession {
  /** The token's `sid`; "" without a session. */
  id: string;
  /** Seconds since the epoch; undefined without a session. */
  authTime: number | undefined;
}

/** A resolution outside any login: client_credentials, and callers that name none. */
export const NO_SESSION: LoginSession = Object.freeze({ id: "", authTime: undefined });

/** What a plugin mapper is told about the login beyond the user and client (plugin-api.ts MapperInput). */
export interface PluginClaimsSession extends LoginSession {
  realm: string;
  requestedScopes: string[];
  grantedScopes: string[];
}

/**
 * Runs the plugin mappers among `mappers` (type `plugin:<id>`), all at once, each under the plugin
 * timeout: the values the claims engine writes in their places. A mapper whose plugin is not
 * loaded here (removed from TESSERA_PLUGINS since it was configured), or that fails, yields nothing:
 * its claim is left out and the token is still issued
 * (docs/plugins.md, "Isolation"), as a claim a mapper's attribute lacks is left out.
 */
export async function pluginClaims(
  plugins: PluginRegistry | undefined, mappers: MapperSpec[], subject: ClaimsSubject, client: ClaimsClient, session: PluginClaimsSession,
): Promise<Map<MapperSpec, PluginClaim>> {
  const out = new Map<MapperSpec, PluginClaim>();
  const ours = plugins ? mappers.filter((m) => isPluginType(m.mapperType)) : [];
  if (!plugins || ours.length === 0) return out;
  const user = {
    id: subject.id, username: subject.username, email: subject.email, firstName: subject.firstName, lastName: subject.lastName,
    emailVerified: subject.emailVerified, attributes: subject.attributes, realmRoles: subject.realmRoles,
    clientRoles: subject.clientRoles, groups: subject.groupPaths,
  };
  await Promise.all(ours.map(async (m) => {
    const mapper = plugins.mapper(m.mapperType);
    if (!mapper) return;
    const value = await plugins.runMapper(m.mapperType, {
      realm: session.realm, user, client: { clientId: client.clientId },
      session: { id: session.id, authTime: session.authTime, requestedScopes: session.requestedScopes, grantedScopes: session.grantedScopes },
      config: m.config,
    });
    if (value !== undefined) out.set(m, { claimName: m.config["claim.name"] || mapper.defaultClaimName, value });
  }));
  return out;
}
