/**
 * The client scopes and mappers every realm starts with, as in Keycloak (spec 2.8; Keycloak's
 * built-in "profile", "email", "roles", "web-origins", "acr", "basic", "offline_access"), and the
 * assignments new clients get. `auth_time` of "basic" is a session fact the token service adds.
 */
export interface BuiltinMapper {
  name: string;
  mapperType: string;
  config: Record<string, string>;
}

export interface BuiltinScope {
  name: string;
  description: string;
  mappers: BuiltinMapper[];
}

const ALL = { "id.token.claim": "true", "access.token.claim": "true", "userinfo.token.claim": "true" };

function property(name: string, prop: string, claim: string, jsonType = "String"): BuiltinMapper {
  return { name, mapperType: "oidc-usermodel-property-mapper", config: { ...ALL, "user.attribute": prop, "claim.name": claim, "jsonType.label": jsonType } };
}

function attribute(name: string, attr: string, claim: string): BuiltinMapper {
  return { name, mapperType: "oidc-usermodel-attribute-mapper", config: { ...ALL, "user.attribute": attr, "claim.name": claim, "jsonType.label": "String" } };
}

export const BUILTIN_SCOPES: BuiltinScope[] = [
  {
    name: "profile", description: "OpenID Connect built-in scope: profile",
    mappers: [
      { name: "full name", mapperType: "oidc-full-name-mapper", config: { ...ALL } },
      property("username", "username", "preferred_username"),
      property("given name", "firstName", "given_name"),
      property("family name", "lastName", "family_name"),
      attribute("middle name", "middleName", "middle_name"),
      attribute("nickname", "nickname", "nickname"),
      attribute("profile", "profile", "profile"),
      attribute("picture", "picture", "picture"),
      attribute("website", "website", "website"),
      attribute("gender", "gender", "gender"),
      attribute("birthdate", "birthdate", "birthdate"),
      attribute("zoneinfo", "zoneinfo", "zoneinfo"),
      attribute("locale", "locale", "locale"),
    ],
  },
  {
    name: "email", description: "OpenID Connect built-in scope: email",
    mappers: [property("email", "email", "email"), property("email verified", "emailVerified", "email_verified", "boolean")],
  },
  {
    name: "roles", description: "OpenID Connect scope for add user roles to the access token",
    mappers: [
      { name: "realm roles", mapperType: "oidc-usermodel-realm-role-mapper", config: { "access.token.claim": "true", "claim.name": "realm_access.roles", "multivalued": "true", "jsonType.label": "String" } },
      { name: "client roles", mapperType: "oidc-usermodel-client-role-mapper", config: { "access.token.claim": "true", "claim.name": "resource_access.${client_id}.roles", "multivalued": "true", "jsonType.label": "String" } },
      { name: "audience resolve", mapperType: "oidc-audience-resolve-mapper", config: { "access.token.claim": "true" } },
    ],
  },
  { name: "offline_access", description: "OpenID Connect built-in scope: offline_access", mappers: [] },
  {
    name: "web-origins", description: "OpenID Connect scope for add allowed web origins to the access token",
    mappers: [{ name: "allowed web origins", mapperType: "oidc-allowed-origins-mapper", config: { "access.token.claim": "true" } }],
  },
  {
    name: "acr", description: "OpenID Connect scope for add acr (authentication context class reference) to the token",
    mappers: [{ name: "acr loa level", mapperType: "oidc-acr-mapper", config: { "id.token.claim": "true", "access.token.claim": "true" } }],
  },
  {
    name: "basic", description: "OpenID Connect scope for add all basic claims to the token",
    mappers: [{ name: "sub", mapperType: "oidc-sub-mapper", config: { "access.token.claim": "true", "introspection.token.claim": "true" } }],
  },
];

export const NEW_CLIENT_DEFAULT_SCOPES = ["basic", "profile", "email", "roles", "web-origins", "acr"];
export const NEW_CLIENT_OPTIONAL_SCOPES = ["offline_access"];
