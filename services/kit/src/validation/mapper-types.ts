/**
 * The protocol mapper types Tessera runs and the config keys each accepts (Keycloak's names). Kept
 * in kit, not in the directory's rules, because the gateway's Keycloak import reads it too: a
 * Keycloak mapper of another type, or a key no type here reads, is reported there, not refused;
 * and the admin console builds its mapper form from it. No Node import here: the console bundles it.
 */
/** Flags choosing which tokens a mapper writes to (Keycloak's config keys). */
export const TOKEN_FLAGS = ["id.token.claim", "access.token.claim", "userinfo.token.claim", "introspection.token.claim"];
const CLAIM = ["claim.name", "jsonType.label"];

/** Claims the token service owns; a mapper (a plugin's too) must not overwrite them. */
export const RESERVED_CLAIMS: ReadonlySet<string> = new Set(["iss", "exp", "iat", "nbf", "jti", "typ", "azp", "sid", "nonce", "auth_time", "session_state", "scope"]);

/** A plugin's mapper type is `plugin:<plugin id>` (plugins/plugin-registry.ts). */
export const PLUGIN_TYPE_PREFIX = "plugin:";

/** The address mapper's settings: `user.attribute.<member>` names the attribute for that member. */
export const ADDRESS_MEMBERS = ["formatted", "street", "locality", "region", "postal_code", "country"] as const;
const ADDRESS_KEYS = ADDRESS_MEMBERS.map((m) => `user.attribute.${m}`);

/** Mapper types and the config keys each accepts; `required` keys must be present and non-empty. */
export const MAPPER_TYPES: Record<string, { keys: string[]; required: string[] }> = {
  "oidc-usermodel-attribute-mapper": { keys: [...TOKEN_FLAGS, ...CLAIM, "user.attribute", "multivalued", "aggregate.attrs"], required: ["claim.name", "user.attribute"] },
  "oidc-usermodel-property-mapper": { keys: [...TOKEN_FLAGS, ...CLAIM, "user.attribute"], required: ["claim.name", "user.attribute"] },
  "oidc-hardcoded-claim-mapper": { keys: [...TOKEN_FLAGS, ...CLAIM, "claim.value"], required: ["claim.name", "claim.value"] },
  "oidc-group-membership-mapper": { keys: [...TOKEN_FLAGS, "claim.name", "full.path"], required: ["claim.name"] },
  "oidc-usermodel-realm-role-mapper": { keys: [...TOKEN_FLAGS, ...CLAIM, "multivalued"], required: ["claim.name"] },
  "oidc-usermodel-client-role-mapper": { keys: [...TOKEN_FLAGS, ...CLAIM, "multivalued", "usermodel.clientRoleMapping.clientId"], required: ["claim.name"] },
  "oidc-audience-mapper": { keys: [...TOKEN_FLAGS, "included.client.audience", "included.custom.audience"], required: [] },
  // Built-in mappers of the default scopes (Keycloak's), also accepted from admins.
  "oidc-full-name-mapper": { keys: TOKEN_FLAGS, required: [] },
  "oidc-audience-resolve-mapper": { keys: TOKEN_FLAGS, required: [] },
  "oidc-allowed-origins-mapper": { keys: TOKEN_FLAGS, required: [] },
  "oidc-acr-mapper": { keys: TOKEN_FLAGS, required: [] },
  "oidc-sub-mapper": { keys: TOKEN_FLAGS, required: [] },
  // The "address" scope's mapper (OIDC Core 5.1.1): which user attribute feeds each member.
  "oidc-address-mapper": { keys: [...TOKEN_FLAGS, ...ADDRESS_KEYS], required: [] },
  // The "organization" scope's mapper (Keycloak 26): the member's organizations, by alias.
  "oidc-organization-membership-mapper": { keys: [...TOKEN_FLAGS, ...CLAIM, "multivalued", "addOrganizationId", "addOrganizationAttributes"], required: [] },
};


/** Config keys whose value is "true" or "false". */
export const BOOLEAN_MAPPER_KEYS: readonly string[] = [...TOKEN_FLAGS, "multivalued", "full.path", "aggregate.attrs", "addOrganizationId", "addOrganizationAttributes"];

/** Values of `jsonType.label` (Keycloak's claim JSON types). */
export const JSON_TYPES: readonly string[] = ["String", "long", "int", "boolean", "JSON"];

/** What `user.attribute` of the user property mapper may name. */
export const USER_PROPERTIES: readonly string[] = ["username", "email", "firstName", "lastName", "emailVerified", "updatedAt"];

/** Mapper types whose claims only an access token carries (Keycloak's audience and web-origins mappers). */
const ACCESS_ONLY: ReadonlySet<string> = new Set(["oidc-audience-mapper", "oidc-audience-resolve-mapper", "oidc-allowed-origins-mapper"]);

/**
 * Keycloak's defaults for the token switches (its admin console sets them on): every token for
 * claim mappers, the access token (and introspection) only for the audience and web-origins
 * mappers, whose claims mean nothing in an ID token or userinfo.
 */
export function tokenFlagDefaults(mapperType: string): Record<string, "true" | "false"> {
  const accessOnly = ACCESS_ONLY.has(mapperType);
  return {
    "id.token.claim": accessOnly ? "false" : "true", "access.token.claim": "true",
    "userinfo.token.claim": accessOnly ? "false" : "true", "introspection.token.claim": "true",
  };
}
