#!/usr/bin/env node
// `npm test` after the build: the whole suite in two phases, then one closing count.
//
// The fault tier (cluster-faults) runs ten server processes under a steady load and measures how
// long requests wait and how soon the cluster recovers; beside the rest of the suite on a 2-core
// machine it both starves the shared cluster's tests and measures the machine's load instead of
// Tessera. So everything else runs first (two workers), then the files that need the machine to
// themselves, one at a time. The summary reporter of the first phase hands its counts to the
// second (TESSERA_TEST_SUMMARY_OUT / _IN), whose last line counts both: "tests: N passed, ...".
//
// With arguments (`npm test -- dist/test/e2e/realms`) it is plain jest with those arguments.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Files that run after the rest, alone. */
const ALONE = ["dist/test/e2e/cluster-faults.e2e.test.js"];

const jest = ["--experimental-vm-modules", "node_modules/jest/bin/jest.js"];
const run = (args, env) => spawnSync(process.execPath, [...jest, ...args], { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1;

const extra = process.argv.slice(2);
if (extra.length > 0) process.exit(run(extra, {}));

const dir = mkdtempSync(join(tmpdir(), "tessera-test-summary-"));
const carry = join(dir, "first-phase.json");
try {
  const ignore = ALONE.map((f) => `/${f.replace(/[.]/g, "\\.")}$`);
  const first = run(["--testPathIgnorePatterns", ...ignore], { TESSERA_TEST_SUMMARY_OUT: carry });
  // The files run alone need no shared cluster (they start their own servers).
  const second = run(["--maxWorkers=1", ...ALONE], { TESSERA_TEST_SUMMARY_IN: carry, TESSERA_TEST_NO_SHARED_CLUSTER: "1" });
  process.exitCode = first !== 0 ? first : second;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
