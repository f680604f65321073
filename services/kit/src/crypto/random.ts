import { randomBytes, createHash, timingSafeEqual } from "node:crypto";

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/**
 * `bytes` random bytes, base64url (256 bits by default): refresh tokens, codes, CSRF tokens,
 * cookies, client secrets, API keys. Drawn from a buffer the CSPRNG fills 4 KiB at a time, as
 * node's randomUUID pools its entropy: one randomBytes call per token was a call into OpenSSL each
 * time, about 7 us here, four of them on every login page (docs/performance.md). Every byte is
 * handed out once; a refill is a new buffer.
 */
export function randomToken(bytes = 32): string {
  if (bytes > POOL_BYTES) return randomBytes(bytes).toString("base64url");
  if (used + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  const token = pool.toString("base64url", used, used + bytes);
  used += bytes;
  return token;
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** Constant-time comparison of two strings (by their SHA-256, so lengths never leak). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}
