/**
 * Test tiers that need a real server or tool the environment names (DESIGN 6, tier 4). A tier
 * whose variables are missing is reported as skipped, never as passed: its tests are registered
 * under `describe.skip`, with the reason in the title, so jest counts them as skipped and the
 * summary reporter names the tier. With `TESSERA_REQUIRE_ALL_TIERS=1` (set by `.ci/run`, which
 * provides every tier) a missing variable fails the run instead.
 */
export function missingVariables(required: readonly string[]): string[] {
  return required.filter((name) => !process.env[name]);
}

export const TIER_SKIPPED_MARK = "[tier skipped:";

/**
 * Runs `body` as a describe block when every variable in `required` is set; otherwise registers
 * it skipped (or failing, when every tier is required).
 */
export function describeTier(title: string, required: readonly string[], body: () => void): void {
  const missing = missingVariables(required);
  if (missing.length === 0) {
    describe(title, body);
    return;
  }
  const reason = `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set`;
  if (process.env.TESSERA_REQUIRE_ALL_TIERS === "1") {
    describe(title, () => {
      it(`runs (TESSERA_REQUIRE_ALL_TIERS=1), but ${reason}`, () => {
        throw new Error(`${title}: this tier is required here, but ${reason}`);
      });
    });
    return;
  }
  describe.skip(`${title} ${TIER_SKIPPED_MARK} ${reason}]`, () => {
    // jest still runs a skipped block's body to collect its tests (so they are counted as
    // skipped), and a body may read the tier's missing variables as it registers them (a URL
    // parsed, a proto loaded). What it registered before such a throw is counted; should that be
    // nothing, one placeholder keeps the tier in the count and in the summary.
    let registered = true;
    try {
      body();
    } catch {
      registered = false;
    }
    if (!registered) it(`its tests (they need ${required.join(" and ")} to be collected)`, () => undefined);
  });
}
