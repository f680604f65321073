import { randomToken } from "../../../services/kit/src/crypto/random.js";
import type { Request, Response } from "express";

/** The SSO session cookie: 256-bit random; the token service stores only its SHA-256. */
export const SSO_COOKIE = "TESSERA_SESSION";
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

export function setSsoCookie(res: Response, realm: string, publicUrl: string, value: string): void {
  res.cookie(SSO_COOKIE, value, options(realm, publicUrl));
}

export function clearSsoCookie(res: Response, realm: string, publicUrl: string): void {
  res.clearCookie(SSO_COOKIE, options(realm, publicUrl));
}
