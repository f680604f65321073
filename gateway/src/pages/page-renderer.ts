import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import nunjucks from "nunjucks";
import type { Response } from "express";

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

/** One auto-escaping environment (DESIGN 5: hosted pages never interpolate raw values). */
const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(templateDir(), { noCache: false }), {
  autoescape: true, throwOnUndefined: false, trimBlocks: true, lstripBlocks: true,
});

const ORIGIN = /^https?:\/\/[^\s;,']+$/;

/**
 * Headers of every hosted page: a strict CSP (form-action 'self' plus, while a flow may end at the
 * client, its registered redirect origin), no framing (clickjacking), no Referer (codes and states
 * in URLs), never cached.
 */
export interface PageExtras {
  /** A nonce admitting exactly the page's own inline script (SAML auto-submit), nothing injected. */
  scriptNonce?: string;
  /** Origins the page may frame (SAML front-channel logout). */
  frameOrigins?: string[];
}

export function pageHeaders(res: Response, formActionOrigin = "", extras: PageExtras = {}): void {
  const formAction = formActionOrigin && ORIGIN.test(formActionOrigin) ? ` ${formActionOrigin}` : "";
  const nonce = extras.scriptNonce ?? "";
  const script = /^[A-Za-z0-9_-]{16,}$/.test(nonce) ? ` script-src 'nonce-${nonce}';` : "";
  const frames = (extras.frameOrigins ?? []).filter((o) => ORIGIN.test(o));
  const frameSrc = frames.length ? ` frame-src ${frames.join(" ")};` : "";
  res.setHeader("Content-Security-Policy",
    `default-src 'none';${script}${frameSrc} style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; form-action 'self'${formAction}; frame-ancestors 'none'; base-uri 'none'`);
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Pragma", "no-cache");
}

/** Renders a template as an HTML response. */
export function renderPage(res: Response, status: number, template: string, context: object, formActionOrigin = "", extras: PageExtras = {}): void {
  const html = env.render(template, context);
  pageHeaders(res, formActionOrigin, extras);
  res.status(status).type("html").send(html);
}
