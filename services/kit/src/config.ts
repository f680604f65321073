/**
 * Helpers for each service's config.ts, the only readers of the environment (DESIGN 4, "Config").
 * A bad value stops the process with a message naming the variable.
 */
export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.name = "ConfigError";
  }
}

export type Env = Record<string, string | undefined>;

export function str(env: Env, name: string, fallback?: string): string {
  const v = env[name];
  if (v === undefined || v === "") {
    if (fallback === undefined) throw new ConfigError(name, "is required");
    return fallback;
  }
  return v;
}

export function optStr(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === "" ? undefined : v;
}

export function int(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const v = env[name];
  if (v === undefined || v === "") return fallback;
  if (!/^-?\d+$/.test(v)) throw new ConfigError(name, `must be an integer, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const v = env[name];
  if (v === undefined || v === "") return fallback;
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw new ConfigError(name, `must be true or false, got "${v}"`);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const v = env[name];
  if (v === undefined || v === "") return fallback;
  if (!(allowed as readonly string[]).includes(v)) {
    throw new ConfigError(name, `must be one of ${allowed.join(", ")}, got "${v}"`);
  }
  return v as T;
}

export function url(env: Env, name: string, fallback?: string): string {
  const v = str(env, name, fallback);
  try {
    const u = new URL(v);
    if (u.protocol !== "http:" && u.protocol !== "https:" && u.protocol !== "nats:" &&
        u.protocol !== "mongodb:" && u.protocol !== "ldap:" && u.protocol !== "ldaps:") {
      throw new Error("bad scheme");
    }
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${withoutCredentials(v)}"`);
  }
  return v.replace(/\/+$/, "");
}

/**
 * A URL as an error message may show it: the userinfo part (`user:password@`, RFC 3986 section
 * 3.2.1) masked, since a mistyped TESSERA_MONGODB_URI still carries the database password and
 * startup errors reach the logs.
 */
export function withoutCredentials(v: string): string {
  return v.replace(/^([^/?#]*\/\/)[^/?#]*@/, "$1***@");
}

/**
 * The `{base_url}` (TESSERA_PUBLIC_URL) in one form, so every reader downstream (issuers, cookie
 * `Secure`, links, SAML entity IDs) sees the same string: the WHATWG URL serialisation (scheme and
 * host lower-cased, IDN hosts in punycode, a default port dropped, the path kept and
 * percent-encoded) without a trailing slash, as `url()` has always trimmed it and as issuers are
 * built (`{base_url}/realms/<realm>`, spec 4.17). Only http(s): it is where browsers and relying
 * parties reach the gateway. Credentials, a query or a fragment could not prefix a path, so they
 * stop the process rather than make every issuer wrong.
 */
export function baseUrl(env: Env, name: string, fallback?: string): string {
  const v = str(env, name, fallback);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${v}"`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new ConfigError(name, `must be an http(s) URL, got "${v}"`);
  // The value is not echoed here: it may hold a password.
  if (u.username || u.password) throw new ConfigError(name, "must not contain credentials");
  if (u.search || u.hash || v.includes("?") || v.includes("#")) throw new ConfigError(name, `must have no query or fragment, got "${v}"`);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`;
}

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
