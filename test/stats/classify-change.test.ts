import { describe, expect, it } from 'vitest';
import { classifyChange, compareRuns, type CompareOptions } from '../../src/stats/compare-runs.js';
import { fisherDropP } from '../../src/stats/fisher.js';
import type { ComparableCase, ComparedAssertion } from '../../src/stats/compared-case.js';
import { comparableCase, judgedBy } from '../support/comparable-case.js';

const OPTS: CompareOptions = { baseline: 'main', epsilon: 0.05, maxRegressions: 0 };

/** A `contains "shipped"` gate result. */
const contains = (passed: boolean): ComparedAssertion => ({ name: 'contains "shipped"', kind: 'contains', status: passed ? 'passed' : 'failed' });
/** A judged assertion's result, graded by `model` (its fingerprint hash `fp-<model>`, as `judgedBy` gives the case). */
const judged = (model: string, passed: boolean, name = 'judge "Is polite"'): ComparedAssertion => ({
  name,
  kind: 'judge',
  status: passed ? 'passed' : 'failed',
  judge: { model },
  judgeFingerprint: { hash: `fp-${model}` },
});
/** Skipped behind a failed gate: not asked, its judge known. */
const skipped = (model: string): ComparedAssertion => ({ name: 'judge "Is polite"', kind: 'judge', status: 'skipped', judgeFingerprint: { hash: `fp-${model}` } });

/** A case of `n` trials, each with the assertions `trial(i)` gives; passed counted from its verdicts. */
function kase(n: number, trial: (i: number) => ComparedAssertion[], judge: string, extra: Partial<ComparableCase> = {}): ComparableCase {
  const trials = Array.from({ length: n }, (_, i) => {
    const assertions = trial(i);
    return { verdict: assertions.every((a) => a.status !== 'failed' && a.status !== 'error') ? ('passed' as const) : ('failed' as const), assertions };
  });
  const passed = trials.filter((t) => t.verdict === 'passed').length;
  return comparableCase('order', passed, n, { trials, verdict: passed === n ? 'passed' : 'failed', judgeFingerprint: judgedBy(judge), ...extra });
}

const GOOD = (model: string) => () => [contains(true), judged(model, true)];
const BROKEN = (model: string) => () => [contains(false), skipped(model)];

describe('classifyChange: a judge change never hides a failure no judge graded', () => {
  it('a contains gate that now fails, judged by another judge: regressed and counted, with the assertion and the judge change', () => {
    const c = classifyChange(kase(2, GOOD('judge-a'), 'judge-a'), kase(2, BROKEN('judge-b'), 'judge-b'), OPTS);
    expect(c).toMatchObject({
      kind: 'regressed',
      counted: true,
      failedAssertions: [{ name: 'contains "shipped"', kind: 'contains', judged: false, base: { failed: 0, run: 2 }, head: { failed: 2, run: 2 } }],
      judgeChanges: ['judge openai:judge-a → openai:judge-b'],
    });
    expect(c.pValue).toBeCloseTo(fisherDropP(2, 2, 0, 2), 12);
    expect(c.reason).toBe('contains "shipped" failed 2/2, baseline 0/2 (no judge graded it); the judge also changed (judge openai:judge-a → openai:judge-b), which does not excuse it');
    // compareRuns uses the same rule: the comparison fails.
    expect(compareRuns([kase(2, GOOD('judge-a'), 'judge-a')], [kase(2, BROKEN('judge-b'), 'judge-b')], OPTS)).toMatchObject({ failed: true, counted: 1 });
  });

  it('only a judged score moved under the new judge: judge changed, not counted', () => {
    const c = classifyChange(
      kase(3, GOOD('judge-a'), 'judge-a'),
      kase(3, () => [contains(true), judged('judge-b', false)], 'judge-b'),
      OPTS,
    );
    expect(c).toMatchObject({ kind: 'judge-changed', judgeChanges: ['judge openai:judge-a → openai:judge-b'] });
    expect(c.counted).toBeUndefined();
    expect(c.failedAssertions).toBeUndefined();
  });

  it('a deterministic assertion that failed as often in the baseline is no regression of its own: the judge change stands', () => {
    const flaky = (model: string) => (i: number) => (i === 0 ? BROKEN(model)() : GOOD(model)());
    expect(classifyChange(kase(3, flaky('judge-a'), 'judge-a'), kase(3, flaky('judge-b'), 'judge-b'), OPTS).kind).toBe('judge-changed');
    // Failing in more of head's trials than the baseline's (1/3 → 2/3) is one.
    const more = (model: string) => (i: number) => (i < 2 ? BROKEN(model)() : GOOD(model)());
    expect(classifyChange(kase(3, flaky('judge-a'), 'judge-a'), kase(3, more('judge-b'), 'judge-b'), OPTS)).toMatchObject({
      kind: 'regressed',
      failedAssertions: [{ base: { failed: 1, run: 3 }, head: { failed: 2, run: 3 } }],
    });
  });

  it('beside a judge change, a judged assertion whose own judge stayed and that fails more often is the agent too', () => {
    // Two judged assertions: "Is polite" judged by A on both sides; "Is brief" moved from A to B.
    const polite = (ok: boolean) => judged('judge-a', ok);
    const brief = (model: string) => judged(model, true, 'judge "Is brief"');
    const base = kase(3, () => [polite(true), brief('judge-a')], 'judge-a');
    const head = kase(3, () => [polite(false), brief('judge-b')], 'judge-b');
    expect(classifyChange(base, head, OPTS)).toMatchObject({ kind: 'regressed', failedAssertions: [{ name: 'judge "Is polite"', judged: true, base: { failed: 0 }, head: { failed: 3 } }] });
    // Only the moved judge's assertion failing: judge changed.
    const headB = kase(3, () => [polite(true), { ...brief('judge-b'), status: 'failed' }], 'judge-b');
    expect(classifyChange(base, headB, OPTS).kind).toBe('judge-changed');
  });

  it("a judged assertion not asked because the reply was empty failed with no judge grading it; a judge's error is no such failure", () => {
    const empty: ComparedAssertion = { name: 'judge "Is polite"', kind: 'judge', status: 'failed', judgeFingerprint: { hash: 'fp-judge-b' } };
    expect(
      classifyChange(
        kase(2, GOOD('judge-a'), 'judge-a'),
        kase(2, () => [contains(true), empty], 'judge-b'),
        OPTS,
      ),
    ).toMatchObject({
      kind: 'regressed',
      failedAssertions: [{ kind: 'judge', judged: false }],
    });
    const erred: ComparedAssertion = { ...empty, status: 'error' };
    const c = classifyChange(
      kase(2, GOOD('judge-a'), 'judge-a'),
      kase(2, () => [contains(true), erred], 'judge-b', { judgeErrors: 2 }),
      OPTS,
    );
    expect(c.kind).toBe('judge-changed');
  });

  it('judge errors or a run cut short do not excuse a deterministic failure either; without one they still set the case apart', () => {
    const base = kase(2, GOOD('judge-a'), 'judge-a');
    expect(classifyChange(base, kase(2, BROKEN('judge-a'), 'judge-a', { judgeErrors: 1 }), OPTS).kind).toBe('regressed');
    expect(classifyChange(base, kase(2, GOOD('judge-a'), 'judge-a', { judgeErrors: 1 }), OPTS).kind).toBe('judge-errors');
    expect(classifyChange(base, kase(2, BROKEN('judge-a'), 'judge-a', { verdict: 'skipped' }), OPTS).kind).toBe('regressed');
    expect(classifyChange(base, kase(2, GOOD('judge-a'), 'judge-a', { verdict: 'skipped' }), OPTS).kind).toBe('not-run');
  });

  it('one judge error hides no judged failure of the same judge: the trials its judge answered still compare', () => {
    // The same judge on both sides; head's judge erred on one trial of ten and failed the other nine.
    const erred: ComparedAssertion = { ...judged('judge-a', false), status: 'error' };
    const head = kase(10, (i) => [contains(true), i === 0 ? erred : judged('judge-a', false)], 'judge-a', { judgeErrors: 1 });
    const c = classifyChange(kase(10, GOOD('judge-a'), 'judge-a'), head, OPTS);
    expect(c).toMatchObject({
      kind: 'regressed',
      counted: true,
      failedAssertions: [{ name: 'judge "Is polite"', judged: true, base: { failed: 0, run: 10 }, head: { failed: 9, run: 9 } }],
    });
    expect(compareRuns([kase(10, GOOD('judge-a'), 'judge-a')], [head], OPTS)).toMatchObject({ failed: true, counted: 1 });
    // The judge answered as often as before where it answered: only the outage moved, so the case is set apart.
    const outage = kase(10, (i) => [contains(true), i === 0 ? erred : judged('judge-a', true)], 'judge-a', { judgeErrors: 1 });
    expect(classifyChange(kase(10, GOOD('judge-a'), 'judge-a'), outage, OPTS).kind).toBe('judge-errors');
  });

  it('a judge error is no failure of its assertion beside a judge change: an outage of the unchanged judge is not a regression', () => {
    // Two judged assertions: the first's judge changed, the second's stayed and erred on every head trial.
    const other = (model: string, passed: boolean) => judged(model, passed, 'judge "Is correct"');
    const base = kase(3, () => [contains(true), judged('judge-a', true), other('judge-c', true)], 'judge-a');
    const head = kase(3, () => [contains(true), judged('judge-b', true), { ...other('judge-c', false), status: 'error' }], 'judge-b', { judgeErrors: 3 });
    const c = classifyChange(base, head, OPTS);
    expect(c.kind).toBe('judge-changed');
    expect(c.counted).toBeUndefined();
    expect(c.failedAssertions).toBeUndefined();
  });

  it('a trial the target ended (an error, no assertions) is a failure no judge graded: one such trial in three under a new judge is regressed', () => {
    const head = kase(3, GOOD('judge-b'), 'judge-b');
    head.trials[0] = { verdict: 'failed', error: 'target threw: ECONNREFUSED', assertions: [] };
    expect(classifyChange(kase(3, GOOD('judge-a'), 'judge-a'), head, OPTS)).toMatchObject({
      kind: 'regressed',
      failedAssertions: [{ name: 'target or check error', kind: 'error', judged: false, base: { failed: 0, run: 3 }, head: { failed: 1, run: 3 } }],
      reason: expect.stringMatching(/^target or check error in 1\/3 trials, baseline 0\/3; the judge also changed/) as string,
    });
  });

  it('the same judge, a case failing before and after: a newly failing gate makes it regressed where its verdict did not move', () => {
    // Baseline: the judge fails every trial (the case fails 0/3). Head: the contains gate fails too.
    const base = kase(3, () => [contains(true), judged('judge-a', false)], 'judge-a');
    const head = kase(3, BROKEN('judge-a'), 'judge-a');
    expect(base.passed).toBe(0);
    expect(classifyChange(base, head, OPTS)).toMatchObject({ kind: 'regressed', failedAssertions: [{ name: 'contains "shipped"' }] });
  });

  it('an edited case stays changed; interrupted trials count on neither side; a side without assertions is compared as before', () => {
    expect(classifyChange(kase(2, GOOD('judge-a'), 'judge-a'), kase(2, BROKEN('judge-b'), 'judge-b', { fingerprint: 'fp-edited' }), OPTS).kind).toBe('changed');
    const cut = kase(3, (i) => (i === 0 ? BROKEN('judge-b')() : GOOD('judge-b')()), 'judge-b');
    cut.trials[0] = { ...cut.trials[0]!, verdict: 'interrupted' };
    expect(classifyChange(kase(3, GOOD('judge-a'), 'judge-a'), cut, OPTS).kind).toBe('judge-changed');
    const old = { ...kase(2, GOOD('judge-a'), 'judge-a'), trials: [{ verdict: 'passed' as const }, { verdict: 'passed' as const }] };
    expect(classifyChange(old, kase(2, BROKEN('judge-b'), 'judge-b'), OPTS).kind).toBe('judge-changed');
  });

  it('on a pass@k case an assertion is measured by its own estimate: 10/10 → 8/10 at pass@3 holds, 5/10 → 2/10 drops', () => {
    const reducer = { kind: 'passAt' as const, k: 3, min: 0.5, trials: 10 };
    const passing = (n: number, model: string) => (i: number) => (i < n ? GOOD(model)() : BROKEN(model)());
    const held = classifyChange(kase(10, passing(10, 'judge-a'), 'judge-a', { reducer }), kase(10, passing(8, 'judge-b'), 'judge-b', { reducer }), OPTS);
    expect(held.kind).toBe('judge-changed');
    const dropped = classifyChange(kase(10, passing(5, 'judge-a'), 'judge-a', { reducer }), kase(10, passing(2, 'judge-b'), 'judge-b', { reducer }), OPTS);
    expect(dropped).toMatchObject({ kind: 'regressed', failedAssertions: [{ base: { failed: 5, run: 10 }, head: { failed: 8, run: 10 } }] });
    // Without the reducer the same 10/10 → 8/10 is a larger share failing.
    expect(classifyChange(kase(10, passing(10, 'judge-a'), 'judge-a'), kase(10, passing(8, 'judge-b'), 'judge-b'), OPTS).kind).toBe('regressed');
  });

  it('under --regression-alpha an assertion regression counts only when its p is below alpha', () => {
    const c = classifyChange(kase(2, GOOD('judge-a'), 'judge-a'), kase(2, BROKEN('judge-b'), 'judge-b'), { ...OPTS, alpha: 0.05 });
    expect(c).toMatchObject({ kind: 'regressed', counted: false });
    const many = classifyChange(kase(8, GOOD('judge-a'), 'judge-a'), kase(8, BROKEN('judge-b'), 'judge-b'), { ...OPTS, alpha: 0.05 });
    expect(many).toMatchObject({ kind: 'regressed', counted: true });
  });
});

describe('classifyChange: other tool definitions never hide a regression', () => {
  /** A case's tools part: each tool by name with its digest, hashed as a whole. */
  const offered = (tools: Record<string, string>) => ({ toolsFingerprint: { hash: JSON.stringify(tools), tools } });
  const BEFORE = offered({ orders_lookup: 'd1', issue_refund: 'r1' });
  const AFTER = offered({ orders_lookup: 'd2', issue_refund: 'r1', search: 's1' });
  const WORDS = ['tool orders_lookup changed', 'tool search added'];

  it('the agent did as before: tools changed, never counted, naming each tool that moved', () => {
    const c = classifyChange(kase(2, GOOD('judge-a'), 'judge-a', BEFORE), kase(2, GOOD('judge-a'), 'judge-a', AFTER), OPTS);
    expect(c).toMatchObject({ kind: 'tools-changed', reason: WORDS.join('; '), toolChanges: WORDS });
    expect(c.counted).toBeUndefined();
    const removed = classifyChange(kase(2, GOOD('judge-a'), 'judge-a', AFTER), kase(2, GOOD('judge-a'), 'judge-a', BEFORE), OPTS);
    expect(removed.toolChanges).toEqual(['tool orders_lookup changed', 'tool search removed']);
    expect(compareRuns([kase(2, GOOD('judge-a'), 'judge-a', BEFORE)], [kase(2, GOOD('judge-a'), 'judge-a', AFTER)], OPTS)).toMatchObject({
      failed: false,
      counted: 0,
      counts: { 'tools-changed': 1 },
      warnings: expect.arrayContaining([expect.stringContaining('1 case was offered other tool definitions than in the baseline (tool orders_lookup changed; tool search added)')]),
    });
  });

  it('a gate that now fails is regressed and counted, the tools named as no excuse; so is a judged score the same judge lowered', () => {
    const gate = classifyChange(kase(2, GOOD('judge-a'), 'judge-a', BEFORE), kase(2, BROKEN('judge-a'), 'judge-a', AFTER), OPTS);
    expect(gate).toMatchObject({ kind: 'regressed', counted: true, toolChanges: WORDS });
    expect(gate.reason).toContain('; the tools also changed (tool orders_lookup changed; tool search added), which does not excuse it');
    const judgedDrop = classifyChange(
      kase(3, GOOD('judge-a'), 'judge-a', BEFORE),
      kase(3, () => [contains(true), judged('judge-a', false)], 'judge-a', AFTER),
      OPTS,
    );
    expect(judgedDrop).toMatchObject({ kind: 'regressed', counted: true, toolChanges: WORDS });
    expect(compareRuns([kase(2, GOOD('judge-a'), 'judge-a', BEFORE)], [kase(2, BROKEN('judge-a'), 'judge-a', AFTER)], OPTS)).toMatchObject({ failed: true, counted: 1 });
  });

  it('an improvement stays improved and a judge change stays judge changed, each naming the tools too', () => {
    const up = classifyChange(kase(2, BROKEN('judge-a'), 'judge-a', BEFORE), kase(2, GOOD('judge-a'), 'judge-a', AFTER), OPTS);
    expect(up).toMatchObject({ kind: 'improved', toolChanges: WORDS });
    expect(up.reason).toContain('; the tools also changed (tool orders_lookup changed; tool search added)');
    const judge = classifyChange(
      kase(3, GOOD('judge-a'), 'judge-a', BEFORE),
      kase(3, () => [contains(true), judged('judge-b', false)], 'judge-b', AFTER),
      OPTS,
    );
    expect(judge).toMatchObject({ kind: 'judge-changed', toolChanges: WORDS, reason: 'judge openai:judge-a → openai:judge-b; the tools also changed (tool orders_lookup changed; tool search added)' });
  });

  it('a side without a tools part (a target reporting none, an older baseline) compares as before', () => {
    expect(classifyChange(kase(2, GOOD('judge-a'), 'judge-a'), kase(2, GOOD('judge-a'), 'judge-a', AFTER), OPTS)).toEqual(expect.objectContaining({ kind: 'unchanged' }));
    expect(classifyChange(kase(2, GOOD('judge-a'), 'judge-a', BEFORE), kase(2, GOOD('judge-a'), 'judge-a', BEFORE), OPTS).kind).toBe('unchanged');
  });
});
