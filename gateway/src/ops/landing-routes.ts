import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Request, Response } from "express";
import type { RouteTable } from "../http/route-table.js";
import { renderPage } from "../pages/page-renderer.js";
import { resolveTheme } from "../pages/themes.js";

/** The version of the running code: package.json's, found by walking up from this module (dist or source). */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const file = join(dir, "package.json");
    if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
    dir = dirname(dir);
  }
  return "unknown";
}

export interface LandingLink {
  key: string;
  label: string;
  href: string;
}

/**
 * What `GET /` points at, as absolute URLs under `{base_url}` (TESSERA_PUBLIC_URL; never built
 * from the request's Host). Only paths the gateway serves are listed.
 */
export function landingLinks(publicUrl: string): LandingLink[] {
  return [
    { key: "adminConsole", label: "Admin console", href: `${publicUrl}/admin/console` },
    { key: "adminApi", label: "Admin API (X-Admin-API-Key or a bearer token from /admin/auth/login)", href: `${publicUrl}/admin/realms` },
    { key: "apiReference", label: "API reference (OpenAPI 3.1)", href: `${publicUrl}/admin/docs` },
    { key: "openapi", label: "OpenAPI document", href: `${publicUrl}/admin/openapi.json` },
    { key: "adminLogin", label: "Admin login", href: `${publicUrl}/admin/auth/login` },
    { key: "health", label: "Liveness", href: `${publicUrl}/health` },
    { key: "ready", label: "Readiness of every service", href: `${publicUrl}/health/ready` },
    { key: "metrics", label: "Prometheus metrics", href: `${publicUrl}/metrics` },
  ];
}

/**
 * The front page, public: what is running and where to go next. A browser gets a small HTML page
 * (the hosted pages' renderer, escaping and CSP); `Accept: application/json` gets
 * `{ name, version, links }` for scripts and probes.
 */
export function addLandingRoutes(table: RouteTable, publicUrl: string): void {
  const version = packageVersion();
  const links = landingLinks(publicUrl);
  table.add("GET", "/", "public", async (req: Request, res: Response) => {
    res.setHeader("Vary", "Accept");
    if (req.accepts(["html", "json"]) === "json") {
      return { status: 200, body: { name: "tessera", version, links: Object.fromEntries(links.map((l) => [l.key, l.href])) } };
    }
    await renderPage(res, 200, "landing.njk", {
      title: "Tessera", pageTitle: `Tessera ${version}`, theme: resolveTheme("tessera", {}), version, links,
    });
    return undefined;
  });
}
