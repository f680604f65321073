// Jest runs the compiled ESM output (npm test builds first), so no transform is involved and the
// tests exercise exactly the JavaScript that `npm start` runs.
/** @type {import('jest').Config} */
export default {
  rootDir: "dist",
  testEnvironment: "node",
  transform: {},
  testMatch: ["**/*.test.js"],
  testTimeout: 30000,
  maxWorkers: 2,
  globalSetup: "<rootDir>/test/e2e/support/global-setup.js",
  globalTeardown: "<rootDir>/test/e2e/support/global-teardown.js",
  reporters: ["default", "<rootDir>/../test/summary-reporter.cjs"],
};
