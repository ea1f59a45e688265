import { describe, expect, it } from 'vitest';
import { fisherDropP, fisherRiseP } from '../../src/stats/fisher.js';

/** n! by plain multiplication (small n only): the test's own arithmetic, not the module's logarithms. */
const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));
const choose = (n: number, k: number): number => factorial(n) / (factorial(k) * factorial(n - k));

describe('one-sided Fisher exact test of a pass-rate drop', () => {
  it('5/5 → 2/5: the head run holds 2 of the 7 passes, the fewest possible, p = C(7,2)·C(3,3)/C(10,5) = 21/252', () => {
    // Margins: 10 trials, 7 passes, 5 in the head run. The head run holds at least 7 − 5 = 2 passes,
    // so "2 or fewer" is exactly the table seen.
    expect(choose(7, 2)).toBe(21);
    expect(choose(3, 3)).toBe(1);
    expect(choose(10, 5)).toBe(252);
    const byHand = (21 * 1) / 252;
    expect(byHand).toBeCloseTo(0.0833, 4);
    expect(fisherDropP(5, 5, 2, 5)).toBeCloseTo(byHand, 12);
  });

  it('4/5 → 1/5 sums the tail: P(X=0)+P(X=1) with 5 passes in 10 trials', () => {
    // X = passes in the head run; 5 passes, 5 fails in all; X can be 0..5.
    const byHand = (choose(5, 0) * choose(5, 5) + choose(5, 1) * choose(5, 4)) / choose(10, 5);
    expect(byHand).toBeCloseTo(26 / 252, 12);
    expect(fisherDropP(4, 5, 1, 5)).toBeCloseTo(byHand, 12);
  });

  it('unequal trial counts: 10/10 → 3/6', () => {
    // 13 passes, 3 fails, 16 trials; the head run draws 6. X ≥ 13 − 10 = 3.
    const byHand = (choose(13, 3) * choose(3, 3)) / choose(16, 6);
    expect(fisherDropP(10, 10, 3, 6)).toBeCloseTo(byHand, 12);
  });

  it('no drop gives p = 1; the same rates give a p well above any alpha', () => {
    expect(fisherDropP(5, 5, 5, 5)).toBeCloseTo(1, 12);
    expect(fisherDropP(2, 5, 5, 5)).toBeCloseTo(1, 12);
    expect(fisherDropP(3, 5, 3, 5)).toBeGreaterThan(0.5);
  });

  it('with fewer than 3 trials a side no drop reaches 0.05; 3/3 → 0/3 is exactly 1/20', () => {
    expect(fisherDropP(1, 1, 0, 1)).toBeCloseTo(0.5, 12);
    expect(fisherDropP(2, 2, 0, 2)).toBeCloseTo(1 / choose(4, 2), 12);
    expect(fisherDropP(3, 3, 0, 3)).toBeCloseTo(1 / choose(6, 3), 12);
  });

  it('large counts stay finite and agree with the symmetric rise test', () => {
    const p = fisherDropP(480, 500, 400, 500);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-10);
    expect(fisherRiseP(2, 5, 5, 5)).toBeCloseTo(fisherDropP(5, 5, 2, 5), 12);
  });

  it('rejects counts that are not pass counts', () => {
    expect(() => fisherDropP(6, 5, 0, 5)).toThrow(RangeError);
    expect(() => fisherDropP(1.5, 5, 0, 5)).toThrow(RangeError);
  });
});
