import type { JWTPayload } from "jose";

interface Verified {
  kid: string;
  alg: string;
  payload: JWTPayload;
}

/** Tokens remembered; past it the oldest goes. About 1 KB each, so a few MB at most. */
const MAX_ENTRIES = 4096;

/**
 * JWTs whose signature has been verified, by their exact compact serialization: a signature over
 * the same bytes by the same key verifies the same way forever, so a token presented again (a
 * resource server calling userinfo or introspection on each of its own requests) is not verified
 * again. RS256 verification through jose's WebCrypto path was the largest cost of those endpoints
 * (about 0.1 ms of the core of their 0.3-0.55 ms).
 *
 * What is remembered is only that the bytes verified under the key named `kid` (the key's RFC 7638
 * thumbprint, so the name fixes the key material) with its algorithm. The caller still resolves
 * the kid among the realm's published keys on every use (a retired key verifies nothing, at once),
 * and the time claims are checked again against the clock (`stillValid`); revocation, sessions and
 * everything else are checked by the callers per request as before. Only tokens that verified are
 * kept, so garbage costs a full verification every time and cannot evict much.
 */
export class VerifiedSignatures {
  private readonly entries = new Map<string, Verified>();

  /** The claims of a token verified before under this key, checked against `nowMs`; undefined otherwise. */
  get(realmId: string, jwt: string, kid: string, alg: string, nowMs: number): JWTPayload | undefined {
    const hit = this.entries.get(cacheKey(realmId, jwt));
    if (!hit || hit.kid !== kid || hit.alg !== alg || !stillValid(hit.payload, nowMs)) return undefined;
    // A copy: callers may add to what they are given.
    return { ...hit.payload };
  }

  remember(realmId: string, jwt: string, kid: string, alg: string, payload: JWTPayload): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(cacheKey(realmId, jwt), { kid, alg, payload: { ...payload } });
  }
}

function cacheKey(realmId: string, jwt: string): string {
  return `${realmId}\u0000${jwt}`;
}

/**
 * RFC 7519 sections 4.1.4 and 4.1.5 as jose's jwtVerify checks them without clock tolerance, in
 * whole seconds: expired once `exp` <= now, not yet valid while `nbf` > now.
 */
function stillValid(payload: JWTPayload, nowMs: number): boolean {
  const now = Math.floor(nowMs / 1000);
  if (typeof payload.exp === "number" && payload.exp <= now) return false;
  if (typeof payload.nbf === "number" && payload.nbf > now) return false;
  return true;
}
