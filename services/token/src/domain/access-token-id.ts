import { randomUUID } from "node:crypto";
import type { JWTPayload } from "jose";

/**
 * An access token's `jti` (RFC 7519 section 4.1.7) is a UUIDv7 (RFC 9562 section 5.7): 48 bits of
 * the issue time in epoch milliseconds, then 74 random bits. It is unique all the same (74 random
 * bits within each millisecond), and it tells when, to the millisecond, the token was issued: `iat`
 * counts whole seconds, too coarse to tell a token issued just before a revocation by issue time (a
 * disabled client or user, see RevokedTokenRepository) from one issued just after it was re-enabled.
 */
export function newAccessTokenId(now: number): string {
  // A random UUIDv4 (122 random bits, variant 10) with its first 48 bits replaced by the time and
  // its version nibble by 7: node's randomUUID draws from a pooled buffer of entropy, where a
  // randomBytes(16) per token was a call into the CSPRNG each time (about 2.5 us of a token request).
  const v4 = randomUUID(); // xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx
  const t = now.toString(16).padStart(12, "0");
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${v4.slice(15)}`;
}

/**
 * When a verified access token was issued, in epoch ms: from its UUIDv7 `jti` when that agrees
 * with `iat`; otherwise (a token minted before jti carried the time) the start of its `iat` second,
 * the earliest it can have been issued, so a revocation within that second covers it.
 */
export function issuedAtMs(payload: JWTPayload): number {
  const iat = typeof payload.iat === "number" ? payload.iat : 0;
  const v7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.exec(String(payload.jti ?? ""));
  if (v7) {
    const ms = parseInt(v7[1]! + v7[2]!, 16);
    if (Math.floor(ms / 1000) === iat) return ms;
  }
  return iat * 1000;
}
