/**
 * A passAt / passHat case against a baseline: its verdict (estimate ≥ min) compares as any case's,
 * and its estimate like the mean score, by more than epsilon, when both sides have the same one.
 */
import { describe, expect, it } from 'vitest';
import { compareRuns, type CompareOptions } from '../../src/stats/compare-runs.js';
import { fisherDropP } from '../../src/stats/fisher.js';
import { passAtK } from '../../src/stats/pass-at-k.js';
import { comparableCase } from '../support/comparable-case.js';

// A score drop of 0.3 (5/10 → 2/10) is inside this epsilon; the pass@3 drop (0.917 → 0.533) is not.
const OPTS: CompareOptions = { baseline: 'main', epsilon: 0.35, maxRegressions: 0 };

const atK = (passed: number, k = 3) => comparableCase('a', passed, 10, { verdict: 'passed', reducer: { kind: 'passAt', k, min: 0.5, trials: 10, estimate: passAtK(10, passed, k) } });

describe('comparing a pass@k case', () => {
  it('pass@3 0.917 → 0.533 (5/10 → 2/10, both passing) is a counted regression with the Fisher p of the pass counts', () => {
    const c = compareRuns([atK(5)], [atK(2)], OPTS);
    expect(c.cases[0]).toMatchObject({ kind: 'regressed', counted: true, reason: 'pass@3 0.917 → 0.533', head: { estimate: { name: 'pass@3' } } });
    expect(c.cases[0]!.head!.estimate!.value).toBeCloseTo(1 - 56 / 120, 12);
    expect(c.cases[0]!.pValue).toBeCloseTo(fisherDropP(5, 10, 2, 10), 12);
    expect(c.failed).toBe(true);
  });

  it('the rise back is an improvement', () => {
    expect(compareRuns([atK(2)], [atK(5)], OPTS).cases[0]).toMatchObject({ kind: 'improved', reason: 'pass@3 0.533 → 0.917' });
  });

  it('a case whose verdict fell (passed → failed) regresses on its verdict, estimate or not', () => {
    const head = { ...atK(2), verdict: 'failed' as const };
    expect(compareRuns([atK(2)], [head], OPTS).cases[0]).toMatchObject({ kind: 'regressed', reason: 'verdict passed → failed' });
  });

  it('the estimate replaces the score: 10/10 → 8/10 (score −0.2) is pass@3 1 → 1, unchanged; 3/10 → 2/10 (score −0.1) is pass@3 0.708 → 0.533, regressed', () => {
    const opts = { ...OPTS, epsilon: 0.15 };
    expect(compareRuns([atK(10)], [atK(8)], opts).cases).toEqual([]);
    expect(compareRuns([atK(10)], [atK(8)], opts).counts.unchanged).toBe(1);
    expect(compareRuns([atK(3)], [atK(2)], opts).cases[0]).toMatchObject({ kind: 'regressed', reason: 'pass@3 0.708 → 0.533' });
  });

  it('another k on one side is another quantity: only verdict and score compare', () => {
    expect(compareRuns([atK(5, 2)], [atK(2)], OPTS).counts.unchanged).toBe(1);
  });
});
