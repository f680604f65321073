// The consoles' build (docs/admin-console.md): one multi-page Vite build, Preact with the automatic
// JSX runtime, into dist/console/ beside the compiled gateway that serves it. Every asset is a file
// under /resources/console/assets/ (no inline script or style: the consoles' CSP forbids both).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root: here,
  base: "/resources/console/",
  publicDir: false,
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
    rollupOptions: { input: { admin: `${here}admin.html` } },
  },
});
