// Closes the run with the tiers that did not run, then one plain line CI reads, always last:
// "tests: N passed, N failed, N skipped". A skipped tier is a describe block whose title carries
// the mark of test/support/tier.ts ("[tier skipped: <reason>]"); its tests are pending.
const TIER_SKIPPED_MARK = "[tier skipped:";

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const tiers = new Map(); // "<tier> [tier skipped: reason]" -> { tests, files }
    for (const file of results.testResults) {
      for (const t of file.testResults) {
        if (t.status !== "pending") continue;
        const title = t.ancestorTitles.find((a) => a.includes(TIER_SKIPPED_MARK));
        if (!title) continue;
        const entry = tiers.get(title) ?? { tests: 0, files: new Set() };
        entry.tests += 1;
        entry.files.add(file.testFilePath);
        tiers.set(title, entry);
      }
    }
    const lines = [];
    if (tiers.size > 0) {
      lines.push("", `tiers not run (${tiers.size}; their tests are counted as skipped):`);
      for (const [title, { tests, files }] of [...tiers].sort(([a], [b]) => a.localeCompare(b))) {
        const where = files.size === 1 ? relative([...files][0]) : `${files.size} files`;
        lines.push(`  ${title}: ${tests} test${tests === 1 ? "" : "s"} in ${where}`);
      }
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    lines.push("", `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`);
    process.stdout.write(lines.join("\n") + "\n");
  }
}

function relative(path) {
  const cwd = process.cwd() + "/";
  return path.startsWith(cwd) ? path.slice(cwd.length) : path;
}

module.exports = SummaryReporter;
