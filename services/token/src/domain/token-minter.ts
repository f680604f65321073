import { createHash, randomUUID } from "node:crypto";
import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import type { JWTPayload } from "jose";
import { ClaimsService } from "../../../../gen/iam/directory/v1/claims_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { KeyRing } from "./key-ring.js";
import type { ClientInfo } from "./client-directory.js";
import { OFFLINE_ACCESS, grantableScopes } from "./offline-access.js";
import type { OAuthRealm } from "./realm-settings.js";
import { isScopeToken } from "./requested-scope.js";
import type { SigningAlg } from "./signing-alg.js";
import { newAccessTokenId } from "./access-token-id.js";
import type { Acr } from "./acr.js";
import { authTimeSeconds, type ClaimsSession } from "./claims-session.js";

/** Scopes the provider understands without a client scope record. */
const PROTOCOL_SCOPES = new Set(["openid"]);

/** Claims that mappers never override (RFC 7519 section 4.1, OIDC Core 1.0 section 2). */
const RESERVED = ["iss", "sub", "exp", "iat", "nbf", "jti", "azp", "sid", "typ", "scope", "nonce", "auth_time", "at_hash", "fid", "cnf", "impersonator"];

/** The user-side facts a token carries. */
export interface TokenSubject {
  userId: string;
  /** `sid`: the SSO session, or the refresh family without one; "" for client_credentials. */
  sid: string;
  /** The refresh family whose liveness the access token depends on; "" for none. */
  familyId: string;
  /** Present for user grants: the ID token's facts (OIDC Core 1.0 section 2). */
  authTime?: number;
  amr?: string[];
  nonce?: string;
  /** The level of the login the grant came from (acr.ts); absent for client_credentials, which the mapper's "1" fits. */
  acr?: Acr;
  /** Epoch ms at which the login ends at the latest (session-max.ts loginEndOf); the tokens expire no later. */
  loginEndsAt?: number;
  /** RFC 9449 section 6.1: the thumbprint of the DPoP key the access token is bound to (`cnf.jkt`). */
  jkt?: string;
  /** The administrator who impersonates the user (an impersonated SSO session): Keycloak's `impersonator` claim. */
  impersonator?: { id: string; username: string };
}

export interface ScopeGrant {
  /** The scope names granted, in order ("openid" first when asked for). */
  names: string[];
  realmRoles: string[];
  accessClaims: Record<string, unknown>;
  idClaims: Record<string, unknown>;
}

/**
 * An access token's identity fixed before it is signed, so a caller can record it in the same
 * store write that authorizes the issue (the authorization code's consumption): its `jti` (which
 * holds `now`, access-token-id.ts), the time its `iat` is taken from, and its `exp` in epoch ms
 * (when a revocation of it may be forgotten).
 */
export interface PlannedAccessToken {
  jti: string;
  /** Epoch ms; `iat` is its whole second. */
  now: number;
  /** Epoch ms of the token's `exp`. */
  expiresAt: number;
}

export function planAccessToken(realm: OAuthRealm, now: number): PlannedAccessToken {
  return { jti: newAccessTokenId(now), now, expiresAt: (Math.floor(now / 1000) + realm.accessTokenLifespan) * 1000 };
}

export interface MintedTokens {
  accessToken: string;
  idToken: string;
  expiresIn: number;
  scope: string;
}

/** A token's mapper claims for the access token and for introspection (TokenMinter.introspectionClaims). */
export interface MappedForIntrospection {
  access: Record<string, unknown>;
  introspection: Record<string, unknown>;
}

/**
 * Builds and signs access and ID tokens (JWT, DESIGN 5) with the realm's key in memory; claims
 * from the directory's ResolveClaims (the protocol mappers, spec 2.8). No store access.
 */
export class TokenMinter {
  private readonly claims: Client<typeof ClaimsService>;

  constructor(transport: Transport, private readonly keys: KeyRing, private readonly clock: Clock) {
    this.claims = createClient(ClaimsService, transport);
  }

  /**
   * Resolves the scope for a request (RFC 6749 section 3.3). `requested` undefined means the
   * client's defaults. A name the client may not have is `invalid_scope`. With `ceiling` (refresh,
   * RFC 6749 section 6) the requested names must lie within it and are granted exactly: the
   * client's default scopes apply only when named, so a narrower request gets narrower tokens,
   * claims included (the caller passes the ceiling itself when the request names no scope); a
   * name of the ceiling the client no longer has is left out. `offline_access` is left out for a
   * client without refresh tokens (offline-access.ts), before the user's offline_access role is checked.
   * `fromStore` when the caller keeps the grant (ServiceAccountGrants): the directory then resolves
   * past its own caches (proto ResolveClaimsRequest.from_store). `session` is the login the tokens
   * will belong to (their `sid`), for plugin mappers.
   */
  async grant(
    realm: OAuthRealm, client: ClientInfo, userId: string, session: ClaimsSession, requested: string[] | undefined, ceiling?: string[], fromStore = false,
  ): Promise<ScopeGrant> {
    const asked = grantableScopes(requested ?? [], client);
    if (ceiling) {
      const allowed = new Set(ceiling);
      const extra = asked.find((s) => !allowed.has(s));
      if (extra) throw IamError.oauth("invalid_scope", `scope "${extra}" exceeds the original grant`);
    }
    let res;
    try {
      res = await this.claims.resolveClaims({
        realm: realm.name, userId, clientId: client.clientId, scopes: asked.filter((s) => !PROTOCOL_SCOPES.has(s)), onlyRequested: ceiling !== undefined, fromStore,
        sessionId: session.sid, authTime: authTimeSeconds(session),
      });
    } catch (e) {
      if (e instanceof ConnectError && e.code === Code.NotFound) throw IamError.oauth("invalid_grant", "user or client no longer exists");
      if (e instanceof ConnectError && e.code === Code.FailedPrecondition) throw IamError.oauth("invalid_grant", "user is disabled");
      throw e;
    }
    const granted = new Set(res.grantedScopes);
    // On refresh, a name of the original grant that the client has lost since (an admin removed
    // the assignment) is dropped, and the response's `scope` says so (RFC 6749 sections 3.3, 6):
    // refusing it would make every refresh token of the client fail until the users log in again.
    const unknown = asked.find((s) => !PROTOCOL_SCOPES.has(s) && !granted.has(s) && !ceiling?.includes(s));
    if (unknown) throw IamError.oauth("invalid_scope", `scope "${unknown}" is not allowed for this client`);
    const names = [...(asked.includes("openid") ? ["openid"] : []), ...res.grantedScopes];
    // On refresh (a ceiling) the family decides, not the names asked for: RefreshTokenGrant
    // checks an offline family's user still has the role, whatever `scope` the request names.
    if (!ceiling && names.includes(OFFLINE_ACCESS) && !res.realmRoles.includes(OFFLINE_ACCESS)) {
      throw IamError.oauth("invalid_scope", "the user may not obtain offline tokens");
    }
    const accessClaims = parseClaims(res.accessTokenClaimsJson);
    if (accessClaims.realm_access === undefined) accessClaims.realm_access = { roles: res.realmRoles };
    if (accessClaims.resource_access === undefined) {
      const byClient: Record<string, { roles: string[] }> = {};
      for (const cr of res.clientRoles) {
        const slash = cr.indexOf("/");
        const c = cr.slice(0, slash);
        (byClient[c] ??= { roles: [] }).roles.push(cr.slice(slash + 1));
      }
      accessClaims.resource_access = byClient;
    }
    return { names, realmRoles: res.realmRoles, accessClaims, idClaims: parseClaims(res.idTokenClaimsJson) };
  }

  /**
   * UserInfo claims (OIDC Core 1.0 section 5.3.2): `sub` plus the userinfo claims of the mappers of
   * the scopes the access token holds, exactly (a token a refresh narrowed gets no more, RFC 6749
   * section 6), for the login the access token belongs to (`session`, for plugin mappers).
   */
  async userinfo(realm: OAuthRealm, userId: string, clientId: string, scopes: string[], session: ClaimsSession): Promise<Record<string, unknown>> {
    try {
      const res = await this.claims.resolveClaims({
        realm: realm.name, userId, clientId, scopes: scopes.filter((s) => !PROTOCOL_SCOPES.has(s)), onlyRequested: true,
        sessionId: session.sid, authTime: authTimeSeconds(session),
      });
      return { ...parseClaims(res.userinfoClaimsJson), sub: userId };
    } catch (e) {
      if (e instanceof ConnectError && e.code === Code.NotFound) throw IamError.oauth("invalid_token", "the token's user or client no longer exists", "unauthenticated");
      if (e instanceof ConnectError && e.code === Code.FailedPrecondition) throw IamError.oauth("invalid_token", "the token's user is disabled", "unauthenticated");
      throw e;
    }
  }

  /**
   * What the mappers of a token's scopes (exactly, as for userinfo) write to the access token and
   * to introspection now (Keycloak's `introspection.token.claim`); null when the token's user or
   * client is gone or the user is disabled, whose tokens are not active.
   */
  async introspectionClaims(realm: OAuthRealm, userId: string, clientId: string, scopes: string[], session: ClaimsSession): Promise<MappedForIntrospection | null> {
    try {
      const res = await this.claims.resolveClaims({
        realm: realm.name, userId, clientId, scopes: scopes.filter((s) => !PROTOCOL_SCOPES.has(s)), onlyRequested: true, introspection: true,
        sessionId: session.sid, authTime: authTimeSeconds(session),
      });
      return { access: parseClaims(res.accessTokenClaimsJson), introspection: parseClaims(res.introspectionClaimsJson) };
    } catch (e) {
      if (e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.FailedPrecondition)) return null;
      throw e;
    }
  }

  async mint(realm: OAuthRealm, issuer: string, client: ClientInfo, subject: TokenSubject, grant: ScopeGrant, planned?: PlannedAccessToken): Promise<MintedTokens> {
    const realmAlg = this.keys.currentAlgNow(realm) ?? await this.keys.currentAlg(realm);
    // The client's own choices ("" = the realm's): OIDC Dynamic Client Registration 1.0 section 2
    // `id_token_signed_response_alg`, and Keycloak's `access.token.signed.response.alg`.
    const accessAlg = client.accessTokenSignedResponseAlg || realmAlg;
    const idAlg = client.idTokenSignedResponseAlg || realmAlg;
    const plan = planned ?? planAccessToken(realm, this.clock.now());
    const iat = Math.floor(plan.now / 1000);
    // Never past the end of the login (SSO Session Max); a planned exp only over-approximates this
    // one, which errs on the safe side for how long a revocation of the token is remembered.
    const expiresIn = subject.loginEndsAt === undefined ? realm.accessTokenLifespan
      : Math.max(0, Math.min(realm.accessTokenLifespan, Math.floor(subject.loginEndsAt / 1000) - iat));
    const access = accessPayload(issuer, client, subject, grant, plan, iat + expiresIn);
    const accessToken = await this.keys.sign(realm, access, { alg: accessAlg, typ: "JWT", forClient: accessAlg !== realmAlg });
    let idToken = "";
    if (grant.names.includes("openid") && subject.authTime !== undefined) {
      // OIDC Core 1.0 section 3.1.3.6: hashed with the hash of the ID token's own alg.
      const id = idPayload(issuer, client, subject, grant, iat, iat + expiresIn, atHash(accessToken, idAlg));
      idToken = await this.keys.sign(realm, id, { alg: idAlg, typ: "JWT", forClient: idAlg !== realmAlg });
    }
    const scope = access.scope as string;
    return { accessToken, idToken, expiresIn, scope };
  }
}

/**
 * The access token's claims as `mint` signs them. Built by assignment onto the copied mapper
 * claims, not as a literal spreading them: the same keys in the same order (a reserved name the
 * mappers cannot set keeps its place), at half the cost per token (docs/performance.md).
 */
export function accessPayload(issuer: string, client: ClientInfo, subject: TokenSubject, grant: ScopeGrant, plan: PlannedAccessToken, exp: number): JWTPayload {
  const access: JWTPayload = mappedClaims(grant.accessClaims, subject.acr);
  access.iss = issuer;
  access.sub = subject.userId;
  access.aud = audienceOf(grant.accessClaims.aud, client.clientId);
  access.exp = exp;
  access.iat = Math.floor(plan.now / 1000);
  access.jti = plan.jti;
  access.azp = client.clientId;
  access.typ = "Bearer";
  access.scope = grant.names.join(" ");
  if (subject.sid) access.sid = subject.sid;
  if (subject.familyId) access.fid = subject.familyId;
  if (subject.jkt) access.cnf = { jkt: subject.jkt };
  // Keycloak's impersonator.id / impersonator.username session note mappers' claim.
  if (subject.impersonator) access.impersonator = { id: subject.impersonator.id, username: subject.impersonator.username };
  return access;
}

/** The ID token's claims as `mint` signs them; `at_hash` only with the signed access token it hashes. */
export function idPayload(issuer: string, client: ClientInfo, subject: TokenSubject, grant: ScopeGrant, iat: number, exp: number, accessTokenHash?: string): JWTPayload {
  const id: JWTPayload = mappedClaims(grant.idClaims, subject.acr);
  id.iss = issuer;
  id.sub = subject.userId;
  id.aud = client.clientId;
  id.exp = exp;
  id.iat = iat;
  id.auth_time = Math.floor((subject.authTime ?? iat * 1000) / 1000);
  id.jti = randomUUID();
  id.azp = client.clientId;
  id.typ = "ID";
  if (accessTokenHash !== undefined) id.at_hash = accessTokenHash;
  id.amr = subject.amr ?? [];
  if (subject.nonce) id.nonce = subject.nonce;
  if (subject.sid) id.sid = subject.sid;
  if (subject.impersonator) id.impersonator = { id: subject.impersonator.id, username: subject.impersonator.username };
  return id;
}

/** OIDC Core 1.0 section 3.1.3.6: left half of the hash of the access token, base64url. */
export function atHash(accessToken: string, alg: SigningAlg): string {
  const digest = createHash(alg === "EdDSA" ? "sha512" : "sha256").update(accessToken, "ascii").digest();
  return digest.subarray(0, digest.length / 2).toString("base64url");
}

/** The grant with its access token aimed at `audience` alone (token exchange, RFC 8693 section 2.1). */
export function withAudience(grant: ScopeGrant, audience: string): ScopeGrant {
  return { ...grant, accessClaims: { ...grant.accessClaims, aud: [audience] } };
}

/** The audiences of a mapped or verified `aud` claim (RFC 7519 section 4.1.3: a string or an array). */
export function audiencesOf(aud: unknown): string[] {
  return (Array.isArray(aud) ? aud : typeof aud === "string" ? [aud] : []).filter((a): a is string => typeof a === "string");
}

export function splitScope(scope: string | undefined): string[] | undefined {
  if (scope === undefined) return undefined;
  const names = scope.split(" ").filter(Boolean);
  if (names.some((n) => !isScopeToken(n))) throw IamError.oauth("invalid_scope", "malformed scope");
  return [...new Set(names)];
}

function parseClaims(json: string): Record<string, unknown> {
  if (!json) return {};
  const v = JSON.parse(json) as unknown;
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/**
 * The mapper claims a token takes as they are: all but RESERVED and `aud` (audienceOf decides
 * that). The rest of an access token is its mappers' (introspected-claims.ts relies on it).
 */
export const NOT_COPIED: ReadonlySet<string> = new Set([...RESERVED, "aud"]);

/**
 * The mapper claims a token takes, as a fresh object: all but NOT_COPIED, and `acr` (where the acr
 * scope's mapper put it: OIDC Core 1.0 section 2 makes it optional, so a token whose scope lacks
 * `acr` has none) with the level of this login rather than the mapper's "1".
 * Copied key by key into a plain object: `delete` from a copy, or a prototype-less object, would
 * make the payload a slow dictionary for the assignments and the serialization that follow.
 */
function mappedClaims(claims: Record<string, unknown>, acr: Acr | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(claims)) {
    if (NOT_COPIED.has(k)) continue;
    // A claim named "__proto__" stays a claim, never the object's prototype.
    if (k === "__proto__") Object.defineProperty(out, k, { value: claims[k], enumerable: true, writable: true, configurable: true });
    else out[k] = claims[k];
  }
  if (claims.acr !== undefined && acr !== undefined) out.acr = acr;
  return out;
}

function audienceOf(mapped: unknown, clientId: string): string | string[] {
  const list = audiencesOf(mapped);
  if (list.length === 0) return clientId;
  return list.length === 1 ? list[0]! : list;
}
