import { createHash } from "node:crypto";
import { calculateJwkThumbprint, compactVerify, importJWK, type JWK } from "jose";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { SpentJtiRepository } from "../store/spent-jti-repository.js";
import type { DpopNonces } from "./dpop-nonce.js";

/** RFC 9449 section 4.3 item 5: asymmetric algorithms only (never none, never an HMAC). */
export const DPOP_ALGS = ["ES256", "RS256", "PS256", "EdDSA"] as const;
/** How old a proof's `iat` may be (section 4.3 item 11, section 11.1: a short window bounds the jti store). */
export const MAX_PROOF_AGE_S = 300;
/** How far ahead of this server's clock a proof's `iat` may be. */
export const PROOF_FUTURE_SKEW_S = 60;
const MAX_PROOF = 8 * 1024;
const MAX_JTI = 255;
/** JWK members that belong to a private or symmetric key (RFC 7518 section 6). */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k", "priv"];

/** What a proof is checked against: the request it came with. */
export interface ProofContext {
  realm: string;
  /** The request's method (section 4.3 item 8). */
  htm: string;
  /** The endpoint's URL, without query and fragment (item 9). */
  htu: string;
  /** At a protected resource: the access token the proof must hash (`ath`, item 11). */
  accessToken?: string;
  /** Whether the proof must carry this server's current nonce (section 8, 9). */
  nonceRequired: boolean;
}

/** An accepted proof: the RFC 7638 thumbprint of its key (what `cnf.jkt` holds, section 6.1). */
export interface AcceptedProof {
  jkt: string;
}

export function invalidDpopProof(message: string): IamError {
  return IamError.oauth("invalid_dpop_proof", message);
}

/**
 * DPoP proof checking (RFC 9449 section 4.3), the same at the token endpoint and at userinfo.
 * The jti of every accepted proof is spent in the store (section 11.1) so that a replay is
 * refused by any replica; a missing or stale nonce, when one is required, is use_dpop_nonce with
 * the current nonce (section 8).
 */
export class DpopProofs {
  constructor(private readonly spent: SpentJtiRepository, readonly nonces: DpopNonces, private readonly clock: Clock) {}

  async check(proof: string, ctx: ProofContext): Promise<AcceptedProof> {
    // Item 1: exactly one DPoP header, which a JWS compact serialization is (no comma, no space).
    if (!proof || proof.length > MAX_PROOF || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(proof)) {
      throw invalidDpopProof("the DPoP header must hold one JWT");
    }
    const [h, p] = proof.split(".") as [string, string, string];
    const header = parseJson(h);
    // Items 3-5.
    if (header.typ !== "dpop+jwt") throw invalidDpopProof("the proof's typ must be dpop+jwt");
    const alg = header.alg;
    if (typeof alg !== "string" || !(DPOP_ALGS as readonly string[]).includes(alg)) {
      throw invalidDpopProof(`the proof's alg must be one of ${DPOP_ALGS.join(", ")}`);
    }
    const jwk = header.jwk;
    if (!jwk || typeof jwk !== "object" || Array.isArray(jwk)) throw invalidDpopProof("the proof must carry its public key in the jwk header");
    // Item 7: the public key only.
    if (PRIVATE_MEMBERS.some((m) => m in jwk)) throw invalidDpopProof("the proof's jwk must not hold a private key");
    // Item 6.
    let key: Awaited<ReturnType<typeof importJWK>>;
    try {
      key = await importJWK(jwk as JWK, alg);
      await compactVerify(proof, key, { algorithms: [alg] });
    } catch {
      throw invalidDpopProof("the proof's signature does not verify with its jwk");
    }
    const claims = parseJson(p);
    const { jti, htm, htu, iat } = claims;
    if (typeof jti !== "string" || !jti || jti.length > MAX_JTI) throw invalidDpopProof("the proof must carry a jti");
    // Item 8: methods are case-sensitive (RFC 9110 section 9.1).
    if (htm !== ctx.htm) throw invalidDpopProof("the proof's htm does not match the request method");
    // Item 9.
    if (typeof htu !== "string" || !sameTarget(htu, ctx.htu)) throw invalidDpopProof("the proof's htu does not match the request URL");
    // Item 11.
    const now = Math.floor(this.clock.now() / 1000);
    if (typeof iat !== "number" || !Number.isFinite(iat)) throw invalidDpopProof("the proof must carry iat");
    if (iat < now - MAX_PROOF_AGE_S) throw invalidDpopProof("the proof is too old");
    if (iat > now + PROOF_FUTURE_SKEW_S) throw invalidDpopProof("the proof is issued in the future");
    // Item 10.
    if (ctx.nonceRequired && (typeof claims.nonce !== "string" || !this.nonces.accepts(ctx.realm, claims.nonce))) {
      throw new IamError({
        code: "invalidArgument", reason: "use_dpop_nonce", oauthError: "use_dpop_nonce",
        message: "a DPoP nonce is required", dpopNonce: this.nonces.current(ctx.realm),
      });
    }
    // Item 11 at a protected resource: the hash of the access token presented with it.
    if (ctx.accessToken !== undefined) {
      const ath = createHash("sha256").update(ctx.accessToken, "ascii").digest("base64url");
      if (claims.ath !== ath) throw invalidDpopProof("the proof's ath does not match the access token");
    }
    const jkt = await calculateJwkThumbprint(jwk as JWK, "sha256");
    // Item 12 (section 11.1): once per key and jti, until the proof is too old anyway.
    if (!(await this.spent.spend(ctx.realm, jkt, jti, (Math.max(iat, now) + MAX_PROOF_AGE_S) * 1000))) {
      throw invalidDpopProof("the proof's jti was already used");
    }
    return { jkt };
  }
}

function parseJson(part: string): Record<string, unknown> {
  try {
    const v = JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as unknown;
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch { /* refused below */ }
  throw invalidDpopProof("the DPoP proof is not a well-formed JWT");
}

/**
 * Section 4.3 item 9: the URIs compared without query and fragment, after the syntax-based
 * normalization of RFC 3986 section 6.2.2 (scheme and host case, default port), which the URL
 * parser does.
 */
function sameTarget(htu: string, expected: string): boolean {
  let a: URL;
  let b: URL;
  try {
    a = new URL(htu);
    b = new URL(expected);
  } catch {
    return false;
  }
  return a.protocol === b.protocol && a.host === b.host && a.pathname === b.pathname;
}
