import { z } from "zod";
import { FORMAT_VERSION, MAX_PASSKEYS_PER_USER } from "./document-format.js";
import { USER_REQUIRED_ACTIONS } from "../validation/required-actions.js";

export { FORMAT_VERSION, MAX_PASSKEYS_PER_USER, SECTION_OWNERS, USER_FIELD_OWNERS } from "./document-format.js";

/**
 * The realm export document (spec 1.9, 2.1 "the export is a full JSON representation of the
 * realm; the import accepts that same JSON"). One schema, three uses: the gateway checks every
 * imported document with it before anything is written, docs/realm-export.schema.json is emitted
 * from it (`npm run generate:export-schema`; a test keeps the two equal), and the tests check every export against
 * that file. Objects are strict: an unknown field is a problem to report, never a value dropped.
 *
 * Secrets (client secrets, the SMTP password, TOTP seeds, signing keys, IdP and LDAP credentials)
 * are optional fields that an export without includeSecrets leaves out entirely.
 */

const name = z.string().min(1).max(255);
const id = z.string().min(1).max(128);
const text = z.string().max(4096);
const stringList = z.array(z.string().max(2048)).max(1000);
const epochMs = z.number().int().nonnegative();
/** Roles of clients, by client slug (Keycloak's `clientRoles` shape). */
const clientRoleMap = z.record(z.string().max(255), z.array(name).max(1000));

/**
 * The roles a composite role contains, by name as holders name theirs (realm roles, client roles
 * under their client's clientId); absent: not a composite.
 */
export const roleCompositesSchema = z.strictObject({
  realmRoles: z.array(name).max(500), clientRoles: z.record(z.string().max(255), z.array(name).max(500)),
});

export const roleSchema = z.strictObject({ id, name, description: text.optional(), composites: roleCompositesSchema.optional() });

export const protocolMapperSchema = z.strictObject({
  id, name, mapperType: name, protocol: name, config: z.record(z.string().max(255), z.string().max(4096)),
});

export const clientScopeSchema = z.strictObject({
  id, name, description: text.optional(), protocol: name, protocolMappers: z.array(protocolMapperSchema).max(1000),
});

export const serviceAccountSchema = z.strictObject({
  id, username: name, realmRoles: z.array(name).max(1000), clientRoles: clientRoleMap,
});

export const clientSchema = z.strictObject({
  id, clientId: name, name: text, description: text,
  clientType: z.enum(["CONFIDENTIAL", "PUBLIC"]), enabled: z.boolean(),
  redirectUris: stringList, webOrigins: stringList, grantTypes: z.array(name).max(20),
  requireConsent: z.boolean(), backchannelLogoutUri: z.string().max(2048), backchannelLogoutSessionRequired: z.boolean(),
  /** Request objects and PAR (RFC 9101, RFC 9126); absent in documents from before them. */
  jwks: z.strictObject({ keys: z.array(z.record(z.string(), z.unknown())).max(20) }).optional(),
  requestObjectSignatureAlg: z.enum(["", "any", "none", "RS256", "PS256", "ES256", "EdDSA"]).optional(),
  requirePushedAuthorizationRequests: z.boolean().optional(),
  /** DPoP (RFC 9449); absent in documents from before it. */
  dpopBoundAccessTokens: z.boolean().optional(),
  dpopNonceRequired: z.boolean().optional(),
  /** Token exchange (RFC 8693); absent in documents from before it. */
  standardTokenExchangeEnabled: z.boolean().optional(),
  /** Per-client signing algorithms ("" = the realm's); absent in documents from before them. */
  idTokenSignedResponseAlg: z.enum(["", "RS256", "PS256", "ES256", "EdDSA"]).optional(),
  accessTokenSignedResponseAlg: z.enum(["", "RS256", "PS256", "ES256", "EdDSA"]).optional(),
  /** Client authentication when not the type's default (client_secret_basic, or none for PUBLIC). */
  tokenEndpointAuthMethod: z.enum(["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none"]).optional(),
  /** Where the client publishes its keys, when it does; absent is none. */
  jwksUri: z.string().max(2048).optional(),
  /** The security profile it follows ("fapi2-security"); absent is none. */
  clientProfile: z.enum(["", "fapi2-security"]).optional(),
  /** Authentication flow aliases used instead of the realm's; absent is the realm's. */
  browserFlowOverride: name.optional(),
  directGrantFlowOverride: name.optional(),
  /** Only with includeSecrets, and only for CONFIDENTIAL clients. */
  secret: z.string().min(1).max(512).optional(),
  defaultClientScopes: z.array(name).max(1000),
  optionalClientScopes: z.array(name).max(1000),
  roles: z.array(roleSchema).max(10_000),
  serviceAccount: serviceAccountSchema.optional(),
});

export interface GroupDoc {
  id: string;
  name: string;
  description?: string | undefined;
  /** Keycloak's group attributes (the user attributes' rules); absent: none. */
  attributes?: Record<string, string[]> | undefined;
  realmRoles: string[];
  clientRoles: Record<string, string[]>;
  subGroups: GroupDoc[];
}

export const groupSchema: z.ZodType<GroupDoc> = z.lazy(() => z.strictObject({
  id, name, description: text.optional(),
  attributes: z.record(z.string().max(255), z.array(z.string().max(4096)).max(100)).optional(),
  realmRoles: z.array(name).max(1000), clientRoles: clientRoleMap,
  subGroups: z.array(groupSchema).max(10_000),
}));

export const passwordCredentialSchema = z.strictObject({
  type: z.literal("password"),
  /** PHC or modular-crypt string: argon2id, bcrypt or pbkdf2 (DESIGN 5). */
  passwordHash: z.string().min(1).max(1024),
  temporary: z.boolean(),
  createdAt: epochMs,
});

export const totpCredentialSchema = z.strictObject({
  type: z.literal("totp"),
  /** Only with includeSecrets: the RFC 6238 shared key, base32 (RFC 4648) without padding. */
  secret: z.string().regex(/^[A-Z2-7]+$/).min(16).max(128).optional(),
  createdAt: epochMs,
});

const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/);

/**
 * A WebAuthn credential (passkey) as the relying party keeps it (WebAuthn Level 2 section 4,
 * "Public Key Credential Source"): the credential id and COSE public key (base64url), the
 * signature counter, transports and the user's label. Public keys are not secrets, so passkeys
 * travel in every export; an imported passkey signs in as before wherever the relying-party id
 * (the host of TESSERA_PUBLIC_URL) is the same.
 */
export const passkeyCredentialSchema = z.strictObject({
  type: z.literal("passkey"),
  id,
  credentialId: base64url.min(16).max(1366),
  publicKey: base64url.min(16).max(4096),
  signCount: z.number().int().nonnegative().max(0xffffffff),
  transports: z.array(z.enum(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"])).max(7),
  label: z.string().max(64),
  backedUp: z.boolean(),
  createdAt: epochMs,
  lastUsedAt: epochMs,
});


/**
 * A user's link to an upstream account (Keycloak's FederatedIdentityRepresentation):
 * `identityProvider` is the provider's alias, `userId` the upstream subject, `userName` the
 * upstream username as last seen.
 */
export const federatedIdentitySchema = z.strictObject({
  identityProvider: name, userId: z.string().min(1).max(1024), userName: z.string().max(1024),
});

export const userSchema = z.strictObject({
  id, username: name, email: z.string().max(320), firstName: text, lastName: text,
  enabled: z.boolean(), emailVerified: z.boolean(), requirePasswordReset: z.boolean(),
  /** Keycloak's names; UPDATE_PASSWORD is requirePasswordReset (either sets it). Absent: none. */
  requiredActions: z.array(z.enum(USER_REQUIRED_ACTIONS)).max(USER_REQUIRED_ACTIONS.length).optional(),
  attributes: z.record(z.string().max(255), z.array(z.string().max(4096)).max(100)).optional(),
  createdAt: epochMs,
  credentials: z.array(z.discriminatedUnion("type", [passwordCredentialSchema, totpCredentialSchema, passkeyCredentialSchema])).max(2 + MAX_PASSKEYS_PER_USER),
  realmRoles: z.array(name).max(1000),
  clientRoles: clientRoleMap,
  /** Group paths ("/parent/child"). */
  groups: z.array(z.string().min(2).max(4096)).max(1000),
  /** Links to identity providers (Keycloak's shape); the broker service fills and reads them. */
  federatedIdentities: z.array(federatedIdentitySchema).max(100),
  /** Aliases of the organizations the user is a member of (absent in documents from before them). */
  organizations: z.array(name).max(1000).optional(),
  /** The organization roles granted to the user, by organization alias (a member's grants only). */
  organizationRoles: z.record(name, z.array(name).max(1000)).optional(),
  /**
   * Aliases, among `organizations`, of those whose identity provider created the account: its
   * membership there is MANAGED (Keycloak 26), the others UNMANAGED. Absent: none.
   */
  managedOrganizations: z.array(name).max(1000).optional(),
});

/** An organization (Keycloak 26's OrganizationRepresentation); its members are on the users (`organizations`). */
export const organizationSchema = z.strictObject({
  id, name, alias: name, enabled: z.boolean(), description: text.optional(), redirectUrl: z.string().max(2048).optional(),
  domains: z.array(z.strictObject({ name: z.string().min(1).max(253), verified: z.boolean() })).max(100),
  attributes: z.record(z.string().max(255), z.array(z.string().max(4096)).max(100)).optional(),
  identityProviders: z.array(name).max(20),
  /** The organization's own roles (absent in documents from before them); grants are on the users. */
  roles: z.array(z.strictObject({ name, description: z.string().max(1024) })).max(1000).optional(),
});

export const realmSettingsSchema = z.strictObject({
  name,
  displayName: z.string().max(255),
  enabled: z.boolean(),
  accessTokenLifespan: z.number().int(), refreshTokenLifespan: z.number().int(), offlineTokenLifespan: z.number().int(),
  ssoSessionMaxLifespan: z.number().int(),
  /** Keycloak's rememberMe and its session lifespans; absent in documents from before them (off, 0). */
  rememberMe: z.boolean().optional(),
  ssoSessionIdleTimeoutRememberMe: z.number().int().optional(),
  ssoSessionMaxLifespanRememberMe: z.number().int().optional(),
  smtpHost: z.string().max(255), smtpPort: z.number().int(), smtpUser: z.string().max(255),
  /** Only with includeSecrets, and only when one is set. */
  smtpPassword: z.string().min(1).max(1024).optional(),
  smtpFrom: z.string().max(320), smtpSecure: z.boolean(),
  passwordMinLength: z.number().int(), passwordRequireUppercase: z.boolean(), passwordRequireLowercase: z.boolean(),
  passwordRequireDigits: z.boolean(), passwordRequireSpecialChars: z.boolean(),
  passwordHistoryCount: z.number().int(), passwordMaxAgeDays: z.number().int(),
  bruteForceEnabled: z.boolean(), maxLoginFailures: z.number().int(), lockoutDuration: z.number().int(),
  failureResetTime: z.number().int(), permanentLockoutAfter: z.number().int(),
  registrationAllowed: z.boolean(), requireEmailVerification: z.boolean(), mfaRequired: z.boolean(),
  eventsEnabled: z.boolean(), eventsExpiration: z.number().int(), adminEventsEnabled: z.boolean(),
  themeName: name, theme: z.record(z.string().max(64), z.string().max(2048)),
  loginTheme: name, accountTheme: name, emailTheme: name,
  rateLimitPerIp: z.number().int(), rateLimitPerClient: z.number().int(),
  /** RFC 9126 section 6; absent in documents from before it (false). */
  requirePushedAuthorizationRequests: z.boolean().optional(),
  /** Keycloak's resetPasswordAllowed; absent in documents from before it was exported (false). */
  resetPasswordAllowed: z.boolean().optional(),
  /** Keycloak's editUsernameAllowed; absent in documents from before it (false). */
  editUsernameAllowed: z.boolean().optional(),
  /** Aliases of the browser and direct-grant flows; absent is the built-in "browser" and "direct grant". */
  browserFlow: name.optional(),
  directGrantFlow: name.optional(),
  /**
   * Keycloak 26's organizationsEnabled. Absent in documents from before it, exported when
   * organizations were always on: such a realm imports with them on.
   */
  organizationsEnabled: z.boolean().optional(),
  /**
   * Keycloak's WebAuthn Passwordless Policy, under Keycloak's names; each absent in documents from
   * before it (the default). The directory checks the values (webauthn-policy-rules.ts).
   */
  webAuthnPolicyPasswordlessRpEntityName: z.string().max(255).optional(),
  webAuthnPolicyPasswordlessSignatureAlgorithms: z.array(z.string().max(32)).max(100).optional(),
  webAuthnPolicyPasswordlessRpId: z.string().max(253).optional(),
  webAuthnPolicyPasswordlessAttestationConveyancePreference: z.string().max(32).optional(),
  webAuthnPolicyPasswordlessAuthenticatorAttachment: z.string().max(32).optional(),
  webAuthnPolicyPasswordlessRequireResidentKey: z.string().max(32).optional(),
  webAuthnPolicyPasswordlessUserVerificationRequirement: z.string().max(32).optional(),
  webAuthnPolicyPasswordlessCreateTimeout: z.number().int().optional(),
  webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister: z.boolean().optional(),
  webAuthnPolicyPasswordlessAcceptableAaguids: z.array(z.string().max(64)).max(100).optional(),
  webAuthnPolicyPasswordlessExtraOrigins: z.array(z.string().max(2048)).max(100).optional(),
  /** Keycloak's action token lifespans (seconds); absent in documents from before them (the defaults). */
  actionTokenGeneratedByAdminLifespan: z.number().int().optional(),
  actionTokenGeneratedByUserLifespan: z.number().int().optional(),
  /** Keycloak's internationalization settings; absent in documents from before them (off, none). */
  internationalizationEnabled: z.boolean().optional(),
  supportedLocales: z.array(z.string().max(35)).max(50).optional(),
  defaultLocale: z.string().max(35).optional(),
  /** The realm's text overrides, locale -> key -> text (Keycloak's localizationTexts). */
  localizationTexts: z.record(z.string().max(35), z.record(z.string().max(255), z.string().max(4000))).optional(),
});

/**
 * A realm's authentication flow (docs/authentication-flows.md). The steps are a tree (sub-flows);
 * each is checked by the directory's flow rules at import, with its path.
 */
export const authenticationFlowSchema = z.strictObject({
  id, alias: name, description: z.string().max(1024), steps: z.array(z.record(z.string(), z.unknown())).min(1).max(50),
});

export const oidcSigningKeySchema = z.strictObject({
  kid: id, alg: z.enum(["RS256", "PS256", "ES256", "EdDSA"]), status: z.enum(["active", "passive", "retired"]),
  /** Created for a client's algorithm: does not select the realm's; absent (false) before it. */
  clientOnly: z.boolean().optional(),
  publicJwk: z.record(z.string(), z.unknown()),
  /** PKCS#8 PEM: the whole section exists only with includeSecrets. */
  privateKey: z.string().min(1).max(16_384),
  createdAt: epochMs, rotatedAt: epochMs.optional(), notAfter: epochMs.optional(),
});

export const samlSigningKeySchema = z.strictObject({
  id, status: z.enum(["ACTIVE", "PASSIVE"]), algorithm: z.literal("RSA-SHA256"),
  certificate: z.string().min(1).max(16_384), privateKey: z.string().min(1).max(16_384),
  createdAt: epochMs, retiresAt: epochMs.optional(),
});

export const samlServiceProviderSchema = z.strictObject({
  id, entityId: z.string().min(1).max(1024), name, enabled: z.boolean(), acsUrl: z.string().min(1).max(2048),
  sloUrl: z.string().max(2048).optional(), certificate: z.string().max(16_384).optional(),
  nameIdFormat: z.string().max(255), signAssertions: z.boolean(), signResponses: z.boolean(),
  attributeStatements: z.record(z.string().max(255), z.string().max(255)),
  requireSignedRequests: z.boolean().optional(),
});

/**
 * A realm's webhook (docs/webhooks.md; the audit service's part). The signing secret and the
 * custom headers (which may carry a receiver's credentials) are only exported with
 * includeSecrets; a webhook imported without a secret gets a new one and is imported disabled.
 */
export const webhookSchema = z.strictObject({
  id, url: z.string().min(1).max(2048), eventTypes: z.array(z.string().min(1).max(100)).min(1).max(50), enabled: z.boolean(),
  /** Only with includeSecrets. */
  headers: z.record(z.string().max(64), z.string().max(1024)).optional(),
  /** Only with includeSecrets: `whsec_` + base64. */
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/).max(200).optional(),
  /** How long a rotated-out secret keeps signing (seconds; absent: a day). */
  secretGracePeriodSeconds: z.number().int().min(0).max(604_800).optional(),
  /** Only with includeSecrets, and only during a rotation's grace period: the rotated-out secret. */
  previousSecret: z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/).max(200).optional(),
  /** When `previousSecret` stops signing (ISO 8601); with it only (the import checks the pair). */
  previousSecretExpiresAt: z.string().datetime().optional(),
});

/**
 * An identity provider (spec 2.9) as the Admin API shows it, plus its id; the fields the Admin
 * API's create takes as optional are optional here, with the same defaults. The broker service
 * checks the rest (provider types, URLs) as its create does.
 */
export const identityProviderSchema = z.strictObject({
  id, alias: z.string().min(1).max(100), displayName: z.string().max(255).optional(), providerType: name,
  enabled: z.boolean().optional(), clientId: name,
  /** Only with includeSecrets. */
  clientSecret: z.string().min(1).max(2048).optional(),
  /** Optional for the types whose preset knows them (google, github), as on the Admin API. */
  authorizationUrl: z.string().min(1).max(2048).optional(), tokenUrl: z.string().min(1).max(2048).optional(),
  userinfoUrl: z.string().max(2048).optional(), jwksUrl: z.string().max(2048).optional(), issuer: z.string().max(2048).optional(),
  defaultScopes: z.string().max(1024).optional(), trustEmail: z.boolean().optional(), syncUserProfile: z.boolean().optional(),
  /** Keycloak's "Pass login_hint"; absent in documents from before it (off). */
  loginHint: z.boolean().optional(),
});

/**
 * An identity provider mapper, Keycloak's IdentityProviderMapperRepresentation (the realm
 * export's `identityProviderMappers`). The broker service checks the type and its config.
 */
export const identityProviderMapperSchema = z.strictObject({
  id, name: z.string().min(1).max(255), identityProviderAlias: z.string().min(1).max(100), identityProviderMapper: name,
  config: z.record(z.string().max(255), z.string().max(2048)),
});

/**
 * An LDAP user federation provider (spec 2.10) as the Admin API shows it, without its sync
 * state; optional fields as on the Admin API's create. The federation service checks the values.
 */
export const userFederationProviderSchema = z.strictObject({
  id, name, providerType: name, enabled: z.boolean().optional(), priority: z.number().int().optional(),
  connectionUrl: z.string().min(1).max(1024), bindDn: z.string().min(1).max(1024),
  /** Only with includeSecrets. */
  bindCredential: z.string().min(1).max(1024).optional(),
  usersDn: z.string().min(1).max(1024),
  userObjectClass: name.optional(), usernameLdapAttr: name.optional(), uuidLdapAttr: name.optional(),
  emailLdapAttr: name.optional(), firstNameLdapAttr: name.optional(), lastNameLdapAttr: name.optional(),
  syncMode: name.optional(), syncPeriod: z.number().int().optional(), changedSyncPeriod: z.number().int().optional(),
  importEnabled: z.boolean().optional(), connectionTimeout: z.number().int().optional(), vanishedUsers: name.optional(),
});

export const realmDocumentSchema = z.strictObject({
  formatVersion: z.literal(FORMAT_VERSION),
  exportedAt: z.string().max(64).optional(),
  realm: realmSettingsSchema,
  roles: z.array(roleSchema).max(10_000),
  clientScopes: z.array(clientScopeSchema).max(1000),
  clients: z.array(clientSchema).max(10_000),
  groups: z.array(groupSchema).max(10_000),
  /** Absent in documents from before organizations. */
  organizations: z.array(organizationSchema).max(10_000).optional(),
  /** The realm's own authentication flows (the built-in ones are not exported); absent when none. */
  authenticationFlows: z.array(authenticationFlowSchema).max(1000).optional(),
  identityProviders: z.array(identityProviderSchema).max(1000),
  /** Absent in documents from before identity provider mappers; an import then adds none. */
  identityProviderMappers: z.array(identityProviderMapperSchema).max(10_000).optional(),
  userFederationProviders: z.array(userFederationProviderSchema).max(1000),
  samlServiceProviders: z.array(samlServiceProviderSchema).max(10_000),
  /** Only with includeSecrets. */
  signingKeys: z.array(oidcSigningKeySchema).max(100).optional(),
  /** Only with includeSecrets. */
  samlSigningKeys: z.array(samlSigningKeySchema).max(100).optional(),
  /** Only with includeUsers. */
  users: z.array(userSchema).optional(),
  /** Absent in documents of versions before webhooks; an import then adds none. */
  webhooks: z.array(webhookSchema).max(1000).optional(),
});

export type RealmDocument = z.infer<typeof realmDocumentSchema>;
export type RealmSettingsDoc = z.infer<typeof realmSettingsSchema>;
export type ClientDoc = z.infer<typeof clientSchema>;
export type ClientScopeDoc = z.infer<typeof clientScopeSchema>;
export type RoleDoc = z.infer<typeof roleSchema>;
export type UserDoc = z.infer<typeof userSchema>;
export type PasskeyDoc = z.infer<typeof passkeyCredentialSchema>;
export type OrganizationDoc = z.infer<typeof organizationSchema>;
export type AuthenticationFlowDoc = z.infer<typeof authenticationFlowSchema>;
export type OidcSigningKeyDoc = z.infer<typeof oidcSigningKeySchema>;
export type SamlSigningKeyDoc = z.infer<typeof samlSigningKeySchema>;
export type SamlServiceProviderDoc = z.infer<typeof samlServiceProviderSchema>;
export type WebhookDoc = z.infer<typeof webhookSchema>;
export type IdentityProviderDoc = z.infer<typeof identityProviderSchema>;
export type IdentityProviderMapperDoc = z.infer<typeof identityProviderMapperSchema>;
export type FederatedIdentityDoc = z.infer<typeof federatedIdentitySchema>;
export type UserFederationProviderDoc = z.infer<typeof userFederationProviderSchema>;

/** A location in the document as a JSONPath ("$.users[3].username"). */
export function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "$";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else if (typeof p === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(p)) out += `.${p}`;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out;
}

export interface Problem { path: string; message: string }

/** Every schema problem of a document, each with its path. */
export function schemaProblems(doc: unknown): Problem[] {
  const r = realmDocumentSchema.safeParse(doc);
  if (r.success) return [];
  return r.error.issues.map((i) => ({ path: jsonPath(i.path), message: i.message }));
}
