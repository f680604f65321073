import { compactVerify, decodeJwt, decodeProtectedHeader, type JWTPayload } from "jose";
import type { Clock } from "../../../kit/src/store/port.js";
import type { ClientDirectory, ClientInfo } from "./client-directory.js";
import type { ClientJwks } from "./client-jwks.js";
import type { SpentJtiRepository } from "../store/spent-jti-repository.js";

/** RFC 7523 section 2.2. */
export const JWT_BEARER_ASSERTION = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/** private_key_jwt's algorithms (asymmetric only: a symmetric alg here would take a public key as an HMAC secret). */
export const PRIVATE_KEY_JWT_ALGS = ["RS256", "PS256", "ES256", "EdDSA"];
/** client_secret_jwt's algorithm, keyed with the client secret. */
export const CLIENT_SECRET_JWT_ALGS = ["HS256"];
/**
 * An assertion is accepted for at most this long (RFC 7523 section 3 item 4 lets the server limit
 * it; short lives keep the jti store small): from its `iat` when it has one, else until its `exp`,
 * which may then be at most this far ahead.
 */
const MAX_LIFETIME_S = 600;
/** Clock difference tolerated for `nbf` and `iat` in the future (RFC 7523 section 3 items 4-6). */
const SKEW_S = 60;
const MAX_JTI = 255;
const MAX_ASSERTION = 16 * 1024;

/**
 * The realm-relative paths whose URL an assertion's `aud` may name besides the issuer (RFC 7523
 * section 3 item 3: the token endpoint URL may be used; OIDC Core 1.0 section 9: it SHOULD be the
 * token endpoint). Every endpoint that authenticates clients is here, as Keycloak accepts, so one
 * assertion audience works wherever this class authenticates (pushed authorization requests too).
 */
const ENDPOINT_PATHS = [
  "/protocol/openid-connect/token", "/protocol/openid-connect/token/introspect", "/protocol/openid-connect/revoke",
  "/protocol/openid-connect/auth/device", "/protocol/openid-connect/logout", "/protocol/openid-connect/ext/par/request",
];

/** Why an assertion was refused: logged nowhere the client sees; every one is invalid_client to it. */
export class AssertionRefused extends Error {}

/**
 * JWT client authentication (RFC 7523 section 3, OIDC Core 1.0 section 9): private_key_jwt, signed
 * with one of the client's registered public keys, and client_secret_jwt, an HMAC with its secret
 * (checked by the directory, which alone can open the secret). A client registered for one method
 * cannot use the other, nor a secret. The claims: iss = sub = client_id, aud names the issuer or
 * one of its client-authenticating endpoints, exp present, accepted for at most MAX_LIFETIME_S, jti
 * present and spent once in the store (so a replay is refused by every replica).
 */
export class ClientAssertions {
  constructor(
    private readonly clients: ClientDirectory,
    private readonly jwks: ClientJwks,
    private readonly spent: SpentJtiRepository,
    private readonly clock: Clock,
  ) {}

  /** The client the assertion authenticates; rejects with AssertionRefused. `claimedId` is the form's client_id, if sent. */
  async authenticate(realm: string, issuer: string, type: string, assertion: string, claimedId: string): Promise<ClientInfo> {
    if (type !== JWT_BEARER_ASSERTION || !assertion || assertion.length > MAX_ASSERTION) throw new AssertionRefused("bad assertion type");
    let header: ReturnType<typeof decodeProtectedHeader>;
    let unverified: JWTPayload;
    try {
      header = decodeProtectedHeader(assertion);
      unverified = decodeJwt(assertion);
    } catch {
      throw new AssertionRefused("malformed assertion");
    }
    const clientId = unverified.sub;
    if (typeof clientId !== "string" || !clientId || unverified.iss !== clientId) throw new AssertionRefused("iss and sub must be the client_id");
    // RFC 7521 section 4.2: a client_id sent beside the assertion must name the same client.
    if (claimedId && claimedId !== clientId) throw new AssertionRefused("client_id differs from the assertion");
    const found = await this.clients.credentials(realm, clientId);
    const client = found?.info;
    if (!client || !client.enabled || client.clientType !== "CONFIDENTIAL") throw new AssertionRefused("no such client");
    const alg = String(header.alg ?? "");
    if (client.tokenEndpointAuthMethod === "private_key_jwt") {
      if (!PRIVATE_KEY_JWT_ALGS.includes(alg)) throw new AssertionRefused("algorithm not allowed");
      const key = await this.jwks.key(client, header).catch(() => { throw new AssertionRefused("no matching key"); });
      await compactVerify(assertion, key, { algorithms: PRIVATE_KEY_JWT_ALGS }).catch(() => { throw new AssertionRefused("bad signature"); });
    } else if (client.tokenEndpointAuthMethod === "client_secret_jwt") {
      if (!CLIENT_SECRET_JWT_ALGS.includes(alg)) throw new AssertionRefused("algorithm not allowed");
      await this.clients.verifyClientSecretJwt(realm, clientId, assertion).catch(() => { throw new AssertionRefused("bad signature"); });
    } else {
      throw new AssertionRefused("client is not registered for JWT authentication");
    }
    // The signature is good, so the payload decoded above is the client's.
    const acceptedUntil = this.checkClaims(unverified, issuer);
    if (!(await this.spent.spend(realm, clientId, unverified.jti!, acceptedUntil * 1000))) throw new AssertionRefused("jti replayed");
    return client;
  }

  /** RFC 7523 section 3 items 3-7; returns until when the assertion is accepted (its jti kept). */
  private checkClaims(c: JWTPayload, issuer: string): number {
    const now = Math.floor(this.clock.now() / 1000);
    const audiences = typeof c.aud === "string" ? [c.aud] : Array.isArray(c.aud) ? c.aud : [];
    const accepted = new Set([issuer, ...ENDPOINT_PATHS.map((p) => issuer + p)]);
    if (!audiences.some((a) => accepted.has(a))) throw new AssertionRefused("wrong audience");
    if (typeof c.exp !== "number" || !Number.isFinite(c.exp)) throw new AssertionRefused("exp required");
    if (c.exp <= now) throw new AssertionRefused("expired");
    if (c.nbf !== undefined && (typeof c.nbf !== "number" || c.nbf > now + SKEW_S)) throw new AssertionRefused("not yet valid");
    if (c.iat !== undefined && (typeof c.iat !== "number" || !Number.isFinite(c.iat) || c.iat > now + SKEW_S)) throw new AssertionRefused("issued in the future");
    if (typeof c.jti !== "string" || !c.jti || c.jti.length > MAX_JTI) throw new AssertionRefused("jti required");
    // A far exp is bounded by a recent iat instead (authlib, for one, signs exp = iat + 1 h, and
    // Keycloak accepts it): the assertion is good for MAX_LIFETIME_S after iat, so its jti need
    // only be kept that long.
    if (typeof c.iat === "number") {
      const until = Math.min(c.exp, c.iat + MAX_LIFETIME_S);
      if (until <= now) throw new AssertionRefused("issued too long ago");
      return until;
    }
    if (c.exp > now + MAX_LIFETIME_S) throw new AssertionRefused("exp too far ahead");
    return c.exp;
  }
}
