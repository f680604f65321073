/**
 * The client scopes and mappers every realm starts with, as in Keycloak (spec 2.8; Keycloak's
 * built-in "profile", "email", "roles", "web-origins", "acr", "basic", "offline_access", "address",
 * "phone"), and the assignments new clients get. `auth_time` of "basic" is a session fact the token service adds.
 */
export interface BuiltinMapper {
  name: string;
  mapperType: string;
  config: Record<string, string>;
  /** The seed version that added it to a scope seeded before (RealmDefaults); absent: with its scope. */
  since?: number;
}

export interface BuiltinScope {
  name: string;
  description: string;
  /**
   * Listed on the consent screen (Keycloak's "Display on consent screen"). Keycloak hides roles,
   * web-origins, acr and basic: what they add (roles, origins, the level of assurance, sub) is not
   * the user's personal data to release (consent-screen.ts).
   */
  onConsentScreen: boolean;
  /** What the consent screen says for it: Keycloak's consent texts (its `*ScopeConsentText` messages). */
  consentText?: string;
  mappers: BuiltinMapper[];
  /** The seed version that introduced it (RealmDefaults): realms seeded before get it once. */
  since: number;
}

const ALL = { "id.token.claim": "true", "access.token.claim": "true", "userinfo.token.claim": "true" };

function property(name: string, prop: string, claim: string, jsonType = "String"): BuiltinMapper {
  return { name, mapperType: "oidc-usermodel-property-mapper", config: { ...ALL, "user.attribute": prop, "claim.name": claim, "jsonType.label": jsonType } };
}

function attribute(name: string, attr: string, claim: string, jsonType = "String"): BuiltinMapper {
  return { name, mapperType: "oidc-usermodel-attribute-mapper", config: { ...ALL, "user.attribute": attr, "claim.name": claim, "jsonType.label": jsonType } };
}

export const BUILTIN_SCOPES: BuiltinScope[] = [
  {
    name: "profile", description: "OpenID Connect built-in scope: profile", onConsentScreen: true, consentText: "User profile", since: 1,
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
      // OIDC Core 5.1: seconds since the epoch of the user's last update (a JSON number).
      { ...property("updated at", "updatedAt", "updated_at", "long"), since: 4 },
    ],
  },
  {
    name: "email", description: "OpenID Connect built-in scope: email", onConsentScreen: true, consentText: "Email address", since: 1,
    mappers: [property("email", "email", "email"), property("email verified", "emailVerified", "email_verified", "boolean")],
  },
  {
    name: "roles", description: "OpenID Connect scope for add user roles to the access token", onConsentScreen: false, since: 1,
    mappers: [
      { name: "realm roles", mapperType: "oidc-usermodel-realm-role-mapper", config: { "access.token.claim": "true", "claim.name": "realm_access.roles", "multivalued": "true", "jsonType.label": "String" } },
      { name: "client roles", mapperType: "oidc-usermodel-client-role-mapper", config: { "access.token.claim": "true", "claim.name": "resource_access.${client_id}.roles", "multivalued": "true", "jsonType.label": "String" } },
      { name: "audience resolve", mapperType: "oidc-audience-resolve-mapper", config: { "access.token.claim": "true" } },
    ],
  },
  { name: "offline_access", description: "OpenID Connect built-in scope: offline_access", onConsentScreen: true, consentText: "Offline Access", mappers: [], since: 1 },
  {
    name: "web-origins", description: "OpenID Connect scope for add allowed web origins to the access token", onConsentScreen: false, since: 1,
    mappers: [{ name: "allowed web origins", mapperType: "oidc-allowed-origins-mapper", config: { "access.token.claim": "true" } }],
  },
  {
    name: "acr", description: "OpenID Connect scope for add acr (authentication context class reference) to the token", onConsentScreen: false, since: 1,
    mappers: [{ name: "acr loa level", mapperType: "oidc-acr-mapper", config: { "id.token.claim": "true", "access.token.claim": "true" } }],
  },
  {
    name: "basic", description: "OpenID Connect scope for add all basic claims to the token", onConsentScreen: false, since: 1,
    mappers: [{ name: "sub", mapperType: "oidc-sub-mapper", config: { "access.token.claim": "true", "introspection.token.claim": "true" } }],
  },
  // OIDC Core 5.4's other two standard scopes, optional for new clients as in Keycloak.
  {
    name: "address", description: "OpenID Connect built-in scope: address", onConsentScreen: true, consentText: "Address", since: 2,
    mappers: [{
      name: "address", mapperType: "oidc-address-mapper",
      config: {
        ...ALL, "user.attribute.formatted": "formatted", "user.attribute.street": "street", "user.attribute.locality": "locality",
        "user.attribute.region": "region", "user.attribute.postal_code": "postal_code", "user.attribute.country": "country",
      },
    }],
  },
  {
    name: "phone", description: "OpenID Connect built-in scope: phone", onConsentScreen: true, consentText: "Phone number", since: 2,
    mappers: [
      attribute("phone number", "phoneNumber", "phone_number"),
      attribute("phone number verified", "phoneNumberVerified", "phone_number_verified", "boolean"),
    ],
  },
  // Keycloak 26's "organization" scope: the organizations the user is a member of, in the detailed
  // form (`{ "<alias>": { "id": "<orgId>" } }`, its mapper's addOrganizationId). A client asks for
  // one organization with the dynamic scope `organization:<alias>` (organization-scope.ts).
  {
    name: "organization", description: "Additional claims about the organization a subject belongs to", onConsentScreen: true,
    consentText: "Organization", since: 3,
    mappers: [{
      name: "organization", mapperType: "oidc-organization-membership-mapper",
      config: { ...ALL, "introspection.token.claim": "true", "claim.name": "organization", "jsonType.label": "JSON", "multivalued": "true", "addOrganizationId": "true" },
    }],
  },
];

/** The newest `since` above: a realm's seed mark at this version has every built-in scope. */
export const BUILTIN_SEED_VERSION = Math.max(...BUILTIN_SCOPES.flatMap((s) => [s.since, ...s.mappers.map((m) => m.since ?? s.since)]));

export const NEW_CLIENT_DEFAULT_SCOPES = ["basic", "profile", "email", "roles", "web-origins", "acr"];
export const NEW_CLIENT_OPTIONAL_SCOPES = ["offline_access", "address", "phone", "organization"];
