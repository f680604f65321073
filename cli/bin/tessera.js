#!/usr/bin/env node
// What npm links as `tessera` (node_modules/.bin): the CLI is compiled with the rest of the
// repository into dist/ by `npm run build`.
import { existsSync } from "node:fs";

const main = new URL("../../dist/cli/src/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("tessera: the CLI is not built yet; run `npm run build` first\n");
  process.exit(2);
}
await import(main.href);
