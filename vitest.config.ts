import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // CLI tests spawn the built CLI; two cores, so keep workers modest.
    maxWorkers: 2,
    // The second reporter adds a plain `tests: N passed, N failed` closing line for CI.
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
