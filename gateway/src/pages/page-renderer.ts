import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Response } from "express";
import { pageCsp, type PageCspOptions } from "./content-security-policy.js";
import { translator } from "../../../services/kit/src/i18n/message-bundles.js";
import { lazyImport } from "../../../services/kit/src/runtime/lazy-import.js";

/**
 * Templates are read from the repository's `gateway/src/pages/templates` (tsc does not copy them
 * to dist), found by walking up from this module to the directory holding package.json.
 */
function templateDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, "gateway", "src", "pages", "templates");
    if (existsSync(join(dir, "package.json")) && existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error("hosted page templates not found (gateway/src/pages/templates)");
}

// Found at start: a build without its templates fails there, not at its first page.
const TEMPLATES = templateDir();

/**
 * One auto-escaping environment (DESIGN 5: hosted pages never interpolate raw values). nunjucks
 * (about 20 modules, 180 KB) is imported for the first page rather than at start, which serves
 * only APIs (faster cold start).
 */
const environment = lazyImport(async () => {
  const nunjucks = (await import("nunjucks")).default;
  return new nunjucks.Environment(new nunjucks.FileSystemLoader(TEMPLATES, { noCache: false }), {
    autoescape: true, throwOnUndefined: false, trimBlocks: true, lstripBlocks: true,
  });
});

/**
 * Headers of every hosted page: a strict CSP (content-security-policy.ts: form-action 'self' plus,
 * while a flow may end at the client, its registered redirect origin or private-use scheme), no
 * framing (clickjacking), no Referer (codes and states in URLs), never cached.
 */
export type PageExtras = Omit<PageCspOptions, "formAction">;

export function pageHeaders(res: Response, formAction = "", extras: PageExtras = {}): void {
  res.setHeader("Content-Security-Policy", pageCsp({ formAction, ...extras }));
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Pragma", "no-cache");
}

/**
 * What a page that names no locale speaks (the pages outside the login flows: landing, broker,
 * invitations): English, no language menu. Flow pages pass their own (page-locale.ts).
 */
const ENGLISH = { t: translator("en"), lang: "en", languages: [] };

/** Renders a template as an HTML response. */
export async function renderPage(res: Response, status: number, template: string, context: object, formAction = "", extras: PageExtras = {}): Promise<void> {
  const html = (await environment()).render(template, { ...ENGLISH, ...context });
  pageHeaders(res, formAction, extras);
  res.status(status).type("html").send(html);
}
