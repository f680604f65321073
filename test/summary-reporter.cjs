// Closes the run with the tiers that did not run, then one plain line CI reads, always last:
// "tests: N passed, N failed, N skipped". A skipped tier is a describe block whose title carries
// the mark of test/support/tier.ts ("[tier skipped: <reason>]"); its tests are pending.
// `npm test` runs in two phases (scripts/run-tests.mjs): the first writes its counts and skipped
// tiers to TESSERA_TEST_SUMMARY_OUT and prints them as its phase's line; the second reads them
// from TESSERA_TEST_SUMMARY_IN and closes with the counts of both.
const fs = require("node:fs");

const TIER_SKIPPED_MARK = "[tier skipped:";

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const tiers = new Map(); // "<tier> [tier skipped: reason]" -> { tests, where }
    const counts = { passed: results.numPassedTests, failed: results.numFailedTests, skipped: results.numPendingTests + results.numTodoTests };
    const carried = readCarried(process.env.TESSERA_TEST_SUMMARY_IN);
    if (carried) {
      for (const k of Object.keys(counts)) counts[k] += carried.counts[k];
      for (const [title, entry] of carried.tiers) tiers.set(title, entry);
    }
    const files = new Map();
    for (const file of results.testResults) {
      for (const t of file.testResults) {
        if (t.status !== "pending") continue;
        const title = t.ancestorTitles.find((a) => a.includes(TIER_SKIPPED_MARK));
        if (!title) continue;
        const entry = files.get(title) ?? { tests: 0, files: new Set() };
        entry.tests += 1;
        entry.files.add(file.testFilePath);
        files.set(title, entry);
      }
    }
    for (const [title, { tests, files: in_ }] of files) {
      const prior = tiers.get(title);
      tiers.set(title, { tests: tests + (prior?.tests ?? 0), where: in_.size === 1 && !prior ? relative([...in_][0]) : `${in_.size + (prior ? 1 : 0)} files` });
    }
    const out = process.env.TESSERA_TEST_SUMMARY_OUT;
    if (out) {
      fs.writeFileSync(out, JSON.stringify({ counts, tiers: [...tiers] }));
      process.stdout.write(`\nfirst phase: ${line(counts)} (the second phase closes with the count of both)\n`);
      return;
    }
    const lines = [];
    if (tiers.size > 0) {
      lines.push("", `tiers not run (${tiers.size}; their tests are counted as skipped):`);
      for (const [title, { tests, where }] of [...tiers].sort(([a], [b]) => a.localeCompare(b))) {
        lines.push(`  ${title}: ${tests} test${tests === 1 ? "" : "s"} in ${where}`);
      }
    }
    lines.push("", `tests: ${line(counts)}`);
    process.stdout.write(lines.join("\n") + "\n");
  }
}

function line({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}

/** The first phase's counts; a first phase that wrote none (it crashed) leaves the second's alone. */
function readCarried(path) {
  if (!path) return undefined;
  try {
    return JSON.parse(fs.readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

function relative(path) {
  const cwd = process.cwd() + "/";
  return path.startsWith(cwd) ? path.slice(cwd.length) : path;
}

module.exports = SummaryReporter;
