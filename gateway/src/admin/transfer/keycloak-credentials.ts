import { base32Encode } from "./base32.js";

type Json = Record<string, unknown>;
type Note = (path: string, message: string) => void;

/** Tessera's password credential of the document, from Keycloak's; undefined (noted) when it has no equivalent. */
export function keycloakPassword(c: Json, path: string, note: Note): { passwordHash: string; temporary: boolean; createdAt: number } | undefined {
  const secret = jsonString(c.secretData);
  const data = jsonString(c.credentialData);
  const value = String(secret.value ?? c.hashedSaltedValue ?? "");
  const salt = String(secret.salt ?? c.salt ?? "");
  const algorithm = String(data.algorithm ?? c.algorithm ?? "pbkdf2-sha256").toLowerCase();
  const iterations = Number(data.hashIterations ?? c.hashIterations);
  const createdAt = typeof c.createdDate === "number" ? c.createdDate : 0;
  const temporary = c.temporary === true;
  const out = (passwordHash: string) => ({ passwordHash, temporary, createdAt });
  if (algorithm === "pbkdf2" || algorithm === "pbkdf2-sha256" || algorithm === "pbkdf2-sha512") {
    // Keycloak's PBKDF2 (RFC 8018 section 5.2): the directory verifies `$<alg>$i=<n>$<salt>$<key>`.
    return out(`$${algorithm}$i=${iterations}$${salt}$${value}`);
  }
  if (algorithm === "bcrypt") return out(value);
  if (algorithm === "argon2") {
    if (value.startsWith("$argon2")) return out(value);
    // Keycloak's argon2 keeps the raw hash and salt with its parameters in additionalParameters.
    const p = (typeof data.additionalParameters === "object" && data.additionalParameters ? data.additionalParameters : {}) as Json;
    const param = (k: string, d: string) => (Array.isArray(p[k]) ? String((p[k] as unknown[])[0]) : d);
    const version = param("version", "1.3") === "1.0" ? 16 : 19;
    return out(`$argon2${param("type", "id")}$v=${version}$m=${param("memory", "7168")},t=${Number.isFinite(iterations) ? iterations : 5},p=${param("parallelism", "1")}`
      + `$${salt.replace(/=+$/, "")}$${value.replace(/=+$/, "")}`);
  }
  note(path, `password hash algorithm "${algorithm}" has no equivalent: the user must reset the password`);
  return undefined;
}

/**
 * Tessera's TOTP credential from Keycloak's `otp` credential. Keycloak's HMAC key is the UTF-8
 * bytes of `secretData.value` as stored (its TOTP implementation never base32-decodes it), so the
 * RFC 6238 key Tessera stores is the base32 of those bytes: the user's authenticator app, enrolled
 * with Keycloak's base32 of the same bytes, keeps producing valid codes.
 */
export function keycloakOtp(c: Json, path: string, policyOk: boolean, note: Note): { secret: string; createdAt: number } | undefined {
  const secret = jsonString(c.secretData);
  const data = jsonString(c.credentialData);
  const sub = String(data.subType ?? "totp");
  const value = typeof secret.value === "string" ? secret.value : "";
  const digits = Number(data.digits ?? 6), period = Number(data.period ?? 30);
  const algorithm = String(data.algorithm ?? "HmacSHA1");
  if (!policyOk || sub !== "totp" || digits !== 6 || period !== 30 || algorithm !== "HmacSHA1" || value === "") {
    note(path, `OTP credential (${sub}, ${digits} digits, ${period} s, ${algorithm}) has no equivalent: Tessera runs TOTP with 6 digits, 30 s, HMAC-SHA1; the user enrols again`);
    return undefined;
  }
  const key = base32Encode(Buffer.from(value, "utf8"));
  if (key.length < 16) {
    note(path, "OTP secret shorter than 80 bits: the user enrols again");
    return undefined;
  }
  return { secret: key, createdAt: typeof c.createdDate === "number" ? c.createdDate : 0 };
}

/** Keycloak 12+ stores secretData and credentialData as JSON inside strings. */
function jsonString(v: unknown): Json {
  if (typeof v === "object" && v !== null) return v as Json;
  if (typeof v !== "string") return {};
  try {
    const parsed = JSON.parse(v) as unknown;
    return typeof parsed === "object" && parsed !== null ? parsed as Json : {};
  } catch {
    return {};
  }
}
