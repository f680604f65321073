import { jsonTimestamp } from "../../../kit/src/json-timestamp.js";

/** An identity provider of a realm (spec 2.9), as the broker stores it. */
export interface IdentityProviderRecord {
  [key: string]: unknown;
  _id: string;
  realmId: string;
  realm: string;
  alias: string;
  displayName: string;
  providerType: ProviderType;
  enabled: boolean;
  clientId: string;
  /** Sealed under the master key (secretAad); never returned. */
  clientSecretSealed: string;
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl?: string;
  jwksUrl?: string;
  issuer?: string;
  defaultScopes: string;
  trustEmail: boolean;
  syncUserProfile: boolean;
  /**
   * Keycloak's "Pass login_hint" (config loginHint, default off): the upstream's authorization
   * request carries the login hint. Absent in providers stored before it, which read as off.
   */
  loginHint?: boolean;
  createdAt: number;
  updatedAt: number;
}

/** What create and update receive; on update only the fields present change. */
export interface IdentityProviderInput {
  alias?: string;
  displayName?: string;
  providerType?: string;
  enabled?: boolean;
  clientId?: string;
  clientSecret?: string;
  authorizationUrl?: string;
  tokenUrl?: string;
  userinfoUrl?: string;
  jwksUrl?: string;
  issuer?: string;
  defaultScopes?: string;
  trustEmail?: boolean;
  syncUserProfile?: boolean;
  loginHint?: boolean;
}

export const PROVIDER_TYPES = ["oidc", "google", "github"] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** What a preset fills in when the body leaves it out. */
export interface Preset {
  /** OpenID Connect: an ID token is expected and verified; otherwise plain OAuth 2.0 plus a profile API. */
  oidc: boolean;
  authorizationUrl?: string;
  tokenUrl?: string;
  userinfoUrl?: string;
  jwksUrl?: string;
  issuer?: string;
  defaultScopes: string;
  displayName?: string;
}

/**
 * Providers' published endpoints. Google: its discovery document
 * (https://accounts.google.com/.well-known/openid-configuration). GitHub is OAuth 2.0 without ID
 * tokens: the profile is GET /user and the verified primary email GET /user/emails (REST API
 * "Users" and "Emails"), which needs the user:email scope.
 */
export const PRESETS: Record<ProviderType, Preset> = {
  oidc: { oidc: true, defaultScopes: "openid profile email" },
  google: {
    oidc: true,
    authorizationUrl: "https://accounts.google.com/o/oauth2/v2/auth",
    tokenUrl: "https://oauth2.googleapis.com/token",
    userinfoUrl: "https://openidconnect.googleapis.com/v1/userinfo",
    jwksUrl: "https://www.googleapis.com/oauth2/v3/certs",
    issuer: "https://accounts.google.com",
    defaultScopes: "openid profile email",
    displayName: "Google",
  },
  github: {
    oidc: false,
    authorizationUrl: "https://github.com/login/oauth/authorize",
    tokenUrl: "https://github.com/login/oauth/access_token",
    userinfoUrl: "https://api.github.com/user",
    defaultScopes: "read:user user:email",
    displayName: "GitHub",
  },
};

/**
 * A new provider's record from a checked create input (checkCreateInput): what the body leaves out
 * comes from the type's preset, then the defaults of spec 2.9. Shared by the Admin API's create
 * and the realm import, so both store the same provider for the same fields.
 */
export function newProviderRecord(
  input: IdentityProviderInput, at: { id: string; realmId: string; realm: string }, clientSecretSealed: string, now: number,
): IdentityProviderRecord {
  const type = input.providerType as ProviderType;
  const preset = PRESETS[type];
  const alias = input.alias as string;
  return {
    _id: at.id,
    realmId: at.realmId,
    realm: at.realm,
    alias,
    displayName: input.displayName || preset.displayName || alias,
    providerType: type,
    enabled: input.enabled ?? true,
    clientId: input.clientId as string,
    clientSecretSealed,
    authorizationUrl: input.authorizationUrl || (preset.authorizationUrl as string),
    tokenUrl: input.tokenUrl || (preset.tokenUrl as string),
    ...(input.userinfoUrl || preset.userinfoUrl ? { userinfoUrl: input.userinfoUrl || preset.userinfoUrl } : {}),
    ...(input.jwksUrl || preset.jwksUrl ? { jwksUrl: input.jwksUrl || preset.jwksUrl } : {}),
    ...(input.issuer || preset.issuer ? { issuer: input.issuer || preset.issuer } : {}),
    defaultScopes: input.defaultScopes?.trim() || preset.defaultScopes,
    trustEmail: input.trustEmail ?? false,
    syncUserProfile: input.syncUserProfile ?? false,
    loginHint: input.loginHint ?? false,
    createdAt: now,
    updatedAt: now,
  };
}

/** The associated data binding a sealed client secret to its provider (secret-box.ts). */
export function secretAad(p: Pick<IdentityProviderRecord, "realmId" | "_id">): string {
  return `realm:${p.realmId}:identity-provider:${p._id}:clientSecret`;
}

/** The JSON shape returned by the Admin API (and carried in admin events): never the secret. */
export function providerView(p: IdentityProviderRecord): Record<string, unknown> {
  return {
    alias: p.alias,
    displayName: p.displayName,
    providerType: p.providerType,
    enabled: p.enabled,
    clientId: p.clientId,
    authorizationUrl: p.authorizationUrl,
    tokenUrl: p.tokenUrl,
    ...(p.userinfoUrl ? { userinfoUrl: p.userinfoUrl } : {}),
    ...(p.jwksUrl ? { jwksUrl: p.jwksUrl } : {}),
    ...(p.issuer ? { issuer: p.issuer } : {}),
    defaultScopes: p.defaultScopes,
    trustEmail: p.trustEmail,
    syncUserProfile: p.syncUserProfile,
    loginHint: p.loginHint === true,
    clientSecretSet: p.clientSecretSealed !== "",
    createdAt: jsonTimestamp(p.createdAt),
    updatedAt: jsonTimestamp(p.updatedAt),
  };
}
