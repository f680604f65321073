// Regenerates the TypeScript Admin REST client's generated files (sdk/typescript) from the built
// gateway's OpenAPI document. Run through `npm run generate:sdk`, which builds first.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { renderSdkFiles } = await import(join(root, "dist/gateway/src/openapi/typescript-sdk.js"));
for (const [path, content] of Object.entries(await renderSdkFiles())) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
  console.log(`wrote ${path}`);
}
