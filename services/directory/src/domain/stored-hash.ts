import { pbkdf2, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { verify as argon2Verify } from "@node-rs/argon2";
import bcrypt from "bcryptjs";

const pbkdf2Async = promisify(pbkdf2);

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
const DIGEST: Record<string, string> = { "pbkdf2": "sha1", "pbkdf2-sha256": "sha256", "pbkdf2-sha512": "sha512" };
/** Bounds the work one imported PBKDF2 hash can cost per login. */
export const MAX_PBKDF2_ITERATIONS = 10_000_000;

export function hashFormat(hash: string): HashFormat | null {
  if (/^\$argon2(id|i|d)\$/.test(hash)) return "argon2";
  if (/^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(hash)) return "bcrypt";
  const m = PBKDF2.exec(hash);
  if (m && Number(m[2]) >= 1 && Number(m[2]) <= MAX_PBKDF2_ITERATIONS) return "pbkdf2";
  return null;
}

export function pbkdf2Hash(algorithm: string, iterations: number, saltB64: string, keyB64: string): string {
  return `$${algorithm}$i=${iterations}$${saltB64}$${keyB64}`;
}

/** Verifies a password against a stored hash of any supported format; malformed hashes never match. */
export async function verifyStoredHash(hash: string, password: string): Promise<boolean> {
  try {
    switch (hashFormat(hash)) {
      case "argon2":
        return await argon2Verify(hash, password);
      case "bcrypt":
        return await bcrypt.compare(password, hash);
      case "pbkdf2": {
        const [, alg, iter, salt, key] = PBKDF2.exec(hash) as RegExpExecArray;
        const expected = Buffer.from(key!, "base64");
        if (expected.length === 0) return false;
        const got = await pbkdf2Async(password, Buffer.from(salt!, "base64"), Number(iter), expected.length, DIGEST[alg!]!);
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
