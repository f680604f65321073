import { IamError } from "../../../../kit/src/errors.js";
import type { ClientInfo } from "../client-directory.js";
import type { OAuthRealm } from "../realm-settings.js";

/** The token request's parameters (RFC 6749 section 4 and 6, RFC 8628 section 3.4). */
export interface TokenParams {
  grantType: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
  username: string;
  password: string;
  otp: string;
  refreshToken: string;
  scope: string | undefined;
  deviceCode: string;
  ipAddress: string;
  /** The DPoP header (RFC 9449 section 4); "" or absent when not sent. */
  dpopProof?: string;
  /** Token exchange (RFC 8693 section 2.1); absent or "" for every other grant. */
  exchange?: ExchangeParams;
}

/** RFC 8693 section 2.1's request parameters. */
export interface ExchangeParams {
  subjectToken: string;
  subjectTokenType: string;
  audience: string;
  requestedTokenType: string;
  actorToken: string;
  resource: string;
}

export interface GrantContext {
  realm: OAuthRealm;
  issuer: string;
  client: ClientInfo;
  params: TokenParams;
  /** RFC 9449 section 5: the thumbprint of the key a DPoP proof bound this request's tokens to; "" or absent without one. */
  dpopJkt?: string;
}

/** What a grant hands back: the RFC 6749 section 5.1 response, plus facts for the login event. */
export interface GrantResult {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  refreshExpiresIn: number;
  idToken: string;
  scope: string;
  sessionState: string;
  userId: string;
  /** RFC 9449 section 5: the access token is DPoP-bound (token_type DPoP). */
  dpopBound?: boolean;
  /** RFC 9449 section 8.2: the nonce for the client's next proof (DPoP-Nonce), when it must send them. */
  dpopNonce?: string;
  /** Event details (never a secret, code or token). */
  details: Record<string, string>;
  /** RFC 8693 section 2.2.1's issued_token_type; "" for every other grant. */
  issuedTokenType?: string;
}

export interface Grant {
  issue(ctx: GrantContext): Promise<GrantResult>;
}

export function requireParam(value: string, name: string): string {
  if (!value) throw invalidRequest(`${name} is required`);
  return value;
}

export function invalidRequest(message: string): IamError {
  return IamError.oauth("invalid_request", message);
}

export function invalidGrant(message: string): IamError {
  return IamError.oauth("invalid_grant", message);
}
