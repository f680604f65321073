import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Request, Response } from "express";
import type { RouteTable } from "../http/route-table.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RealmLooks } from "../pages/realm-looks.js";
import { accountDocument, themeCss } from "./account-look.js";

/**
 * The admin console (docs/admin-console.md): a static single-page app built by Vite into
 * dist/console/ (`npm run build`), a client of the public Admin API only. The gateway serves its
 * document and its content-hashed assets, nothing else.
 */

/** dist/console/, beside the compiled gateway (dist/gateway/src/console/ is this module's folder). */
const CONSOLE_DIR = fileURLToPath(new URL("../../../console/", import.meta.url));

/** Content-hashed file names of Vite's output (`admin-Yg7WlLwq.js`): no path separator, no dot segment. */
const ASSET_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.(?:js|css|map|svg|woff2)$/;

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
};

/**
 * The consoles' policy: scripts and styles only from the gateway's own files (no 'unsafe-inline',
 * no 'unsafe-eval'), API calls only to the gateway, no framing, no plugins, no base or form
 * targets elsewhere (CSP3).
 */
export const CONSOLE_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "font-src 'self'",
  "connect-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'",
].join("; ");

/** Files read once: the build's names change with their content, so a cached copy is never stale. */
const cache = new Map<string, Buffer>();

async function consoleFile(name: string): Promise<Buffer | null> {
  const hit = cache.get(name);
  if (hit) return hit;
  try {
    const data = await readFile(join(CONSOLE_DIR, name));
    cache.set(name, data);
    return data;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/**
 * A console's document: the same policy and headers for the admin and the account console;
 * `adapt` fits the built page to a realm (its theme) and widens the policy for its logo.
 */
async function sendDocument(res: Response, file: string, what: string, adapt?: (html: string) => { html: string; csp: string }): Promise<undefined> {
  const built = await consoleFile(file);
  if (!built) throw new GatewayError(503, "console_not_built", `the ${what} is not built; run npm run build`);
  const { html, csp } = adapt ? adapt(built.toString("utf8")) : { html: built, csp: CONSOLE_CSP };
  res.setHeader("Content-Security-Policy", csp);
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Referrer-Policy", "no-referrer");
  // frame-ancestors for browsers that predate CSP2 (RFC 7034).
  res.setHeader("X-Frame-Options", "DENY");
  res.status(200).type("text/html; charset=utf-8").send(html);
  return undefined;
}

export function addConsoleRoutes(table: RouteTable, looks: RealmLooks): void {
  table
    .add("GET", "/admin/console", "public", async (_req: Request, res: Response) => sendDocument(res, "admin.html", "admin console"))
    // The account console (docs/account-console.md): one document for every realm, which reads its
    // realm from the path and signs in through that realm's login. The trailing slash is its
    // canonical address (the account-console client's redirect URI); without it, a redirect there.
    .add("GET", "/realms/:realmName/account/", "public", async (req: Request, res: Response) => {
      const realm = String(req.params.realmName);
      const look = await looks.get(realm);
      return sendDocument(res, "account.html", "account console", (html) => accountDocument(html, realm, look, CONSOLE_CSP));
    })
    // The realm's theme as the console's custom properties; the document links it with a version.
    .add("GET", "/realms/:realmName/account/theme.css", "public", async (req: Request, res: Response) => {
      const look = await looks.get(String(req.params.realmName));
      res.setHeader("Content-Security-Policy", CONSOLE_CSP);
      res.setHeader("Cache-Control", "no-cache");
      res.status(200).type("text/css; charset=utf-8").send(themeCss(look.theme));
      return undefined;
    })
    // Relative (RFC 3986 section 5.2): `account/` from `/realms/x/account` is `/realms/x/account/`.
    .add("GET", "/realms/:realmName/account", "public", async () => ({ status: 302, headers: { Location: "account/", "Cache-Control": "no-store" } }))
    .add("GET", "/resources/console/assets/:file", "public", async (req: Request, res: Response) => {
      const name = String(req.params.file);
      const data = ASSET_NAME.test(name) ? await consoleFile(join("assets", name)) : null;
      if (!data) throw new GatewayError(404, "not_found", `no console asset ${name}`);
      res.setHeader("Content-Security-Policy", CONSOLE_CSP);
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.status(200).type(TYPES[extname(name)] ?? "application/octet-stream").send(data);
      return undefined;
    });
}
