import type { Doc } from "../../../kit/src/store/port.js";
import type { Acr } from "./acr.js";

/** Authorization codes are usable for 60 s (DESIGN 5) and remembered longer to detect reuse. */
export const CODE_USABLE_MS = 60_000;
export const CODE_REMEMBERED_MS = 10 * 60_000;
/** FAPI 2.0 Security Profile 5.3.2.1: at most 60 s for a client of that profile, whatever the default becomes. */
export const FAPI2_CODE_MAX_MS = 60_000;

/** How long a code issued to a client with this profile ("" or "fapi2-security") is usable. */
export function codeUsableMs(clientProfile: string): number {
  return clientProfile === "fapi2-security" ? Math.min(CODE_USABLE_MS, FAPI2_CODE_MAX_MS) : CODE_USABLE_MS;
}

/**
 * An authorization code (RFC 6749 section 4.1), stored under the SHA-256 of the code. It is bound
 * to the client, the redirect_uri and the PKCE challenge (RFC 7636). The browser flow inserts it;
 * the token endpoint consumes it once (a conditional update setting `consumedAt`); a second
 * redemption finds `consumedAt` set and revokes what the first issued (RFC 6749 section 4.1.2):
 * the refresh family, and the access token whose jti the consuming write recorded, which a client
 * without the refresh_token grant has no family to find it by.
 */
export interface AuthorizationCodeRecord extends Doc {
  realmId: string;
  realmName: string;
  clientId: string;
  /** The directory's id of the client (absent in codes stored before it was recorded): see bindsTo. */
  clientInternalId?: string;
  redirectUri: string;
  userId: string;
  ssoSessionId: string;
  /** Space-separated scope granted for this code. */
  scope: string;
  nonce: string;
  /** "" when the client sent no PKCE challenge (allowed for CONFIDENTIAL clients only). */
  codeChallenge: string;
  /** "S256" or "" (plain is refused, DESIGN 5). */
  codeChallengeMethod: string;
  /** RFC 9449 section 10: the DPoP key the token request must prove (`dpop_jkt`); absent when unbound. */
  dpopJkt?: string;
  authTime: number;
  amr: string[];
  /** The level of the login that issued it (acr.ts); absent in codes stored before it was recorded. */
  acr?: Acr;
  createdAt: number;
  /** createdAt + CODE_USABLE_MS. */
  usableUntil: number;
  /** createdAt + CODE_REMEMBERED_MS: the store forgets the code after this. */
  expiresAt: number;
  consumedAt?: number;
  /** Refresh token family issued on redemption, revoked if the code is replayed. */
  issuedFamilyId?: string;
  /** The `jti` of the access token issued on redemption, set by the write that consumes the code. */
  issuedAccessJti?: string;
  /** Epoch ms of that access token's `exp`: how long its revocation must be remembered. */
  issuedAccessExpiresAt?: number;
  /** When a second redemption was refused (see AuthorizationCodeGrant). */
  replayedAt?: number;
}
