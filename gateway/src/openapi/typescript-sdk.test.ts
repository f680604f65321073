import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderSdkFiles } from "./typescript-sdk.js";

/**
 * The checked-in TypeScript client is what the generator writes from the current document, so a
 * change to a route's shapes cannot land without its client (`npm run generate:sdk` updates it).
 */
describe("the generated TypeScript Admin REST client", () => {
  it("is current: every generated file equals what npm run generate:sdk writes", async () => {
    const files = await renderSdkFiles();
    expect(Object.keys(files).sort()).toEqual(["sdk/typescript/openapi.json", "sdk/typescript/src/schema.ts"]);
    for (const [path, content] of Object.entries(files)) {
      const onDisk = readFileSync(join(process.cwd(), path), "utf8");
      if (onDisk !== content) throw new Error(`${path} is not current: run npm run generate:sdk and commit the result`);
    }
  }, 60_000);
});
