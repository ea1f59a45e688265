import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A hang guard, not a speed bound: on two cores with two CPU-bound processes beside the suite, a
    // CLI-spawning test that takes 5 s alone took over 20 s; 60 s still ends a real hang.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: a third worker keeps them busy while e2e tests wait on the CLIs they spawn.
    maxWorkers: 3,
    // Test files share a worker's module cache: loading src/ once per worker instead of once per file
    // halves the suite's CPU. Tests restore what they change (env stubs, fake timers, fault guards), and
    // the suite passes with its files shuffled (`npx vitest run --sequence.shuffle.files`).
    isolate: false,
    // The second reporter adds a plain `tests: N passed, N failed` closing line for CI.
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
