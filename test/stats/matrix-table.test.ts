import { describe, expect, it } from 'vitest';
import { matrixTable, p95, type VariantTotals } from '../../src/stats/matrix-table.js';

const totals = (value: string, passed: number, trials: number, extra: Partial<VariantTotals> = {}): VariantTotals => ({
  value,
  cases: trials,
  casesPassed: passed,
  trialsRun: trials,
  trialsPassed: passed,
  scoreSum: passed,
  targetCostUsd: 0,
  judgeCostUsd: 0,
  durationsMs: [100],
  ...extra,
});

describe('p95 (nearest rank)', () => {
  it('is the smallest value with at least 95% of the values at or below it', () => {
    expect(p95([5, 1, 4, 2, 3])).toBe(5); // ceil(0.95·5) = 5th
    expect(p95(Array.from({ length: 20 }, (_, i) => i + 1))).toBe(19); // ceil(19) = 19th
    expect(p95(Array.from({ length: 10 }, (_, i) => (i + 1) * 10))).toBe(100); // ceil(9.5) = 10th
    expect(p95([7])).toBe(7);
    expect(() => p95([])).toThrow(RangeError);
  });
});

describe('the matrix comparison table', () => {
  it('hand-checked: rates, Wilson intervals, means, the best per column, and the overlap note', () => {
    const t = matrixTable('support', 'target', [
      totals('a', 20, 20, { targetCostUsd: 0.02, durationsMs: [100, 200] }),
      totals('b', 19, 20, { targetCostUsd: 0.01, durationsMs: [50, 400] }),
      totals('c', 10, 20, { targetCostUsd: null, durationsMs: [300] }),
    ]);
    const [a, b, c] = t.rows;
    expect(a!.passRate).toEqual({ passed: 20, trials: 20, rate: 1 });
    // Wilson 95%: 20/20 → [0.8389, 1]; 19/20 → [0.7639, 0.9911]; 10/20 → [0.2993, 0.7007].
    expect(a!.interval!.low).toBeCloseTo(0.8389, 4);
    expect(a!.interval!.high).toBe(1);
    expect(b!.interval!.low).toBeCloseTo(0.7639, 4);
    expect(b!.interval!.high).toBeCloseTo(0.9911, 4);
    expect(c!.interval!.high).toBeCloseTo(0.7007, 4);
    expect(c!.score).toBe(0.5);
    expect(a!.latencyMs).toEqual({ mean: 150, p95: 200 });
    expect(b!.latencyMs).toEqual({ mean: 225, p95: 400 });
    // Target cost: c's is unknown, so the column cannot be ranked. Judge cost: a three-way tie.
    // Pass rate: a leads, but its interval overlaps b's, so no clear winner and no mark.
    expect(a!.best).toEqual(['casesPassed', 'score', 'latencyMean', 'latencyP95']);
    expect(b!.best).toEqual([]);
    expect(c!.best).toEqual([]);
    // a's interval overlaps b's, not c's.
    expect(t.notes).toEqual(['no clear winner on pass rate: the 95% intervals of a and b overlap']);
  });

  it('a clear winner gets no note; the cheaper value leads the cost column', () => {
    const t = matrixTable('s', 'target', [totals('a', 20, 20, { targetCostUsd: 0.05 }), totals('b', 10, 20, { targetCostUsd: 0.01 })]);
    expect(t.notes).toEqual([]);
    expect(t.rows[0]!.best).toContain('passRate');
    expect(t.rows[1]!.best).toEqual(['targetCost']);
  });

  it("a latency lead within the clock's noise (under 1 ms, or under 10%) marks no best; a clear one does", () => {
    const sub = matrixTable('s', 'target', [totals('a', 5, 5, { durationsMs: [0.3] }), totals('b', 5, 5, { durationsMs: [0.4] })]);
    expect(sub.rows.flatMap((r) => r.best.filter((c) => c.startsWith('latency')))).toEqual([]);
    const close = matrixTable('s', 'target', [totals('a', 5, 5, { durationsMs: [100] }), totals('b', 5, 5, { durationsMs: [108] })]);
    expect(close.rows.flatMap((r) => r.best.filter((c) => c.startsWith('latency')))).toEqual([]);
    const clear = matrixTable('s', 'target', [totals('a', 5, 5, { durationsMs: [100] }), totals('b', 5, 5, { durationsMs: [150] })]);
    expect(clear.rows[0]!.best).toEqual(expect.arrayContaining(['latencyMean', 'latencyP95']));
    expect(clear.rows[1]!.best).toEqual([]);
  });

  it('identical values: every column tied, nothing marked, no clear winner', () => {
    const t = matrixTable('s', 'target', [totals('a', 15, 20), totals('b', 15, 20)]);
    expect(t.rows.flatMap((r) => r.best)).toEqual([]);
    expect(t.notes).toEqual(['no clear winner on pass rate: the 95% intervals of a and b overlap']);
  });

  it('below 2 trials a value has no interval, no note is made and pass rate marks no best; one value marks nothing', () => {
    const t = matrixTable('s', 'target', [totals('a', 1, 1), totals('b', 0, 1)]);
    expect(t.rows.map((r) => r.interval)).toEqual([undefined, undefined]);
    expect(t.notes).toEqual([]);
    expect(t.rows[0]!.best).toEqual(['casesPassed', 'score']);
    expect(matrixTable('s', 'target', [totals('a', 3, 4)]).rows[0]!.best).toEqual([]);
  });

  it('a value whose trials never ran has no rate, score or latency, and its columns are not ranked', () => {
    const t = matrixTable('s', 'target', [totals('a', 2, 2), totals('b', 0, 0, { cases: 2, scoreSum: 0, durationsMs: [] })]);
    expect(t.rows[1]).toMatchObject({ passRate: { rate: null }, score: null, latencyMs: null });
    expect(t.rows[0]!.best).toEqual(['casesPassed']);
  });

  it('compares on equal N: values that ran unequal trial counts mark no best on any trial column, and a note says why', () => {
    // Same cases; a ran 30 trials (all passing), b 20 (5 passing): a would lead everything.
    const t = matrixTable('s', 'target', [
      totals('a', 30, 30, { cases: 10, casesPassed: 10, durationsMs: [10] }),
      totals('b', 5, 20, { cases: 10, casesPassed: 3, targetCostUsd: 1, durationsMs: [90] }),
    ]);
    expect(t.rows[0]!.best).toEqual(['casesPassed']);
    expect(t.rows[1]!.best).toEqual([]);
    expect(t.notes).toEqual(['no best on pass rate, score, cost or latency: the values ran unequal trial counts (a 30, b 20)']);
    // The same figures over equal trial counts rank as before.
    const level = matrixTable('s', 'target', [
      totals('a', 20, 20, { cases: 10, casesPassed: 10, durationsMs: [10] }),
      totals('b', 5, 20, { cases: 10, casesPassed: 3, targetCostUsd: 1, durationsMs: [90] }),
    ]);
    expect(level.rows[0]!.best).toEqual(['casesPassed', 'passRate', 'score', 'targetCost', 'latencyMean', 'latencyP95']);
    expect(level.notes).toEqual([]);
  });

  it('unequal case counts (a filter that kept one variant of a case) mark no best on cases passed', () => {
    const t = matrixTable('s', 'target', [totals('a', 10, 10, { cases: 5, casesPassed: 5 }), totals('b', 8, 10, { cases: 4, casesPassed: 2 })]);
    expect(t.rows.flatMap((r) => r.best)).not.toContain('casesPassed');
    expect(t.notes[0]).toBe('no best on cases passed: the values ran unequal case counts (a 5, b 4)');
  });
});
