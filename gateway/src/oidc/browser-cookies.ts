import { randomToken } from "../../../services/kit/src/crypto/random.js";
import type { Request, Response } from "express";
import type { FlowResult } from "../../../gen/iam/token/v1/authorization_pb.js";

/** The SSO session cookie: 256-bit random; the token service stores only its SHA-256. */
export const SSO_COOKIE = "TESSERA_SESSION";
/**
 * Keycloak's KEYCLOAK_REMEMBER_ME: the username of the last login made with "Remember me", which
 * the login page offers again. A username only, nothing secret; shown escaped by the templates.
 */
export const REMEMBER_ME_COOKIE = "TESSERA_REMEMBER_ME";
/** Keycloak keeps its remember-me cookie a year. */
const REMEMBER_ME_MAX_AGE_MS = 365 * 86_400_000;
/** Binds login transactions to the browser that began them (login CSRF, DESIGN 5). */
export const BROWSER_COOKIE = "TESSERA_BROWSER";

function options(realm: string, publicUrl: string) {
  return {
    path: `/realms/${realm}/`, httpOnly: true, sameSite: "lax" as const, secure: publicUrl.startsWith("https:"),
  };
}

export function readCookie(req: Request, name: string): string {
  const v = (req.cookies as Record<string, unknown> | undefined)?.[name];
  return typeof v === "string" && v.length <= 256 ? v : "";
}

/** The browser-binding value, set on first sight (a session cookie). */
export function ensureBrowserId(req: Request, res: Response, realm: string, publicUrl: string): string {
  const existing = readCookie(req, BROWSER_COOKIE);
  if (existing) return existing;
  const id = randomToken(32);
  res.cookie(BROWSER_COOKIE, id, options(realm, publicUrl));
  return id;
}

/**
 * A session cookie (gone when the browser closes, as Keycloak's without "Remember me"), or one
 * kept `maxAgeSeconds` for a remembered session.
 */
export function setSsoCookie(res: Response, realm: string, publicUrl: string, value: string, maxAgeSeconds = 0): void {
  res.cookie(SSO_COOKIE, value, { ...options(realm, publicUrl), ...(maxAgeSeconds > 0 ? { maxAge: maxAgeSeconds * 1000 } : {}) });
}

/**
 * The cookies a flow step's answer sets: a new SSO cookie, persistent for a session opened with
 * "Remember me", and with it the remembered username, set for such a session and dropped (when
 * the browser has one) for any other, as Keycloak does after each login; or the SSO cookie cleared.
 */
export function writeFlowCookies(req: Request | undefined, res: Response, realm: string, publicUrl: string, result: FlowResult): void {
  if (result.setSsoCookie) {
    setSsoCookie(res, realm, publicUrl, result.setSsoCookie, Number(result.ssoCookieMaxAge));
    if (result.rememberMeUsername) res.cookie(REMEMBER_ME_COOKIE, result.rememberMeUsername, { ...options(realm, publicUrl), maxAge: REMEMBER_ME_MAX_AGE_MS });
    else if (req && readCookie(req, REMEMBER_ME_COOKIE)) res.clearCookie(REMEMBER_ME_COOKIE, options(realm, publicUrl));
  }
  if (result.clearSsoCookie) clearSsoCookie(res, realm, publicUrl);
}

export function clearSsoCookie(res: Response, realm: string, publicUrl: string): void {
  res.clearCookie(SSO_COOKIE, options(realm, publicUrl));
}
