/**
 * The login a token belongs to, as its claims are resolved (proto ResolveClaimsRequest session_id,
 * auth_time): plugin protocol mappers are told of it (plugin-api.ts MapperSession), as Keycloak's
 * mappers get the user session. Every grant knows it before it resolves the claims.
 */
export interface ClaimsSession {
  /** The token's `sid`; "" when it has none. */
  sid: string;
  /** Epoch ms of the user's authentication (`auth_time`, OIDC Core 1.0 section 2); undefined exactly when `sid` is "". */
  authTime?: number;
}

/** No session: client_credentials, and a password grant of a client without refresh tokens. */
export const NO_SESSION: ClaimsSession = Object.freeze({ sid: "" });

/** The session `sid` names, authenticated at `authTime`; NO_SESSION for no `sid`. */
export function claimsSession(sid: string, authTime: number | undefined): ClaimsSession {
  return sid ? { sid, authTime } : NO_SESSION;
}

/** `auth_time` as the request carries it: whole seconds since the epoch, as the ID token's. */
export function authTimeSeconds(session: ClaimsSession): bigint | undefined {
  return session.authTime === undefined ? undefined : BigInt(Math.floor(session.authTime / 1000));
}
