import { toJson } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import {
  IdentityProviderInputSchema, IdentityProviderSchema, type FederatedIdentity, type IdentityProvider,
} from "../../../gen/iam/broker/v1/identity_provider_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody, requireObject } from "../http/json-input.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";

/**
 * The migration shape's `config` keys (Keycloak's IdentityProviderRepresentation) and the flat
 * field each one is. Keycloak-only switches Tessera has no use for are accepted and ignored, so a
 * Keycloak export imports as it is.
 */
const CONFIG_FIELDS: Readonly<Record<string, string>> = {
  clientId: "clientId", clientSecret: "clientSecret", issuer: "issuer", authorizationUrl: "authorizationUrl",
  tokenUrl: "tokenUrl", userInfoUrl: "userinfoUrl", userinfoUrl: "userinfoUrl", jwksUrl: "jwksUrl",
  defaultScope: "defaultScopes", defaultScopes: "defaultScopes",
};
const IGNORED_CONFIG = new Set(["useJwksUrl", "validateSignature", "pkceEnabled", "pkceMethod", "syncMode", "clientAuthMethod", "hideOnLoginPage", "guiOrder", "backchannelSupported"]);
/** Keycloak's config switches that are flat booleans here; Keycloak writes them as "true" / "false". */
const BOOLEAN_CONFIG: Readonly<Record<string, string>> = { loginHint: "loginHint" };
const IGNORED_TOP = new Set(["internalId", "storeToken", "addReadTokenRoleOnCreate", "authenticateByDefault", "linkOnly", "firstBrokerLoginFlowAlias", "postBrokerLoginFlowAlias", "updateProfileFirstLoginMode", "hideOnLogin"]);
/** Keycloak provider ids that are Tessera's provider types under another name. */
const PROVIDER_IDS: Readonly<Record<string, string>> = { "keycloak-oidc": "oidc" };
const URL_FIELDS = ["userinfoUrl", "jwksUrl", "issuer"] as const;

/** Identity providers (spec 2.9, 4.10) and users' federated identities (Keycloak's paths). */
export function addIdentityProviderRoutes(table: RouteTable, rpc: RpcClients): void {
  const base = "/admin/realms/:realmName/identity-providers";
  const realmOf = (req: { params: Record<string, unknown> }) => String(req.params.realmName);
  const aliasOf = (req: { params: Record<string, unknown> }) => String(req.params.alias);
  table
    .add("POST", base, "admin", async (req) => {
      const provider = parseBody(IdentityProviderInputSchema, flatten(req.body));
      const res = await rpc.identityProviders.createIdentityProvider({ realm: realmOf(req), provider });
      return { status: 201, body: providerJson(res.provider) };
    })
    .add("GET", base, "admin", async (req) => {
      const res = await rpc.identityProviders.listIdentityProviders({ realm: realmOf(req) });
      return { status: 200, body: res.providers.map(providerJson) };
    })
    .add("GET", `${base}/:alias`, "admin", async (req) => {
      const res = await rpc.identityProviders.getIdentityProvider({ realm: realmOf(req), alias: aliasOf(req) });
      return { status: 200, body: providerJson(res.provider) };
    })
    .add("PUT", `${base}/:alias`, "admin", async (req) => {
      const provider = parseBody(IdentityProviderInputSchema, flatten(req.body));
      const res = await rpc.identityProviders.updateIdentityProvider({ realm: realmOf(req), alias: aliasOf(req), provider });
      return { status: 200, body: providerJson(res.provider) };
    })
    .add("DELETE", `${base}/:alias`, "admin", async (req) => {
      const res = await rpc.identityProviders.deleteIdentityProvider({ realm: realmOf(req), alias: aliasOf(req) });
      return { status: 200, body: providerJson(res.provider) };
    })
    .add("GET", "/admin/realms/:realmName/users/:userId/federated-identity", "admin", async (req) => {
      const res = await rpc.identityProviders.listFederatedIdentities({ realm: realmOf(req), userId: String(req.params.userId) });
      return { status: 200, body: res.identities.map(identityJson) };
    })
    .add("DELETE", "/admin/realms/:realmName/users/:userId/federated-identity/:alias", "admin", async (req) => {
      await rpc.identityProviders.deleteFederatedIdentity({ realm: realmOf(req), userId: String(req.params.userId), alias: aliasOf(req) });
      return { status: 204 };
    });
}

/**
 * The migration shape (spec 2.9: `providerId` and a nested `config`) as the flat fields; a body
 * in the flat shape passes as it is. A field of `config` is named `config.<key>` when refused.
 */
export function flatten(body: unknown): Record<string, unknown> {
  const obj = requireObject(body);
  if (!("config" in obj) && !("providerId" in obj)) return obj;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (k !== "config" && k !== "providerId" && !IGNORED_TOP.has(k)) out[k] = v;
  if ("providerId" in obj) {
    if ("providerType" in obj) throw new GatewayError(400, "invalid_field", "send providerType or providerId, not both", "providerId");
    if (typeof obj.providerId !== "string") throw new GatewayError(400, "invalid_field", "providerId must be a string", "providerId");
    out.providerType = PROVIDER_IDS[obj.providerId] ?? obj.providerId;
  }
  if ("config" in obj) {
    const config = obj.config;
    if (typeof config !== "object" || config === null || Array.isArray(config)) throw new GatewayError(400, "invalid_field", "config must be an object", "config");
    for (const [k, v] of Object.entries(config as Record<string, unknown>)) {
      if (IGNORED_CONFIG.has(k)) continue;
      const flag = BOOLEAN_CONFIG[k];
      if (flag) {
        if (v !== "true" && v !== "false") throw new GatewayError(400, "invalid_field", `config.${k} must be "true" or "false"`, `config.${k}`);
        if (flag in out) throw new GatewayError(400, "invalid_field", `${flag} is sent both at the top level and in config`, `config.${k}`);
        out[flag] = v === "true";
        continue;
      }
      const field = CONFIG_FIELDS[k];
      if (!field) throw new GatewayError(400, "unknown_field", `unknown field: config.${k}`, `config.${k}`);
      if (typeof v !== "string") throw new GatewayError(400, "invalid_field", `config.${k} must be a string`, `config.${k}`);
      if (field in out) throw new GatewayError(400, "invalid_field", `${field} is sent both at the top level and in config`, `config.${k}`);
      out[field] = v;
    }
  }
  return out;
}

export function providerJson(p: IdentityProvider | undefined): Record<string, unknown> {
  if (!p) return {};
  const json = toJson(IdentityProviderSchema, p, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  // Absent rather than empty when not set.
  for (const f of URL_FIELDS) if (json[f] === "") delete json[f];
  return json;
}

function identityJson(i: FederatedIdentity): Record<string, unknown> {
  return {
    identityProvider: i.identityProvider, userId: i.userId, userName: i.userName,
    ...(i.createdAt ? { createdAt: timestampDate(i.createdAt).toISOString() } : {}),
  };
}
