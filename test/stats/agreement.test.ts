/**
 * The agreement statistics against values worked out by hand (in the comments) for small tables,
 * including a κ of exactly 0 and of exactly 1, ties in Spearman's ranks, and undefined cases (null).
 */
import { describe, expect, it } from 'vitest';
import {
  accuracy,
  agreementWithin,
  averageRanks,
  bestThresholdByKappa,
  cohensKappa,
  confusionMatrix,
  meanAbsoluteError,
  spearman,
  trueNegativeRate,
  truePositiveRate,
  type VerdictPair,
} from '../../src/stats/agreement.js';

const P = true;
const F = false;
const pairs = (judge: boolean[], human: boolean[]): VerdictPair[] => judge.map((j, i) => ({ judge: j, human: human[i]! }));
/** n copies of one pair. */
const times = (n: number, judge: boolean, human: boolean): VerdictPair[] => Array.from({ length: n }, () => ({ judge, human }));

describe('verdict agreement', () => {
  it('perfect agreement with both classes present: κ = 1', () => {
    const m = confusionMatrix(pairs([P, P, F, F], [P, P, F, F]));
    expect(m).toEqual({ truePositive: 2, falsePositive: 0, falseNegative: 0, trueNegative: 2 });
    expect(cohensKappa(m)).toBe(1);
    expect(accuracy(m)).toBe(1);
    expect(truePositiveRate(m)).toBe(1);
    expect(trueNegativeRate(m)).toBe(1);
  });

  it('agreement no better than chance: κ = 0 though half the verdicts agree', () => {
    // p_o = 2/4; both pass half: p_e = .5·.5 + .5·.5 = .5; κ = 0.
    const m = confusionMatrix(pairs([P, F, P, F], [P, P, F, F]));
    expect(m).toEqual({ truePositive: 1, falsePositive: 1, falseNegative: 1, trueNegative: 1 });
    expect(cohensKappa(m)).toBe(0);
    expect(accuracy(m)).toBe(0.5);
  });

  it('a judge that passes everything has κ = 0 whatever its accuracy', () => {
    // 3 of 4 humans pass: p_o = .75, p_e = 1·.75 + 0·.25 = .75, κ = 0.
    const m = confusionMatrix(pairs([P, P, P, P], [P, P, P, F]));
    expect(accuracy(m)).toBe(0.75);
    expect(cohensKappa(m)).toBe(0);
    expect(trueNegativeRate(m)).toBe(0);
  });

  it('a 50-row table: κ = 0.4, TPR 2/3, TNR 3/4', () => {
    // TP 20, FP 5, FN 10, TN 15: p_o = 35/50 = .7; judge passes .5, humans .6;
    // p_e = .5·.6 + .5·.4 = .5; κ = (.7 − .5)/(1 − .5) = .4.
    const m = confusionMatrix([...times(20, P, P), ...times(5, P, F), ...times(10, F, P), ...times(15, F, F)]);
    expect(accuracy(m)).toBeCloseTo(0.7, 12);
    expect(cohensKappa(m)).toBeCloseTo(0.4, 12);
    expect(truePositiveRate(m)).toBeCloseTo(2 / 3, 12);
    expect(trueNegativeRate(m)).toBeCloseTo(0.75, 12);
  });

  it('undefined when both raters used one class only, or on no rows', () => {
    expect(cohensKappa(confusionMatrix(pairs([P, P], [P, P])))).toBeNull();
    expect(cohensKappa(confusionMatrix([]))).toBeNull();
    expect(accuracy(confusionMatrix([]))).toBeNull();
    expect(truePositiveRate(confusionMatrix(pairs([F], [F])))).toBeNull();
  });
});

describe('score agreement', () => {
  const scored = [
    { judge: 8, human: 7 },
    { judge: 5, human: 5 },
    { judge: 9, human: 6 },
    { judge: 2, human: 4 },
  ];

  it('MAE, exact and within-one agreement on a 10-point scale', () => {
    // |diffs| = 1, 0, 3, 2.
    expect(meanAbsoluteError(scored)).toBe(1.5);
    expect(agreementWithin(scored, 0)).toBe(0.25);
    expect(agreementWithin(scored, 1)).toBe(0.5);
  });

  it('within 0.1 on 0..1 counts a difference of 0.1 despite floating point', () => {
    expect(agreementWithin([{ judge: 0.7, human: 0.6 }], 0.1)).toBe(1);
    expect(agreementWithin([{ judge: 0.7, human: 0.59 }], 0.1)).toBe(0);
  });

  it('average ranks for ties', () => {
    expect(averageRanks([10, 20, 20, 30])).toEqual([1, 2.5, 2.5, 4]);
    expect(averageRanks([3, 1, 3, 3])).toEqual([3, 1, 3, 3]);
  });

  it("Spearman's ρ with a tie: 3/√10", () => {
    // Judge ranks 1, 2.5, 2.5, 4; human ranks 1, 3, 2, 4; both mean 2.5.
    // Σdxdy = 2.25 + 0 + 0 + 2.25 = 4.5; Σdx² = 4.5; Σdy² = 5; ρ = 4.5/√22.5 = 3/√10.
    const rho = spearman([
      { judge: 1, human: 1 },
      { judge: 2, human: 3 },
      { judge: 2, human: 2 },
      { judge: 3, human: 4 },
    ]);
    expect(rho).toBeCloseTo(3 / Math.sqrt(10), 12);
  });

  it('Spearman is 1 for any increasing relation and −1 for a decreasing one; null for a constant side', () => {
    expect(spearman([1, 2, 3, 4].map((h) => ({ judge: h * h, human: h })))).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3].map((h) => ({ judge: -h, human: h })))).toBeCloseTo(-1, 12);
    expect(spearman([1, 2, 3].map((h) => ({ judge: 5, human: h })))).toBeNull();
    expect(meanAbsoluteError([])).toBeNull();
  });
});

describe('best threshold by κ', () => {
  it('finds the split that separates the human verdicts, as the lowest score of the passing side', () => {
    const rows = [
      { score: 0.2, human: F },
      { score: 0.4, human: F },
      { score: 0.6, human: P },
      { score: 0.6, human: F },
      { score: 0.8, human: P },
      { score: 0.9, human: P },
    ];
    // At 0.8: TP 2, FN 1, TN 3, FP 0: p_o = 5/6, judge passes 1/3, humans 1/2, p_e = 1/2, κ = 2/3.
    // At 0.6: TP 3, FP 1, TN 2: p_o = 5/6, judge passes 2/3, p_e = 1/2, κ = 2/3 too: the lower (0.6) wins.
    expect(bestThresholdByKappa(rows)).toEqual({ threshold: 0.6, kappa: expect.closeTo(2 / 3, 12) as number });
  });

  it('null when no threshold gives a defined κ', () => {
    expect(bestThresholdByKappa([{ score: 0.5, human: P }])).toBeNull();
  });
});
