import { describe, expect, it } from 'vitest';
import { compareRuns, type CompareOptions } from '../../src/stats/compare-runs.js';
import { ComparableResultsSchema } from '../../src/stats/compared-case.js';
import { comparableCase } from '../support/comparable-case.js';

const kase = comparableCase;

const OPTS: CompareOptions = { baseline: 'main', epsilon: 0.05, maxRegressions: 0 };
const P_5_5_TO_2_5 = 21 / 252; // C(7,2)·C(3,3)/C(10,5), worked out in test/stats/fisher.test.ts

describe('compareRuns', () => {
  it('an unchanged pair has nothing to list and does not fail', () => {
    const base = [kase('a', 5, 5), kase('b', 3, 5)];
    const c = compareRuns(base, structuredClone(base), OPTS);
    expect(c.failed).toBe(false);
    expect(c.cases).toEqual([]);
    expect(c.counts.unchanged).toBe(2);
  });

  it('5/5 → 2/5 is a counted regression with its Fisher p-value, and fails at max 0', () => {
    const c = compareRuns([kase('a', 5, 5), kase('b', 5, 5)], [kase('a', 2, 5), kase('b', 5, 5)], OPTS);
    expect(c.cases).toHaveLength(1);
    const [r] = c.cases;
    expect(r).toMatchObject({ key: 'demo/a', kind: 'regressed', counted: true, base: { passed: 5, run: 5 }, head: { passed: 2, run: 5 } });
    expect(r!.pValue).toBeCloseTo(P_5_5_TO_2_5, 10);
    expect(c.counted).toBe(1);
    expect(c.failed).toBe(true);
  });

  it('--max-regressions 1 allows one', () => {
    expect(compareRuns([kase('a', 5, 5)], [kase('a', 2, 5)], { ...OPTS, maxRegressions: 1 }).failed).toBe(false);
  });

  it('with alpha 0.05 the same drop is reported but not counted (p ≈ 0.083 is not below 0.05)', () => {
    const c = compareRuns([kase('a', 5, 5)], [kase('a', 2, 5)], { ...OPTS, alpha: 0.05 });
    expect(c.cases[0]).toMatchObject({ kind: 'regressed', counted: false });
    expect(c.counts.regressed).toBe(1);
    expect(c.counted).toBe(0);
    expect(c.failed).toBe(false);
    // 20/20 → 2/20 is well below 0.05: counted.
    expect(compareRuns([kase('a', 20, 20)], [kase('a', 2, 20)], { ...OPTS, alpha: 0.05 }).failed).toBe(true);
  });

  it('a score that drops on every trial while the pass rate holds is tested on the trial scores: counted under alpha', () => {
    // The helper's case: the judge scored 1.00 on each baseline trial and 0.75 on each head trial, all above its threshold.
    const scored = (mean: number, extra: Partial<ReturnType<typeof kase>> = {}) =>
      kase('a', 5, 5, { score: { mean }, trials: Array.from({ length: 5 }, () => ({ verdict: 'passed' as const, score: mean })), ...extra });
    const c = compareRuns([scored(1)], [scored(0.75)], { ...OPTS, alpha: 0.1 });
    expect(c.cases[0]).toMatchObject({ kind: 'regressed', counted: true, reason: 'score 1.00 → 0.75' });
    expect(c.cases[0]!.pValue).toBeCloseTo(1 / 252, 12);
    expect(c.failed).toBe(true);
    // The scores as a results file holds them survive the parse a comparison reads it with.
    const file = (cases: unknown[]) => ComparableResultsSchema.parse({ schemaVersion: 1, cases }).cases;
    expect(compareRuns(file([scored(1)]), file([scored(0.75)]), { ...OPTS, alpha: 0.1 }).cases[0]!.pValue).toBeCloseTo(1 / 252, 12);
    // A rise the same way: tested on the scores too.
    expect(compareRuns([scored(0.75)], [scored(1)], OPTS).cases[0]).toMatchObject({ kind: 'improved', pValue: expect.closeTo(1 / 252, 12) });
    // The pass rate fell as well: its Fisher p, as before.
    const fell = kase('a', 2, 5, { score: { mean: 0.4 }, trials: [1, 1, 0, 0, 0].map((x) => ({ verdict: x ? ('passed' as const) : ('failed' as const), score: x })) });
    expect(compareRuns([scored(1)], [fell], OPTS).cases[0]!.pValue).toBeCloseTo(P_5_5_TO_2_5, 10);
    // A file without trial scores: Fisher's p of an unchanged pass rate (1), not counted under alpha.
    expect(compareRuns([kase('a', 5, 5)], [kase('a', 5, 5, { score: { mean: 0.75 } })], { ...OPTS, alpha: 0.1 }).cases[0]).toMatchObject({ kind: 'regressed', counted: false, pValue: 1 });
  });

  it('a case whose input was edited is changed, not regressed', () => {
    const c = compareRuns([kase('a', 5, 5)], [kase('a', 0, 5, { fingerprint: 'edited' })], OPTS);
    expect(c.cases[0]).toMatchObject({ key: 'demo/a', kind: 'changed' });
    expect(c.counts.regressed).toBe(0);
    expect(c.failed).toBe(false);
  });

  it('a baseline case without a fingerprint (written before they existed) is compared as it stands', () => {
    const { fingerprint: _, ...old } = kase('a', 5, 5);
    const c = compareRuns([old], [kase('a', 2, 5, { fingerprint: 'anything' })], OPTS);
    expect(c.cases[0]!.kind).toBe('regressed');
  });

  it('verdict worse with the same pass count (passed → scored) and a score drop beyond epsilon both regress; within epsilon does not', () => {
    const scored = compareRuns([kase('a', 5, 5)], [kase('a', 5, 5, { verdict: 'scored', score: { mean: 0.99 } })], OPTS);
    expect(scored.cases[0]).toMatchObject({ kind: 'regressed', reason: 'verdict passed → scored' });
    expect(scored.cases[0]!.pValue).toBeCloseTo(1, 10);
    const dropped = compareRuns([kase('a', 5, 5, { score: { mean: 0.9 } })], [kase('a', 5, 5, { score: { mean: 0.8 } })], OPTS);
    expect(dropped.cases[0]).toMatchObject({ kind: 'regressed', reason: 'score 0.90 → 0.80' });
    const small = compareRuns([kase('a', 5, 5, { score: { mean: 0.9 } })], [kase('a', 5, 5, { score: { mean: 0.86 } })], OPTS);
    expect(small.cases).toEqual([]);
    expect(compareRuns([kase('a', 5, 5, { score: { mean: 0.9 } })], [kase('a', 5, 5, { score: { mean: 0.86 } })], { ...OPTS, epsilon: 0.01 }).counts.regressed).toBe(1);
  });

  it('a drop of exactly epsilon is within it whichever way the float subtraction rounds (1.00 → 0.95 as 0.30 → 0.25); a hair more is not', () => {
    // 1 - 0.95 is 0.050000000000000044 in floating point, 0.3 - 0.25 is 0.04999999999999999.
    const moved = (from: number, to: number, epsilon = 0.05) =>
      compareRuns([kase('a', 20, 20, { score: { mean: from } })], [kase('a', 20, 20, { score: { mean: to } })], { ...OPTS, epsilon }).cases.map((c) => c.kind);
    for (const [from, to] of [
      [1, 0.95],
      [0.8, 0.75],
      [0.9, 0.85],
      [0.3, 0.25],
    ] as const) {
      expect(moved(from, to), `${from} → ${to}`).toEqual([]);
      expect(moved(to, from), `${to} → ${from}`).toEqual([]);
    }
    expect(moved(1, 0.94)).toEqual(['regressed']);
    expect(moved(0.7, 0.6, 0.1)).toEqual([]);
    expect(moved(0.7, 0.59, 0.1)).toEqual(['regressed']);
  });

  it('lists improvements, new and removed cases without failing', () => {
    const c = compareRuns([kase('a', 2, 5), kase('gone', 5, 5)], [kase('a', 5, 5), kase('fresh', 5, 5)], OPTS);
    expect(c.cases.map((x) => [x.key, x.kind])).toEqual([
      ['demo/a', 'improved'],
      ['demo/fresh', 'new'],
      ['demo/gone', 'removed'],
    ]);
    expect(c.cases[0]!.pValue).toBeCloseTo(P_5_5_TO_2_5, 10);
    expect(c.failed).toBe(false);
  });

  it('a case with judge errors in the base or the head is never counted: could not compare', () => {
    // Hand-built results documents, as the JSON reporter writes them (the judge-error run's trials all failed).
    const baseDoc = { schemaVersion: 1, run: { id: 'base', gitSha: null, startedAt: '2026-01-01T00:00:00Z' }, cases: [kase('a', 5, 5), kase('b', 5, 5)] };
    const headDoc = JSON.parse(JSON.stringify({ schemaVersion: 1, cases: [{ ...kase('a', 0, 5), judgeErrors: 5 }, kase('b', 5, 5)] })) as unknown;
    const base = ComparableResultsSchema.parse(baseDoc);
    const head = ComparableResultsSchema.parse(headDoc);
    const c = compareRuns(base.cases, head.cases, OPTS);
    expect(c.cases).toEqual([expect.objectContaining({ key: 'demo/a', kind: 'judge-errors', reason: 'could not compare: judge errors' })]);
    expect(c.counts.regressed).toBe(0);
    expect(c.failed).toBe(false);
    // The other way round too: an outage in the baseline is no improvement or regression either.
    const back = compareRuns(head.cases, base.cases, OPTS);
    expect(back.cases.map((x) => x.kind)).toEqual(['judge-errors']);
  });

  it('warns when a compared case has fewer than 3 trials on a side', () => {
    expect(compareRuns([kase('a', 2, 2)], [kase('a', 0, 2)], OPTS).warnings.join()).toMatch(/1 compared case has fewer than 3 trials.*no pass-rate drop there can be significant/);
    // A case not run on a side (0 trials: cut short) was not compared, so it is no such case.
    const cut = compareRuns([kase('a', 3, 3)], [kase('a', 0, 0, { verdict: 'skipped' })], OPTS);
    expect(cut.counts['not-run']).toBe(1);
    expect(cut.warnings).toEqual([]);
    expect(compareRuns([kase('a', 3, 3)], [kase('a', 0, 3)], OPTS).warnings).toEqual([]);
  });

  it('a case cut short (skipped) or with no trial run is listed as not run, never counted', () => {
    const cut = kase('a', 0, 2, { verdict: 'skipped' });
    const c = compareRuns([kase('a', 5, 5), kase('b', 5, 5)], [cut, kase('b', 0, 0, { verdict: 'skipped' })], OPTS);
    expect(c.cases.map((x) => [x.key, x.kind])).toEqual([
      ['demo/a', 'not-run'],
      ['demo/b', 'not-run'],
    ]);
    expect(c.failed).toBe(false);
  });

  it('interrupted trials are left out of the pass rate', () => {
    const head = kase('a', 2, 2, { verdict: 'passed', trials: [{ verdict: 'passed' }, { verdict: 'passed' }, { verdict: 'interrupted' }] });
    const c = compareRuns([kase('a', 2, 2)], [head], OPTS);
    expect(c.cases).toEqual([]);
  });
});
