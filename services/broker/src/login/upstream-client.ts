import { createLocalJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { guardedFetch, OutboundError, type GuardedResponse } from "../../../kit/src/outbound/guarded-fetch.js";
import type { OutboundPolicy } from "../../../kit/src/outbound/address-policy.js";
import { secretAad, type IdentityProviderRecord } from "../domain/identity-provider.js";
import { invalidIdToken, upstreamFailure } from "./broker-failure.js";
import { profileFromClaims, profileFromGitHub, type UpstreamProfile } from "./upstream-profile.js";

/**
 * Asymmetric signature algorithms only (RFC 8725 section 3.1): `none` and the HMAC family are
 * refused before any key is looked at, so a public key can never serve as an HMAC secret.
 */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];
/** Clock skew allowed on exp/iat/nbf (OIDC Core 3.1.3.7 leaves it to the RP). */
const CLOCK_TOLERANCE_S = 10;
const KEYS_TTL_MS = 5 * 60_000;

interface TokenResponse {
  accessToken: string;
  idToken?: string;
}

/**
 * The broker's side of an upstream provider: the authorization URL (with state, nonce and PKCE
 * S256, RFC 7636), the code exchange (RFC 6749 section 4.1.3), the ID token's verification (OIDC
 * Core 3.1.3.7, explicitly: signature, iss, aud/azp, exp, nonce), userinfo, and GitHub's profile
 * API. Every fetch goes through the kit's SSRF-guarded fetch.
 */
export class UpstreamClient {
  private readonly keys = new Map<string, { jwks: JSONWebKeySet; at: number }>();
  private readonly discovered = new Map<string, { jwksUri: string; at: number }>();

  constructor(private readonly policy: OutboundPolicy, private readonly secrets: SecretBox, private readonly clock: Clock) {}

  /**
   * `loginHint` goes upstream only when the provider passes it (Keycloak's "Pass login_hint":
   * AbstractOAuth2IdentityProvider adds login_hint when isLoginHint() and a hint is known); OIDC
   * Core 3.1.2.1 defines the parameter, and a provider that does not know it ignores it.
   */
  authorizationUrl(p: IdentityProviderRecord, a: { state: string; nonce: string; challenge: string; redirectUri: string; loginHint?: string }): string {
    const u = new URL(p.authorizationUrl);
    u.searchParams.set("response_type", "code");
    u.searchParams.set("client_id", p.clientId);
    u.searchParams.set("redirect_uri", a.redirectUri);
    u.searchParams.set("scope", p.defaultScopes);
    u.searchParams.set("state", a.state);
    if (p.providerType !== "github") u.searchParams.set("nonce", a.nonce);
    u.searchParams.set("code_challenge", a.challenge);
    u.searchParams.set("code_challenge_method", "S256");
    if (p.loginHint && a.loginHint) u.searchParams.set("login_hint", a.loginHint);
    return u.href;
  }

  /** Exchanges the code, verifies what came back and answers the upstream account. */
  async profile(p: IdentityProviderRecord, code: string, verifier: string, redirectUri: string, nonce: string): Promise<UpstreamProfile> {
    const tokens = await this.exchange(p, code, verifier, redirectUri);
    if (p.providerType === "github") {
      const user = await this.getJson(p.userinfoUrl ?? "", tokens.accessToken, "application/vnd.github+json");
      // GET /user/emails sits beside GET /user (a stand-in or GitHub Enterprise keeps the layout).
      const emails = await this.getAny(`${(p.userinfoUrl ?? "").replace(/\/+$/, "")}/emails`, tokens.accessToken, "application/vnd.github+json");
      if (user.id === undefined || user.id === null) throw upstreamFailure("The identity provider's profile has no account id.", "missing_subject");
      return profileFromGitHub(user, emails);
    }
    if (!tokens.idToken) throw invalidIdToken("no id_token in the token response");
    const claims = await this.verifyIdToken(p, tokens.idToken, nonce);
    if (!p.userinfoUrl) return profileFromClaims(claims as Record<string, unknown>);
    const info = await this.getJson(p.userinfoUrl, tokens.accessToken, "application/json");
    // OIDC Core 5.3.2: the userinfo response's sub must be the ID token's, or it is not used.
    if (info.sub !== claims.sub) throw upstreamFailure("The identity provider's userinfo names another subject.", "userinfo_subject_mismatch");
    const profile = profileFromClaims({ ...info, ...pick(claims, ["sub"]), email_verified: info.email_verified ?? claims.email_verified });
    // The mappers see the ID token's claims too, userinfo's winning where both have one.
    return { ...profile, claims: { ...(claims as Record<string, unknown>), ...info } };
  }

  private async exchange(p: IdentityProviderRecord, code: string, verifier: string, redirectUri: string): Promise<TokenResponse> {
    const secret = this.secrets.open(p.clientSecretSealed, secretAad(p));
    const form = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier });
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
    if (p.providerType === "github") {
      // GitHub takes the client credentials in the body only.
      form.set("client_id", p.clientId);
      form.set("client_secret", secret);
    } else {
      // RFC 6749 section 2.3.1: HTTP Basic, each part form-urlencoded first.
      headers.authorization = `Basic ${Buffer.from(`${formEncode(p.clientId)}:${formEncode(secret)}`).toString("base64")}`;
    }
    const res = await this.fetch(p.tokenUrl, { method: "POST", headers, body: form.toString() });
    const body = res.status === 200 ? safeJson(res) : null;
    if (!body || typeof body.access_token !== "string" || !body.access_token) {
      throw upstreamFailure("The identity provider refused the authorization code.", `token_exchange_failed: ${res.status}`);
    }
    return { accessToken: body.access_token, ...(typeof body.id_token === "string" ? { idToken: body.id_token } : {}) };
  }

  /** OIDC Core 3.1.3.7, every step made here rather than trusted to a library's defaults. */
  async verifyIdToken(p: IdentityProviderRecord, idToken: string, nonce: string): Promise<JWTPayload> {
    let alg: string | undefined;
    try {
      alg = decodeProtectedHeader(idToken).alg;
    } catch {
      throw invalidIdToken("malformed");
    }
    if (!alg || !ALGORITHMS.includes(alg)) throw invalidIdToken(`alg ${alg ?? "missing"} refused`);
    const verify = async (fresh: boolean) => jwtVerify(idToken, createLocalJWKSet(await this.jwks(p, fresh)), {
      algorithms: ALGORITHMS, audience: p.clientId, ...(p.issuer ? { issuer: p.issuer } : {}),
      requiredClaims: ["sub", "exp", "iat"], clockTolerance: CLOCK_TOLERANCE_S, currentDate: new Date(this.clock.now()),
    });
    let payload: JWTPayload;
    try {
      try {
        payload = (await verify(false)).payload;
      } catch (e) {
        // A key the cached set lacks may be a rotation: fetch the set once more.
        if (!(e instanceof joseErrors.JWKSNoMatchingKey)) throw e;
        payload = (await verify(true)).payload;
      }
    } catch (e) {
      if (e instanceof joseErrors.JOSEError) throw invalidIdToken(e.code);
      throw e;
    }
    // With several audiences, azp must be this client (OIDC Core 3.1.3.7 items 4-5).
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== p.clientId) throw invalidIdToken("azp");
    if (payload.nonce !== nonce) throw invalidIdToken("nonce");
    return payload;
  }

  private async jwks(p: IdentityProviderRecord, fresh: boolean): Promise<JSONWebKeySet> {
    const url = p.jwksUrl || (await this.discoverJwksUri(p.issuer ?? ""));
    const cached = this.keys.get(url);
    if (!fresh && cached && this.clock.now() - cached.at < KEYS_TTL_MS) return cached.jwks;
    const body = safeJson(await this.fetch(url, { headers: { accept: "application/json" } }));
    if (!body || !Array.isArray(body.keys)) throw upstreamFailure("The identity provider's key set could not be read.", "jwks_unreadable");
    const jwks = body as unknown as JSONWebKeySet;
    this.keys.set(url, { jwks, at: this.clock.now() });
    return jwks;
  }

  /** OIDC Discovery 1.0 section 4: the document's issuer must be the one configured (4.3). */
  private async discoverJwksUri(issuer: string): Promise<string> {
    const cached = this.discovered.get(issuer);
    if (cached && this.clock.now() - cached.at < KEYS_TTL_MS) return cached.jwksUri;
    const res = await this.fetch(`${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`, { headers: { accept: "application/json" } });
    const doc = res.status === 200 ? safeJson(res) : null;
    if (!doc || doc.issuer !== issuer || typeof doc.jwks_uri !== "string") {
      throw upstreamFailure("The identity provider's discovery document could not be used.", "discovery_failed");
    }
    this.discovered.set(issuer, { jwksUri: doc.jwks_uri, at: this.clock.now() });
    return doc.jwks_uri;
  }

  private async getJson(url: string, accessToken: string, accept: string): Promise<Record<string, unknown>> {
    const body = await this.getAny(url, accessToken, accept);
    if (!body || typeof body !== "object" || Array.isArray(body)) throw upstreamFailure("The identity provider's profile could not be read.", "profile_unreadable");
    return body as Record<string, unknown>;
  }

  private async getAny(url: string, accessToken: string, accept: string): Promise<unknown> {
    const res = await this.fetch(url, { headers: { authorization: `Bearer ${accessToken}`, accept } });
    if (res.status !== 200) throw upstreamFailure("The identity provider's profile could not be read.", `profile_failed: ${res.status}`);
    try {
      return res.json();
    } catch {
      throw upstreamFailure("The identity provider's profile could not be read.", "profile_unreadable");
    }
  }

  private async fetch(url: string, req: Parameters<typeof guardedFetch>[2]): Promise<GuardedResponse> {
    try {
      return await guardedFetch(url, this.policy, req);
    } catch (e) {
      if (e instanceof OutboundError) throw upstreamFailure("The identity provider could not be reached.", `outbound_${e.reason}`);
      throw e;
    }
  }
}

function safeJson(res: GuardedResponse): Record<string, unknown> | null {
  try {
    const v = res.json();
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function formEncode(v: string): string {
  return encodeURIComponent(v).replace(/%20/g, "+");
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));
}
