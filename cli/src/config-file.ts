import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { CliError, EXIT } from "./exit-codes.js";

/** What `tessera login` keeps: where the server is and how to authenticate to it. */
export interface Profile {
  url: string;
  /** An Admin API key, or an admin JWT from POST /admin/auth/login, never both. */
  apiKey?: string;
  accessToken?: string;
  /** The admin login's refresh token: what `tessera logout` ends the sign-in with. */
  refreshToken?: string;
  username?: string;
}

/**
 * The profile file: `TESSERA_CONFIG`, else `$XDG_CONFIG_HOME/tessera/config.json`, else
 * `~/.config/tessera/config.json`. It holds a credential, so it is written with mode 0600 and its
 * folder 0700.
 */
export function configPath(): string {
  if (process.env.TESSERA_CONFIG) return process.env.TESSERA_CONFIG;
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "tessera", "config.json");
}

export function saveProfile(profile: Profile): string {
  const path = configPath();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify(profile, null, 2) + "\n", { mode: 0o600 });
  // An existing file keeps its mode on write: tighten it too.
  chmodSync(path, 0o600);
  return path;
}

/** The profile file as saved, without the environment's overrides; undefined when there is none or it does not parse. */
export function savedProfile(): Profile | undefined {
  const path = configPath();
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Profile;
  } catch {
    return undefined;
  }
}

/**
 * The profile to use: the file's, with `TESSERA_URL` and `TESSERA_API_KEY` taking precedence,
 * so scripts and CI need no file at all.
 */
export function loadProfile(): Profile {
  const path = configPath();
  let profile: Profile | undefined;
  if (existsSync(path)) {
    try {
      profile = JSON.parse(readFileSync(path, "utf8")) as Profile;
    } catch {
      throw new CliError(EXIT.usage, `the profile ${path} is not valid JSON; run tessera login again`);
    }
  }
  const raw = process.env.TESSERA_URL || profile?.url;
  if (!raw) throw new CliError(EXIT.notLoggedIn, "not logged in: run tessera login --url <url> --api-key <key>");
  const url = serverUrl(raw, process.env.TESSERA_URL ? "TESSERA_URL" : `the profile ${path}`);
  const apiKey = process.env.TESSERA_API_KEY;
  if (apiKey) return { url, apiKey };
  return { ...profile, url };
}

/**
 * A server's base URL as the CLI keeps it (origin and path, no trailing slash), from `--url`,
 * `TESSERA_URL` or the profile; `from` names where it came from, so a mistake is a usage error
 * that says what to fix rather than a failed request.
 */
export function serverUrl(raw: string, from: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new CliError(EXIT.usage, `${from} is not a URL: ${raw}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new CliError(EXIT.usage, `${from} must be an http or https URL: ${raw}`);
  return u.origin + u.pathname.replace(/\/+$/, "");
}
