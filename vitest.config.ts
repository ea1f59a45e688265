import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // CLI tests spawn the built CLI; two cores, so keep workers modest.
    maxWorkers: 2,
  },
});
