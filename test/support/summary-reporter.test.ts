import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../e2e/support/process-runner.js";
import { TIER_SKIPPED_MARK } from "./tier.js";

const require = createRequire(import.meta.url);
type Reporter = { onRunComplete(contexts: unknown, results: unknown): void };
const SummaryReporter = require(`${ROOT}/test/summary-reporter.cjs`) as new () => Reporter;

function printed(results: unknown): string {
  const write = process.stdout.write;
  let out = "";
  process.stdout.write = ((chunk: string) => { out += chunk; return true; }) as typeof process.stdout.write;
  try {
    new SummaryReporter().onRunComplete(new Set(), results);
  } finally {
    process.stdout.write = write;
  }
  return out;
}

const test = (status: string, ...ancestorTitles: string[]) => ({ status, ancestorTitles });

// The closing summary CI and a reader see: tiers that did not run are named, never counted as passed.
describe("summary reporter", () => {
  // `npm test`'s first phase runs this file with TESSERA_TEST_SUMMARY_OUT set for the real reporter.
  const saved = { out: process.env.TESSERA_TEST_SUMMARY_OUT, in: process.env.TESSERA_TEST_SUMMARY_IN };
  beforeEach(() => {
    delete process.env.TESSERA_TEST_SUMMARY_OUT;
    delete process.env.TESSERA_TEST_SUMMARY_IN;
  });
  afterAll(() => {
    if (saved.out !== undefined) process.env.TESSERA_TEST_SUMMARY_OUT = saved.out;
    if (saved.in !== undefined) process.env.TESSERA_TEST_SUMMARY_IN = saved.in;
  });

  it("names every skipped tier with its reason before the last line, which stays the counts", () => {
    const browser = `browser tier ${TIER_SKIPPED_MARK} CHROMIUM_PATH is not set]`;
    const cluster = `cluster tier ${TIER_SKIPPED_MARK} TESSERA_TEST_MONGODB_URI and TESSERA_TEST_NATS_URL are not set]`;
    const out = printed({
      numPassedTests: 3, numFailedTests: 1, numPendingTests: 4, numTodoTests: 0,
      testResults: [
        { testFilePath: `${process.cwd()}/dist/a.test.js`, testResults: [test("pending", browser, "login"), test("pending", browser, "login"), test("passed", "other")] },
        { testFilePath: `${process.cwd()}/dist/b.test.js`, testResults: [test("pending", cluster), test("failed", "x"), test("pending", "plain it.skip")] },
        { testFilePath: `${process.cwd()}/dist/c.test.js`, testResults: [test("pending", "outer", cluster)] },
      ],
    });
    expect(out.split("\n")).toEqual([
      "",
      "tiers not run (2; their tests are counted as skipped):",
      `  ${browser}: 2 tests in dist/a.test.js`,
      `  ${cluster}: 2 tests in 2 files`,
      "",
      "tests: 3 passed, 1 failed, 4 skipped",
      "",
    ]);
  });

  it("prints only the counts when every tier ran", () => {
    expect(printed({ numPassedTests: 5, numFailedTests: 0, numPendingTests: 0, numTodoTests: 1, testResults: [] }))
      .toBe("\ntests: 5 passed, 0 failed, 1 skipped\n");
  });

  it("closes a two-phase run (scripts/run-tests.mjs) with both phases' counts and skipped tiers", () => {
    const dir = mkdtempSync(join(tmpdir(), "summary-"));
    const carry = join(dir, "first.json");
    const ldap = `ldap tier ${TIER_SKIPPED_MARK} slapd is not installed]`;
    try {
      process.env.TESSERA_TEST_SUMMARY_OUT = carry;
      const first = printed({
        numPassedTests: 7, numFailedTests: 1, numPendingTests: 2, numTodoTests: 0,
        testResults: [{ testFilePath: `${process.cwd()}/dist/l.test.js`, testResults: [test("pending", ldap), test("pending", ldap)] }],
      });
      expect(first).toBe("\nfirst phase: 7 passed, 1 failed, 2 skipped (the second phase closes with the count of both)\n");
      delete process.env.TESSERA_TEST_SUMMARY_OUT;
      process.env.TESSERA_TEST_SUMMARY_IN = carry;
      const second = printed({ numPassedTests: 2, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, testResults: [] });
      expect(second.split("\n")).toEqual([
        "",
        "tiers not run (1; their tests are counted as skipped):",
        `  ${ldap}: 2 tests in dist/l.test.js`,
        "",
        "tests: 9 passed, 1 failed, 2 skipped",
        "",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
