import { pbkdf2Sync, timingSafeEqual } from "node:crypto";
import { verifySync as argon2Verify } from "@node-rs/argon2";
import { verifySync as bcryptVerify } from "@node-rs/bcrypt";

/**
 * Password hashes as the `credentials` collection holds them (DESIGN 5). Tessera writes argon2id
 * PHC strings only; imported users keep their own format until their next successful login:
 *   - argon2 PHC strings: `$argon2id$v=19$m=...,t=...,p=...$salt$hash` (also argon2i / argon2d);
 *   - bcrypt modular crypt: `$2a$` / `$2b$` / `$2y$`;
 *   - PBKDF2 (RFC 8018 section 5.2) in a PHC-like form of Keycloak's credential:
 *     `$pbkdf2-sha256$i=<iterations>$<salt base64>$<derived key base64>` (also `pbkdf2` = SHA-1
 *     and `pbkdf2-sha512`); the derived key length is that of the stored key.
 */
export type HashFormat = "argon2" | "bcrypt" | "pbkdf2";

const PBKDF2 = /^\$(pbkdf2|pbkdf2-sha256|pbkdf2-sha512)\$i=(\d{1,9})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;
const ARGON2 = /^\$argon2(?:id|i|d)\$(?:v=(?:16|19)\$)?([a-z0-9=,]+)\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/;
const BCRYPT = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;
const DIGEST: Record<string, string> = { "pbkdf2": "sha1", "pbkdf2-sha256": "sha256", "pbkdf2-sha512": "sha512" };
/** Bounds the work one imported PBKDF2 hash can cost per login. */
export const MAX_PBKDF2_ITERATIONS = 10_000_000;
/**
 * Bounds the work and memory one stored argon2 hash can cost per login: the same ceilings as the
 * TESSERA_ARGON2_* settings, so an imported hash cannot ask for more than Tessera could be configured to.
 */
export const ARGON2_LIMITS = { memoryKiB: 4_194_304, iterations: 100, parallelism: 16 };
/** bcrypt's cost is a power of two: 16 is about 4 s of a core per login; the format's minimum is 4. */
export const BCRYPT_COST = { min: 4, max: 16 };

export function hashFormat(hash: string): HashFormat | null {
  const argon = ARGON2.exec(hash);
  if (argon) return argon2Within(argon[1]!) ? "argon2" : null;
  const bc = BCRYPT.exec(hash);
  if (bc) return Number(bc[1]) >= BCRYPT_COST.min && Number(bc[1]) <= BCRYPT_COST.max ? "bcrypt" : null;
  const m = PBKDF2.exec(hash);
  if (m && Number(m[2]) >= 1 && Number(m[2]) <= MAX_PBKDF2_ITERATIONS) return "pbkdf2";
  return null;
}

/** The PHC parameters `m=..,t=..,p=..` (any order, each once) within ARGON2_LIMITS. */
function argon2Within(params: string): boolean {
  const seen = new Map<string, number>();
  for (const part of params.split(",")) {
    const [k, v] = part.split("=");
    if (!k || v === undefined || !/^\d{1,10}$/.test(v) || seen.has(k)) return false;
    seen.set(k, Number(v));
  }
  const m = seen.get("m"), t = seen.get("t"), p = seen.get("p");
  if (seen.size !== 3 || m === undefined || t === undefined || p === undefined) return false;
  return m >= 1 && m <= ARGON2_LIMITS.memoryKiB && t >= 1 && t <= ARGON2_LIMITS.iterations && p >= 1 && p <= ARGON2_LIMITS.parallelism;
}

export function pbkdf2Hash(algorithm: string, iterations: number, saltB64: string, keyB64: string): string {
  return `$${algorithm}$i=${iterations}$${saltB64}$${keyB64}`;
}

/**
 * Verifies a password against a stored hash of any supported format; malformed hashes never match.
 * Synchronous: it runs on a hashing thread (hashing-thread.ts), never on the event loop.
 */
export function verifyStoredHash(hash: string, password: string): boolean {
  try {
    switch (hashFormat(hash)) {
      case "argon2":
        return argon2Verify(hash, password);
      case "bcrypt":
        return bcryptVerify(password, hash);
      case "pbkdf2": {
        const [, alg, iter, salt, key] = PBKDF2.exec(hash) as RegExpExecArray;
        const expected = Buffer.from(key!, "base64");
        if (expected.length === 0) return false;
        const got = pbkdf2Sync(password, Buffer.from(salt!, "base64"), Number(iter), expected.length, DIGEST[alg!]!);
        return timingSafeEqual(got, expected);
      }
      default:
        return false;
    }
  } catch {
    return false;
  }
}

/** Anything but argon2id is re-hashed on the next successful login (DESIGN 5). */
export function needsRehash(hash: string): boolean {
  return !hash.startsWith("$argon2id$");
}
