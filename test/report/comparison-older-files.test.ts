import { describe, expect, it } from 'vitest';
import { ComparisonSchema } from '../../src/core/results-schema.js';
import { comparisonHeadline } from '../../src/report/comparison-lines.js';
import { compareRuns } from '../../src/stats/compare-runs.js';
import { comparableCase } from '../support/comparable-case.js';

/** A comparison as a results file written before `judge-changed` and `cannot-rejudge` existed holds it. */
function olderComparison(): unknown {
  const c = compareRuns([comparableCase('drops', 5, 5)], [comparableCase('drops', 2, 5)], { baseline: 'main', epsilon: 0.05, maxRegressions: 0 });
  const { 'judge-changed': _j, 'cannot-rejudge': _c, ...counts } = c.counts;
  return { ...c, counts };
}

describe('a comparison written before the newer change kinds', () => {
  it('still loads, and its headline reads the missing kinds as none', () => {
    const parsed = ComparisonSchema.safeParse(olderComparison());
    expect(parsed.success).toBe(true);
    const line = comparisonHeadline(parsed.data!);
    expect(line).toBe('1 regressed (1 counted, max 0), 0 improved, 0 unchanged');
    expect(line).not.toMatch(/NaN|undefined/);
  });
});
