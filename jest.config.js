// Jest runs the compiled ESM output (npm test builds first), so no transform is involved and the
// tests exercise exactly the JavaScript that `npm start` runs.
/** @type {import('jest').Config} */
export default {
  rootDir: "dist",
  testEnvironment: "node",
  transform: {},
  testMatch: ["**/*.test.js"],
  // A test's own limit, not a speed goal (those are benchmarks): the cluster tier runs eight
  // processes and argon2 on two cores beside the other worker's tests, where a login that takes
  // 2 s alone can take 20.
  testTimeout: 60000,
  maxWorkers: 2,
  globalSetup: "<rootDir>/test/e2e/support/global-setup.js",
  globalTeardown: "<rootDir>/test/e2e/support/global-teardown.js",
  reporters: ["default", "<rootDir>/../test/summary-reporter.cjs"],
};
