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
    clientSecretSet: p.clientSecretSealed !== "",
    createdAt: jsonTimestamp(p.createdAt),
    updatedAt: jsonTimestamp(p.updatedAt),
  };
}
