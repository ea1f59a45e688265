import { describe, expect, it } from 'vitest';
import { fleissKappa } from '../../src/stats/fleiss.js';

describe("Fleiss' κ", () => {
  it('matches a hand-computed example: 4 items, 3 raters, pass/fail', () => {
    // Items as [pass, fail] counts: [3,0] [2,1] [0,3] [1,2].
    // P_i = Σ n_ij(n_ij − 1) / (3·2): 6/6 = 1, 2/6 = 1/3, 1, 1/3  →  P̄ = (8/3) / 4 = 2/3.
    // p_pass = (3+2+0+1) / 12 = 1/2, p_fail = 1/2  →  P_e = 1/4 + 1/4 = 1/2.
    // κ = (2/3 − 1/2) / (1 − 1/2) = (1/6) / (1/2) = 1/3.
    expect(
      fleissKappa([
        [3, 0],
        [2, 1],
        [0, 3],
        [1, 2],
      ]),
    ).toBeCloseTo(1 / 3, 12);
  });

  it("matches Fleiss's textbook table: 10 items, 14 raters, 5 categories, κ ≈ 0.210", () => {
    // Column totals 20, 28, 39, 21, 32 of 140: p_j = .143, .200, .279, .150, .229, so P_e = Σ p_j² = .2128.
    // Row by row, P_i = Σ n_ij(n_ij − 1) / (14·13): 1.000, .253, .308, .440, .330, .462, .242, .176, .286, .286,
    // so P̄ = 3.780 / 10 = .3780 and κ = (.3780 − .2128) / (1 − .2128) = .2099.
    const table = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    expect(fleissKappa(table)).toBeCloseTo(0.2099, 3);
  });

  it('perfect agreement with both categories used is 1; one category throughout is undefined (null)', () => {
    expect(
      fleissKappa([
        [3, 0],
        [0, 3],
      ]),
    ).toBe(1);
    expect(
      fleissKappa([
        [3, 0],
        [3, 0],
      ]),
    ).toBeNull();
    expect(fleissKappa([])).toBeNull();
  });

  it('refuses items rated by different numbers of raters', () => {
    expect(() =>
      fleissKappa([
        [3, 0],
        [1, 1],
      ]),
    ).toThrow(/same raters/);
  });
});
