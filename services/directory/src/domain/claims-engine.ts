import { ADDRESS_MEMBERS, splitClaimName } from "./mapper-rules.js";
import { resolveAttribute } from "./inherited-attributes.js";

/** What the mappers read about the user (spec 2.2, 2.4, 2.5). */
export interface ClaimsSubject {
  id: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  emailVerified: boolean;
  /** Seconds since the epoch of the user's last update (OIDC Core 5.1 `updated_at`). */
  updatedAt?: number;
  attributes: Record<string, string[]>;
  /**
   * The attributes of each of the user's own groups with what it inherits from its ancestors (a
   * group's own values win), in group path order: what the user attribute mapper falls back to.
   */
  groupAttributes?: Array<Record<string, string[]>>;
  realmRoles: string[];
  /** clientId (slug) -> role names. */
  clientRoles: Record<string, string[]>;
  /** Full paths ("/a/b") of the groups the user is a member of. */
  groupPaths: string[];
  /** The enabled organizations the user is a member of that the request's scope selects, by alias. */
  organizations?: Array<{ id: string; alias: string; attributes: Record<string, string[]>; roles?: string[] }>;
}

export interface ClaimsClient {
  clientId: string;
  /** Allowed origins, "+" already resolved to the redirect URIs' origins. */
  webOrigins: string[];
}

export interface MapperSpec {
  mapperType: string;
  config: Record<string, string>;
}

export type ClaimSet = Record<string, unknown>;

/** A plugin mapper's claim, computed ahead (plugin-claims.ts): plugins are asynchronous, this engine is not. */
export interface PluginClaim {
  claimName: string;
  value: unknown;
}

export interface TokenClaims {
  access: ClaimSet;
  id: ClaimSet;
  userinfo: ClaimSet;
  /** What introspection reports besides the token's own protocol claims (token-operations.ts). */
  introspection: ClaimSet;
}

type Target = keyof TokenClaims;

const TARGETS: ReadonlyArray<Target> = ["access", "id", "userinfo", "introspection"];
const SWITCHES: Readonly<Record<Target, string>> = {
  access: "access.token.claim", id: "id.token.claim", userinfo: "userinfo.token.claim", introspection: "introspection.token.claim",
};

/**
 * Whether a mapper writes its claim to `target`: its `<target>.token.claim` switch is "true". A
 * mapper stored without `introspection.token.claim` (written before Keycloak 25 had the switch,
 * or imported from such a realm) follows its access token switch, as Keycloak reads it.
 */
export function writesTo(config: Readonly<Record<string, string>>, target: Target): boolean {
  const flag = config[SWITCHES[target]];
  if (target === "introspection" && flag === undefined) return config["access.token.claim"] === "true";
  return flag === "true";
}

/**
 * Whether some mapper writes to the access token and not to introspection, or the other way
 * round: only then can introspection report other claims than the access token carries.
 */
export function introspectionDiffers(mappers: ReadonlyArray<MapperSpec>): boolean {
  return mappers.some((m) => writesTo(m.config, "access") !== writesTo(m.config, "introspection"));
}

/**
 * Runs protocol mappers over a user (pure). Each mapper computes its value once, then writes it to
 * every token its `*.token.claim` flags name. Multi-valued claims written by several mappers are
 * merged (union, first-seen order), as Keycloak does for role claims. A plugin mapper writes the
 * value `plugins` holds for it, in its place among the mappers, and nothing when it holds none.
 */
export function applyMappers(
  mappers: MapperSpec[], subject: ClaimsSubject, client: ClaimsClient, plugins?: ReadonlyMap<MapperSpec, PluginClaim>,
): TokenClaims {
  const out: TokenClaims = { access: {}, id: {}, userinfo: {}, introspection: {} };
  for (const m of mappers) {
    const computed = plugins?.get(m);
    const writes = computed ? one(splitClaimName(computed.claimName.replaceAll("${client_id}", client.clientId)), computed.value) : computeMapper(m, subject, client);
    for (const target of TARGETS) {
      if (!writesTo(m.config, target)) continue;
      for (const [path, value] of writes) setClaim(out[target], path, value);
    }
  }
  return out;
}

type Write = [path: string[], value: unknown];

function computeMapper(m: MapperSpec, s: ClaimsSubject, client: ClaimsClient): Write[] {
  const c = m.config;
  const claim = (name = c["claim.name"] ?? "", clientId = client.clientId) =>
    splitClaimName(name.replaceAll("${client_id}", clientId));
  switch (m.mapperType) {
    case "oidc-usermodel-property-mapper": {
      const v = (s as unknown as Record<string, unknown>)[c["user.attribute"] ?? ""];
      if (v === undefined || v === "") return [];
      return one(claim(), convert(String(v), c["jsonType.label"]));
    }
    case "oidc-usermodel-attribute-mapper": {
      const values = resolveAttribute(s, c["user.attribute"] ?? "", c["aggregate.attrs"] === "true");
      if (!values.length) return [];
      const converted = values.map((v) => convert(v, c["jsonType.label"])).filter((v) => v !== undefined);
      if (!converted.length) return [];
      return one(claim(), c.multivalued === "true" ? converted : converted[0]);
    }
    case "oidc-hardcoded-claim-mapper":
      return one(claim(), convert(c["claim.value"] ?? "", c["jsonType.label"]));
    case "oidc-full-name-mapper": {
      const name = `${s.firstName} ${s.lastName}`.trim();
      return name ? one(["name"], name) : [];
    }
    case "oidc-group-membership-mapper": {
      const full = c["full.path"] !== "false";
      const groups = s.groupPaths.map((p) => (full ? p : p.slice(p.lastIndexOf("/") + 1)));
      return one(claim(c["claim.name"] ?? "groups"), groups);
    }
    case "oidc-usermodel-realm-role-mapper":
      return s.realmRoles.length ? one(claim(), rolesValue(s.realmRoles, c)) : [];
    case "oidc-usermodel-client-role-mapper": {
      const only = c["usermodel.clientRoleMapping.clientId"];
      const entries = Object.entries(s.clientRoles).filter(([id, roles]) => roles.length && (!only || id === only));
      return entries.map(([id, roles]) => [claim(undefined, id), rolesValue(roles, c)] as Write);
    }
    case "oidc-audience-mapper": {
      const aud = c["included.client.audience"] || c["included.custom.audience"];
      return aud ? one(["aud"], [aud]) : [];
    }
    case "oidc-audience-resolve-mapper": {
      const aud = Object.entries(s.clientRoles)
        .filter(([id, roles]) => id !== client.clientId && roles.length).map(([id]) => id);
      return aud.length ? one(["aud"], aud) : [];
    }
    case "oidc-allowed-origins-mapper":
      return client.webOrigins.length ? one(["allowed-origins"], client.webOrigins) : [];
    case "oidc-acr-mapper":
      // Level of assurance "1" (the user authenticated); the token service writes the login's own
      // level where this claim is, "0" when the SSO session alone authenticated it (token acr.ts).
      return one(["acr"], "1");
    case "oidc-sub-mapper":
      return one(["sub"], s.id);
    case "oidc-address-mapper": {
      // OIDC Core 5.1.1: a JSON object; Keycloak reads attributes named as the members by default
      // ("street" feeds street_address). Members without a value are left out, and so is the claim.
      const address: Record<string, string> = {};
      for (const member of ADDRESS_MEMBERS) {
        const value = s.attributes[c[`user.attribute.${member}`] || member]?.[0];
        if (value) address[member === "street" ? "street_address" : member] = value;
      }
      return Object.keys(address).length ? one(["address"], address) : [];
    }
    case "oidc-organization-membership-mapper": {
      // Keycloak 26's shapes: a list of aliases, or with addOrganizationId / addOrganizationAttributes
      // an object keyed by alias holding `id` and the attributes.
      const orgs = [...(s.organizations ?? [])].sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));
      if (!orgs.length) return [];
      const name = claim(c["claim.name"] || "organization");
      if (c.addOrganizationId !== "true" && c.addOrganizationAttributes !== "true") return one(name, orgs.map((o) => o.alias));
      const detailed: Record<string, Record<string, unknown>> = {};
      for (const o of orgs) {
        detailed[o.alias] = {
          ...(c.addOrganizationAttributes === "true" ? o.attributes : {}),
          ...(c.addOrganizationId === "true" ? { id: o.id } : {}),
          // The member's organization roles (spec 1.13), when it holds some.
          ...(o.roles?.length ? { roles: o.roles } : {}),
        };
      }
      return one(name, detailed);
    }
    default:
      return [];
  }
}

function one(path: string[], value: unknown): Write[] {
  return value === undefined ? [] : [[path, value]];
}

function rolesValue(roles: string[], c: Record<string, string>): unknown {
  const values = roles.map((r) => convert(r, c["jsonType.label"])).filter((v) => v !== undefined);
  return c.multivalued === "false" ? values.join(",") : values;
}

/** Keycloak's jsonType.label conversion; a value that does not convert is left out. */
export function convert(value: string, jsonType: string | undefined): unknown {
  switch (jsonType) {
    case "long":
    case "int": {
      const n = Number(value);
      return value.trim() !== "" && Number.isInteger(n) ? n : undefined;
    }
    case "boolean":
      return value === "true" ? true : value === "false" ? false : undefined;
    case "JSON":
      try {
        return JSON.parse(value);
      } catch {
        return undefined;
      }
    default:
      return value;
  }
}

/** Sets a nested claim; arrays are merged with arrays already there (union). */
export function setClaim(target: ClaimSet, path: string[], value: unknown): void {
  let obj = target;
  for (const key of path.slice(0, -1)) {
    const next = obj[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) obj[key] = {};
    obj = obj[key] as ClaimSet;
  }
  const last = path[path.length - 1] as string;
  const existing = obj[last];
  obj[last] = Array.isArray(existing) && Array.isArray(value) ? [...new Set([...existing, ...value])] : value;
}
