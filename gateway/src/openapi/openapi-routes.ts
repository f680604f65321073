import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Response } from "express";
import type { RouteTable } from "../http/route-table.js";
import { lazyImport } from "../../../services/kit/src/runtime/lazy-import.js";

// The document's operation tables and schemas (a dozen modules) are built for its first request,
// not at start (faster cold start).
const documentModule = lazyImport(() => import("./document.js"));

/**
 * The reference page's own policy: scripts only from the gateway (no inline script, no eval: the
 * Scalar bundle needs neither), no request but to the gateway (the document), nothing framed.
 * Scalar sets element styles at run time, so styles allow 'unsafe-inline'; style cannot run script.
 */
export const DOCS_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
  "font-src 'self' data:", "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join("; ");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tessera API reference</title>
</head>
<body>
<div id="app"></div>
<script src="docs/scalar.js"></script>
<script src="docs/start.js"></script>
</body>
</html>
`;

// Relative to /admin/docs, so the page works under any path prefix a proxy adds in front of /admin.
const START = `Scalar.createApiReference("#app", {
  url: "openapi.json",
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  showDeveloperTools: "never",
  // Nothing that calls out to Scalar's services (the CSP's connect-src would refuse it anyway).
  agent: { disabled: true },
  mcp: { disabled: true },
});
`;

let scalar: Buffer | undefined;
/** The document does not change while the process runs: serialized once. */
let documentJson: string | undefined;

/**
 * Scalar's standalone bundle (no CDN), which the consoles' build copies beside them
 * (console/vite.config.mjs): Scalar is a build-time dependency, not in the production image.
 */
function scalarBundle(): Buffer {
  scalar ??= readFileSync(fileURLToPath(new URL("../../../console/vendor/scalar-standalone.js", import.meta.url)));
  return scalar;
}

/**
 * The OpenAPI document and its rendered reference (spec 1.13). Public, as documentation is: the
 * document describes paths and shapes, never a secret or a realm's data.
 */
export function addOpenApiRoutes(table: RouteTable): void {
  const send = (res: Response, type: string, body: string | Buffer, cache: string) => {
    res.status(200).type(type).setHeader("Cache-Control", cache);
    res.send(body);
  };
  table
    .add("GET", "/admin/openapi.json", "public", async (_req, res) => {
      res.setHeader("Access-Control-Allow-Origin", "*");
      documentJson ??= JSON.stringify((await documentModule()).openApiDocument());
      send(res, "application/json", documentJson, "no-cache");
    })
    .add("GET", "/admin/docs", "public", async (_req, res) => {
      res.setHeader("Content-Security-Policy", DOCS_CSP);
      res.setHeader("X-Frame-Options", "DENY");
      res.setHeader("Referrer-Policy", "no-referrer");
      send(res, "text/html; charset=utf-8", PAGE, "no-cache");
    })
    .add("GET", "/admin/docs/scalar.js", "public", async (_req, res) => {
      send(res, "text/javascript; charset=utf-8", scalarBundle(), "public, max-age=3600");
    })
    .add("GET", "/admin/docs/start.js", "public", async (_req, res) => {
      send(res, "text/javascript; charset=utf-8", START, "no-cache");
    });
}
