/**
 * Pass rate, flakiness and judge errors of a case, from its trials (pure): N is the trials that
 * ran to a verdict, a pass is a `passed` trial, and a trial that failed only because its judge
 * erred still fails but is counted apart and does not make the case flaky.
 */
import { describe, expect, it } from 'vitest';
import type { AssertionResult, TrialResult, TrialVerdict } from '../../src/core/results-schema.js';
import { emptyUsage } from '../../src/core/usage.js';
import { caseResult } from '../../src/runner/loop/case-result.js';
import { SummaryBuilder } from '../../src/runner/loop/summary.js';
import { runGateFailures } from '../../src/runner/loop/exit-code.js';
import { makePlannedCase } from '../support/planned-case.js';

const gate = (status: AssertionResult['status'], over: Partial<AssertionResult> = {}): AssertionResult => ({
  name: 'a',
  kind: 'contains',
  severity: 'gate',
  status,
  score: status === 'passed' ? 1 : 0,
  threshold: 1,
  weight: 1,
  message: status,
  ...over,
});
const judgeError = () => gate('error', { kind: 'judge', message: 'judge call failed: 500' });

function trial(index: number, verdict: TrialVerdict, assertions: AssertionResult[], error?: string): TrialResult {
  return { index, verdict, score: verdict === 'passed' ? 1 : 0, durationMs: 1, reply: '', usage: { target: emptyUsage(), judge: emptyUsage() }, assertions, trace: {}, ...(error ? { error } : {}) };
}
const pass = (i: number) => trial(i, 'passed', [gate('passed')]);
const fail = (i: number) => trial(i, 'failed', [gate('failed')]);

const planned = (repeat: number, passRate = 1) => makePlannedCase({ repeat, passRate }, { suite: 's', file: 's.eval.yaml', input: 'hi' });

describe('a case pass rate', () => {
  it('2 of 4 is flaky, with the Wilson interval of 2/4', () => {
    const r = caseResult(planned(4, 0.5), [pass(0), fail(1), pass(2), fail(3)]);
    expect(r.flaky).toBe(true);
    expect(r.passRate?.passed).toBe(2);
    expect(r.passRate?.trials).toBe(4);
    expect(r.passRate?.rate).toBe(0.5);
    // At p̂ = 1/2 the Wilson quadratic (1 + z²/n)p² − (1 + z²/n)p + 1/4 = 0 has the roots
    // 1/2 ± 1/2·sqrt((z²/n) / (1 + z²/n)); with z²/4 = 0.9604 that is 1/2 ± 0.34997.
    const half = 0.5 * Math.sqrt(0.9604 / 1.9604);
    expect(r.passRate?.low).toBeCloseTo(0.5 - half, 4);
    expect(r.passRate?.high).toBeCloseTo(0.5 + half, 4);
    expect(r.passRate?.low).toBeCloseTo(0.15, 3);
  });

  it('all passing or all failing is not flaky', () => {
    expect(caseResult(planned(3), [pass(0), pass(1), pass(2)]).flaky).toBe(false);
    expect(caseResult(planned(3), [fail(0), fail(1), fail(2)]).flaky).toBe(false);
  });

  it('a scored trial beside a passing one is flaky: scored is not a pass', () => {
    const scored = trial(1, 'scored', [gate('passed'), gate('failed', { severity: 'soft' })]);
    const r = caseResult(planned(2), [pass(0), scored]);
    expect(r.flaky).toBe(true);
    expect(r.passRate).toMatchObject({ passed: 1, trials: 2 });
  });

  it('has no interval under 2 trials, and counts only trials that ran to a verdict', () => {
    expect(caseResult(planned(1), [pass(0)]).passRate).toBeUndefined();
    const cut = caseResult(planned(5), [pass(0), fail(1), trial(2, 'interrupted', [], 'interrupted')], 'interrupted');
    expect(cut.passRate).toMatchObject({ passed: 1, trials: 2 });
    expect(cut.notRun).toBe(2);
  });
});

describe('judge errors of a case', () => {
  it('counts a trial failed only by a judge error, which still fails and is not flakiness', () => {
    const r = caseResult(planned(3), [pass(0), trial(1, 'failed', [gate('passed'), judgeError()]), pass(2)]);
    expect(r.judgeErrors).toBe(1);
    expect(r.verdict).toBe('failed');
    expect(r.flaky).toBe(false);
    expect(r.passRate).toMatchObject({ passed: 2, trials: 3 });
  });

  it('does not count a trial that also failed a deterministic gate, or whose target erred', () => {
    const r = caseResult(planned(2), [trial(0, 'failed', [gate('failed'), judgeError()]), trial(1, 'failed', [judgeError()], 'target crashed')]);
    expect(r.judgeErrors).toBe(0);
  });
});

describe('the run summary', () => {
  it('counts flaky cases and judge errors apart, and pools an interval over every trial', () => {
    const summary = new SummaryBuilder();
    summary.addCase(caseResult(planned(4, 0.5), [pass(0), fail(1), pass(2), fail(3)]));
    summary.addCase(caseResult(planned(2), [trial(0, 'failed', [judgeError()]), trial(1, 'failed', [judgeError()])]));
    summary.addCase(caseResult(planned(1), [pass(0)]));
    const s = summary.result();
    expect(s.cases).toMatchObject({ total: 3, passed: 2, failed: 1, flaky: 1 });
    expect(s.trials).toMatchObject({ run: 7, passed: 3, judgeErrors: 2 });
    expect(s.passRate).toMatchObject({ passed: 3, trials: 7 });
    expect(runGateFailures(s, { failOnFlaky: false })).toEqual([]);
    expect(runGateFailures(s, { failOnFlaky: true })).toEqual(['1 flaky case (both passing and failing trials) fail the run: --fail-on-flaky (or failOnFlaky in the config)']);
  });
});
