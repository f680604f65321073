/**
 * The realm export document's version, limits and owners (document-schema.ts holds its schema).
 * Apart from the zod schema so that code needing only these values (the passkey store, the export
 * stream) does not load zod, some 95 modules and 830 KB of source, at start: the schema is needed
 * only when a document is exported, validated or imported.
 */
export const FORMAT_VERSION = 1;

/** Passkeys a user may hold (the directory's MAX_PASSKEYS_PER_USER). */
export const MAX_PASSKEYS_PER_USER = 20;

/** Which service owns which top-level section (DESIGN 3); the gateway splits a document by it. */
export const SECTION_OWNERS = {
  directory: ["realm", "roles", "clientScopes", "clients", "groups", "organizations", "authenticationFlows", "users"],
  token: ["signingKeys"],
  saml: ["samlServiceProviders", "samlSigningKeys"],
  broker: ["identityProviders", "identityProviderMappers"],
  federation: ["userFederationProviders"],
  audit: ["webhooks"],
} as const;

/**
 * Fields of each user that another service than the directory owns (Keycloak keeps a user's
 * identity provider links in the user): the export merges them into each page of users, the
 * import hands them to their owner as `users: [{id, <field>}]`, indexes kept so paths hold.
 */
export const USER_FIELD_OWNERS = {
  broker: ["federatedIdentities"],
} as const;
