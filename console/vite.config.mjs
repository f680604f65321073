// The consoles' build (docs/admin-console.md): one multi-page Vite build, Preact with the automatic
// JSX runtime, into dist/console/ beside the compiled gateway that serves it. Every asset is a file
// under /resources/console/assets/ (no inline script or style: the consoles' CSP forbids both).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = fileURLToPath(new URL(".", import.meta.url));

/**
 * The API reference page's renderer (/admin/docs, gateway/src/openapi/openapi-routes.ts): Scalar's
 * standalone bundle, copied into the build as a file. Scalar is a build-time dependency only: its
 * package pulls Vue and TypeScript, which the production image must not carry. The package
 * exports no path to the bundle, so it is found beside its entry point.
 */
const scalarBundle = {
  name: "tessera-scalar-bundle",
  generateBundle() {
    const entry = createRequire(import.meta.url).resolve("@scalar/api-reference");
    this.emitFile({ type: "asset", fileName: "vendor/scalar-standalone.js", source: readFileSync(join(dirname(entry), "browser", "standalone.js")) });
  },
};

export default defineConfig({
  root: here,
  base: "/resources/console/",
  publicDir: false,
  plugins: [scalarBundle],
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("../dist/console", import.meta.url)),
    emptyOutDir: true,
    // Chromium, Firefox and Safari of the last years; no legacy polyfills.
    target: "es2022",
    // Never inlined as data: URLs, which the CSP's img-src/font-src would have to admit.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: true,
    rollupOptions: { input: { admin: `${here}admin.html`, account: `${here}account.html` } },
  },
});
