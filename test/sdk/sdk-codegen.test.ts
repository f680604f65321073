import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ROOT } from "../e2e/support/process-runner.js";
import { runProgram } from "../interop/support/run-program.js";
import { describeTier } from "../support/tier.js";

/**
 * The gRPC SDKs' generated code is checked in (sdk/, docs/sdks.md); this proves it is what
 * scripts/generate-sdks.sh makes from today's proto/ with the pinned generators, so a proto
 * changed without `npm run generate:sdks` fails here, naming the files that differ.
 */
const GENERATED = ["sdk/typescript-grpc/src/gen", "sdk/go/gen", "sdk/python/src/tessera_grpc/iam"];

function tree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      // Python's byte-code caches appear wherever the package was imported; they are not code.
      if (entry.name === "__pycache__") continue;
      if (entry.isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return files;
}

describeTier("SDK codegen tier", ["TESSERA_TEST_SDK_GO", "TESSERA_TEST_SDK_PYTHON"], () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), "tessera-sdk-check-"));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("regenerates exactly the checked-in code of the TypeScript, Go and Python SDKs", async () => {
    const result = await runProgram("bash", [join(ROOT, "scripts/generate-sdks.sh"), "--out", out], {
      cwd: ROOT, logName: "sdk-codegen", timeoutMs: 240_000,
      env: { GO: process.env.TESSERA_TEST_SDK_GO as string, TESSERA_SDK_PYTHON: process.env.TESSERA_TEST_SDK_PYTHON as string },
    });
    if (result.code !== 0) throw new Error(`scripts/generate-sdks.sh exited ${result.code}\n${result.output}`);

    const differences: string[] = [];
    for (const dir of GENERATED) {
      const fresh = tree(join(out, dir));
      const checkedIn = tree(join(ROOT, dir));
      expect(fresh.size).toBeGreaterThan(0);
      for (const [file, content] of fresh) {
        const old = checkedIn.get(file);
        if (!old) differences.push(`missing: ${dir}/${file}`);
        else if (!old.equals(content)) differences.push(`stale:   ${dir}/${file}`);
      }
      for (const file of checkedIn.keys()) if (!fresh.has(file)) differences.push(`extra:   ${dir}/${file}`);
    }
    if (differences.length > 0) {
      throw new Error(`the checked-in SDK code is not what proto/ generates; run \`npm run generate:sdks\` and commit:\n${differences.join("\n")}`);
    }
  }, 300_000);
});
