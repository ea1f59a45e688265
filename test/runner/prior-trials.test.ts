/**
 * The pure parts of `--resume` and `--retry-errors`: which recorded trials are kept, whether the
 * rest run, and the first difference between a recorded plan and the current one.
 */
import { describe, expect, it } from 'vitest';
import type { AssertionResult, TrialResult } from '../../src/core/results-schema.js';
import { emptyUsage } from '../../src/core/usage.js';
import { resumedPrior, retryPrior } from '../../src/runner/resume/kept-trials.js';
import { planChange, planRecord } from '../../src/runner/resume/resume-plan.js';
import { caseResult } from '../support/case-result.js';
import { makePlannedCase } from '../support/planned-case.js';

const gate = (status: AssertionResult['status']): AssertionResult => ({
  name: 'g',
  kind: 'judge',
  severity: 'gate',
  status,
  score: status === 'passed' ? 1 : 0,
  threshold: 0.5,
  weight: 1,
  message: '',
});
function trial(index: number, verdict: TrialResult['verdict'], over: Partial<TrialResult> = {}): TrialResult {
  return {
    index,
    verdict,
    score: verdict === 'passed' ? 1 : 0,
    durationMs: 1,
    reply: 'r',
    usage: { target: emptyUsage(), judge: emptyUsage() },
    assertions: [gate(verdict === 'passed' ? 'passed' : 'failed')],
    trace: {},
    ...over,
  };
}

describe('resumedPrior', () => {
  it('keeps trials that ran to a verdict; a case the interrupt cut short runs the rest, a finished one keeps its not-run trials not run', () => {
    const prior = resumedPrior(
      [
        caseResult({ id: 'cut', planned: 4, notRun: 2, notRunReason: 'interrupted', trials: [trial(0, 'passed'), trial(1, 'failed')] }),
        caseResult({ id: 'inflight', planned: 2, notRun: 0, trials: [trial(0, 'passed'), trial(1, 'interrupted', { interrupted: true })] }),
        caseResult({ id: 'early', planned: 3, notRun: 2, notRunReason: 'early-stop', trials: [trial(0, 'failed')] }),
      ],
      undefined,
    );
    expect([...prior.get('s/cut')!.trials.keys()]).toEqual([0, 1]);
    expect(prior.get('s/cut')!.notRunReason).toBeUndefined();
    // The trial the hard stop cut off is not kept: it runs again.
    expect([...prior.get('s/inflight')!.trials.keys()]).toEqual([0]);
    expect(prior.get('s/inflight')!.notRunReason).toBeUndefined();
    expect(prior.get('s/early')!.notRunReason).toBe('early-stop');
  });

  it('gives a kept trial its clear trace back from the run folder when the results hold digests', () => {
    const digested = trial(0, 'passed', { trace: { steps: [{ toolCalls: [{ name: 't', args: { hash: 'sha256:x', bytes: 1, preview: '<object>' } }] }] } });
    const clear = { steps: [{ toolCalls: [{ name: 't', args: { orderId: 'A1' } }] }] };
    const prior = resumedPrior([caseResult({ trials: [digested] })], new Map([['s/c', { key: 's/c', trials: [{ index: 0, trace: clear }] }]]));
    expect(prior.get('s/c')!.trials.get(0)!.trace).toEqual(clear);
  });
});

describe('retryPrior', () => {
  it('runs again the trials that ended in a target or a judge error, never a failed verdict', () => {
    const plan = retryPrior(
      [
        caseResult({ id: 'target', planned: 2, trials: [trial(0, 'failed', { error: 'target agent: 500', assertions: [] }), trial(1, 'passed')] }),
        caseResult({ id: 'judge', planned: 1, trials: [trial(0, 'failed', { assertions: [gate('error')] })] }),
        caseResult({ id: 'agent', planned: 3, notRun: 2, notRunReason: 'early-stop', trials: [trial(0, 'failed')] }),
      ],
      undefined,
    );
    expect(plan).toMatchObject({ targetErrors: 1, judgeErrors: 1, cases: 2 });
    expect([...plan.prior.get('s/target')!.trials.keys()]).toEqual([1]);
    expect(plan.prior.get('s/target')!.notRunReason).toBeUndefined();
    expect(plan.prior.get('s/judge')!.trials.size).toBe(0);
    // The agent's own failure is kept whole, early stop's decision with it.
    expect([...plan.prior.get('s/agent')!.trials.keys()]).toEqual([0]);
    expect(plan.prior.get('s/agent')!.notRunReason).toBe('early-stop');
  });
});

describe('planChange', () => {
  const defaults = { suite: 's', file: 'e.yaml', input: 'hi' };
  const a = makePlannedCase({ id: 'a', repeat: 2 }, defaults);
  const b = makePlannedCase({ id: 'b' }, defaults);
  const recorded = planRecord('run-1', ['run'], [a, b]).cases;

  it('is undefined for the same plan', () => {
    expect(planChange(recorded, [a, b])).toBeUndefined();
  });

  it('names the first case edited, planned differently, added or gone', () => {
    expect(planChange(recorded, [a, { ...b, input: 'changed' }])).toMatch(/^case s\/b changed since the recording \(fingerprint \w+, now \w+\)$/);
    expect(planChange(recorded, [{ ...a, repeat: 3 }, b])).toBe('case s/a planned 2 trials there, 3 now');
    expect(planChange(recorded, [a])).toBe("case s/b is in the recording but not in this run's plan");
    expect(planChange(recorded, [a, b, makePlannedCase({ id: 'c' }, defaults)])).toBe("case s/c is in this run's plan but not in the recording");
  });
});
