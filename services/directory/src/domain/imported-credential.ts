import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { IamError } from "../../../kit/src/errors.js";
import { MAX_PBKDF2_ITERATIONS, hashFormat, pbkdf2Hash } from "./stored-hash.js";

/**
 * A password hash carried by an imported user (spec 2.2 "imported with a password hash where the
 * hash type is supported", DESIGN 5), turned into the stored form of stored-hash.ts. Accepted:
 *   - `passwordHash`: a PHC / modular crypt string (`$argon2id$...`, `$2b$...`, `$pbkdf2-sha256$...`);
 *   - `credentials: [{type: "password", ...}]` in Keycloak's export format, either the legacy fields
 *     (`hashedSaltedValue`, `salt`, `hashIterations`, `algorithm`) or the current `secretData` /
 *     `credentialData` JSON strings (`{value, salt}` / `{hashIterations, algorithm, additionalParameters}`).
 *     Algorithms: `pbkdf2` (HMAC-SHA-1), `pbkdf2-sha256`, `pbkdf2-sha512`, `bcrypt` (value is the
 *     modular string), `argon2` (value is a PHC string, or the raw base64 hash with the salt and
 *     Keycloak's additionalParameters type / version / memory / parallelism).
 * Anything else is refused with `unsupported_hash` (never stored unverifiable).
 */
export interface ImportedPassword {
  hash: string;
  temporary: boolean;
  /** Keycloak's `createdDate` (epoch ms) when given, for passwordMaxAgeDays. */
  createdAt?: number;
}

export function importedPassword(user: JsonObject): ImportedPassword | undefined {
  if (user.passwordHash !== undefined) {
    if (typeof user.passwordHash !== "string") throw IamError.invalid("passwordHash", "passwordHash must be a string");
    return { hash: checkedHash(user.passwordHash), temporary: false };
  }
  if (user.credentials === undefined) return undefined;
  if (!Array.isArray(user.credentials)) throw IamError.invalid("credentials", "credentials must be an array");
  const passwords = user.credentials.filter((c) => isObject(c) && (c.type ?? "password") === "password") as JsonObject[];
  if (passwords.length === 0) return undefined;
  if (passwords.length > 1) throw IamError.invalid("credentials", "at most one password credential per user");
  return fromKeycloak(passwords[0]!);
}

function fromKeycloak(c: JsonObject): ImportedPassword {
  const secret = jsonField(c, "secretData");
  const data = jsonField(c, "credentialData");
  const value = str(c.hashedSaltedValue ?? c.value ?? secret.value, "hashedSaltedValue");
  const salt = c.salt ?? secret.salt;
  const algorithm = str(c.algorithm ?? data.algorithm ?? "pbkdf2-sha256", "algorithm").toLowerCase();
  const iterations = c.hashIterations ?? data.hashIterations;
  const temporary = c.temporary === true;
  const createdAt = typeof c.createdDate === "number" && c.createdDate > 0 ? c.createdDate : undefined;
  const out = (hash: string): ImportedPassword => ({ hash: checkedHash(hash), temporary, ...(createdAt ? { createdAt } : {}) });
  if (algorithm === "bcrypt") return out(value);
  if (algorithm === "pbkdf2" || algorithm === "pbkdf2-sha256" || algorithm === "pbkdf2-sha512") {
    const n = Number(iterations);
    if (!Number.isInteger(n) || n < 1 || n > MAX_PBKDF2_ITERATIONS) {
      throw IamError.invalid("credentials", `hashIterations must be an integer between 1 and ${MAX_PBKDF2_ITERATIONS}`, "unsupported_hash");
    }
    return out(pbkdf2Hash(algorithm, n, base64(salt, "salt"), base64(value, "hashedSaltedValue")));
  }
  if (algorithm === "argon2") {
    if (value.startsWith("$argon2")) return out(value);
    const p = isObject(data.additionalParameters) ? data.additionalParameters : {};
    const param = (k: string, d: string) => (Array.isArray(p[k]) ? String(p[k][0]) : d);
    const type = param("type", "id");
    const version = param("version", "1.3") === "1.0" ? 16 : 19;
    const t = Number(iterations ?? 1);
    const phc = `$argon2${type}$v=${version}$m=${param("memory", "7168")},t=${t},p=${param("parallelism", "1")}`
      + `$${unpadded(base64(salt, "salt"))}$${unpadded(value)}`;
    return out(phc);
  }
  throw IamError.invalid("credentials", `unsupported hash algorithm "${algorithm}"`, "unsupported_hash");
}

function checkedHash(hash: string): string {
  if (!hashFormat(hash)) throw IamError.invalid("passwordHash", "unsupported or malformed password hash", "unsupported_hash");
  return hash;
}

/** Keycloak 12+ exports secretData / credentialData as JSON held in strings. */
function jsonField(c: JsonObject, name: string): JsonObject {
  const v = c[name];
  if (v === undefined || v === null) return {};
  if (isObject(v)) return v;
  if (typeof v !== "string") throw IamError.invalid("credentials", `${name} must be a JSON string`);
  try {
    const parsed = JSON.parse(v) as JsonValue;
    if (isObject(parsed)) return parsed;
  } catch { /* reported below */ }
  throw IamError.invalid("credentials", `${name} must hold a JSON object`);
}

function str(v: JsonValue | undefined, field: string): string {
  if (typeof v !== "string" || v === "") throw IamError.invalid("credentials", `${field} must be a non-empty string`, "unsupported_hash");
  return v;
}

function base64(v: JsonValue | undefined, field: string): string {
  const s = str(v, field);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(s)) throw IamError.invalid("credentials", `${field} must be base64`, "unsupported_hash");
  return s;
}

function unpadded(b64: string): string {
  return b64.replace(/=+$/, "");
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
