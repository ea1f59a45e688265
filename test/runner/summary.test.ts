/** The summary counts judges skipped by a failed gate from the result's `skipped` field, never from its message. */
import { describe, expect, it } from 'vitest';
import type { AssertionResult, CaseResult } from '../../src/core/results-schema.js';
import { emptyUsage } from '../../src/core/usage.js';
import { SummaryBuilder } from '../../src/runner/loop/summary.js';

const assertion = (over: Partial<AssertionResult>): AssertionResult => ({
  name: 'judge "polite"',
  kind: 'judge',
  severity: 'soft',
  status: 'skipped',
  score: 0,
  threshold: 0.7,
  weight: 1,
  message: 'skipped',
  ...over,
});

function caseWith(assertions: AssertionResult[]): CaseResult {
  return {
    suite: 's',
    id: 'c',
    file: 's.eval.yaml',
    line: 1,
    tags: [],
    verdict: 'failed',
    passed: 0,
    required: 1,
    planned: 1,
    notRun: 0,
    score: { mean: 0, stddev: 0 },
    judgeScore: null,
    usage: { target: emptyUsage(), judge: emptyUsage() },
    trials: [{ index: 0, verdict: 'failed', score: 0, durationMs: 1, reply: '', usage: { target: emptyUsage(), judge: emptyUsage() }, assertions, trace: {} }],
  };
}

describe('SummaryBuilder', () => {
  it('counts a judge skipped by a gate by its skipped field, whatever its message says', () => {
    const summary = new SummaryBuilder();
    summary.addCase(
      caseWith([
        assertion({ skipped: 'gate-failed', message: 'not asked' }),
        assertion({ skipped: 'gate-failed' }),
        // The old message text alone no longer counts.
        assertion({ message: 'skipped: a gate of this trial failed' }),
        assertion({ status: 'passed', message: 'score 0.90 ≥ 0.70' }),
      ]),
    );
    expect(summary.result().counters.judgeCallsSkippedByGates).toBe(2);
  });
});
