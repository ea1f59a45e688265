import { describe, expect, it } from 'vitest';
import { rankSumHigherP, rankSumLowerP } from '../../src/stats/rank-sum.js';

describe('rank-sum test of a score drop', () => {
  it('exact for small samples: head wholly below base is 1 of C(n, k) splits', () => {
    // 5 vs 5, every head score below every base score: 1 of the C(10,5) = 252 splits ranks head this low.
    expect(rankSumLowerP([1, 1, 1, 1, 1], [0.75, 0.75, 0.75, 0.75, 0.75])).toBeCloseTo(1 / 252, 12);
    // 3 vs 3: 1 of C(6,3) = 20.
    expect(rankSumLowerP([4, 5, 6], [1, 2, 3])).toBeCloseTo(1 / 20, 12);
    // Head above base: no drop at all.
    expect(rankSumLowerP([1, 2, 3], [4, 5, 6])).toBe(1);
    expect(rankSumHigherP([1, 2, 3], [4, 5, 6])).toBeCloseTo(1 / 20, 12);
  });

  it('ties take their mean rank, and the exact law keeps them', () => {
    // Pooled [1, 1, 0, 1]: 0 ranks 1, the three 1s share rank 3. Head {0, 1} sums 4; of the 6 pairs of
    // ranks {1, 3, 3, 3}, the 3 holding rank 1 sum 4 and the 3 others 6: P(sum ≤ 4) = 1/2.
    expect(rankSumLowerP([1, 1], [0, 1])).toBeCloseTo(0.5, 12);
    // Every score equal: nothing moved.
    expect(rankSumLowerP([0.8, 0.8, 0.8], [0.8, 0.8, 0.8])).toBe(1);
  });

  it('large samples: the normal law, near what the exact law gives for the same shift', () => {
    const base = Array.from({ length: 20 }, (_, i) => i / 20);
    const head = base.map((s) => s - 0.2);
    const exact = rankSumLowerP(base, head); // 40 pooled: exact
    const normal = rankSumLowerP([...base, 0.5], [...head, 0.3]); // 42 pooled: normal
    expect(exact).toBeGreaterThan(0.01);
    expect(exact).toBeLessThan(0.05);
    expect(Math.abs(normal - exact)).toBeLessThan(0.01);
    // A wholesale drop over many trials is far from chance; no drop is near a coin toss.
    const many = Array.from({ length: 50 }, (_, i) => 0.5 + i / 100);
    expect(
      rankSumLowerP(
        many,
        many.map((s) => s - 0.5),
      ),
    ).toBeLessThan(1e-9);
    expect(rankSumLowerP(many, many)).toBeGreaterThan(0.45);
  });
});
