import { IamError } from "../../../kit/src/errors.js";
import type { ClientRecord } from "./client.js";

/** FAPI 2.0 Security Profile (final), the one client profile Tessera knows. */
export const FAPI2_SECURITY = "fapi2-security";

/** "" (none) or a profile the client's settings and requests are held to. */
export const CLIENT_PROFILES = ["", FAPI2_SECURITY] as const;

/** FAPI 2.0 SP section 5.4.1: PS256, ES256 or EdDSA (Ed25519); RS256 is not allowed. */
const FAPI2_SIGNING_ALGS = new Set(["PS256", "ES256", "EdDSA"]);

/** The grants FAPI 2.0 SP leaves a client (5.3.2.2: no implicit, no ROPC; device code is outside it). */
const FAPI2_GRANTS = new Set(["authorization_code", "refresh_token", "client_credentials"]);

export function checkClientProfile(value: string): string {
  if (!(CLIENT_PROFILES as readonly string[]).includes(value)) {
    throw IamError.invalid("clientProfile", `clientProfile must be "" or "${FAPI2_SECURITY}"`);
  }
  return value;
}

/**
 * The client as it would be stored must agree with its profile. An inconsistent setting is
 * refused, naming it, rather than changed behind the admin's back. FAPI 2.0 SP section 5.3:
 * confidential clients only, PAR required, sender-constrained tokens (DPoP, RFC 9449: Tessera
 * has no mTLS) and private_key_jwt client authentication (tls_client_auth needs mTLS); 5.4.1:
 * PS256, ES256 or EdDSA.
 */
export function checkProfileConsistency(c: ClientRecord): void {
  if ((c.clientProfile ?? "") !== FAPI2_SECURITY) return;
  const refuse = (field: string, rule: string): never => {
    throw IamError.invalid(field, `clientProfile "${FAPI2_SECURITY}" (FAPI 2.0 Security Profile) requires ${rule}`);
  };
  if (c.clientType !== "CONFIDENTIAL") refuse("clientType", "a CONFIDENTIAL client");
  if (c.tokenEndpointAuthMethod !== "private_key_jwt") refuse("tokenEndpointAuthMethod", 'tokenEndpointAuthMethod "private_key_jwt"');
  if (!c.requirePushedAuthorizationRequests) refuse("requirePushedAuthorizationRequests", "requirePushedAuthorizationRequests true");
  if (!c.dpopBoundAccessTokens) refuse("dpopBoundAccessTokens", "dpopBoundAccessTokens true (sender-constrained access tokens)");
  if (!FAPI2_SIGNING_ALGS.has(c.idTokenSignedResponseAlg ?? "")) refuse("idTokenSignedResponseAlg", "idTokenSignedResponseAlg PS256, ES256 or EdDSA");
  // Named, not "" (the realm's): the realm may sign with RS256, which 5.4.1 does not allow.
  if (!FAPI2_SIGNING_ALGS.has(c.accessTokenSignedResponseAlg ?? "")) refuse("accessTokenSignedResponseAlg", "accessTokenSignedResponseAlg PS256, ES256 or EdDSA");
  const other = c.grantTypes.find((g) => !FAPI2_GRANTS.has(g));
  if (other !== undefined) refuse("grantTypes", `grantTypes among authorization_code, refresh_token and client_credentials (not ${other})`);
}
