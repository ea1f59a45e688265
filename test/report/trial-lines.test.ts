import { describe, expect, it } from 'vitest';
import { missedTrialLines, trialLines } from '../../src/report/trial-lines.js';
import { digest } from '../../src/core/digest.js';
import { emptyUsage } from '../../src/core/usage.js';
import type { CaseResult, TrialResult } from '../../src/core/results-schema.js';

const usage = { target: emptyUsage(), judge: emptyUsage() };

function trial(index: number, verdict: TrialResult['verdict'], extra: Partial<TrialResult> = {}): TrialResult {
  return { index, verdict, score: verdict === 'passed' ? 1 : 0, durationMs: 1, reply: 'no', usage, trace: {}, assertions: [], ...extra };
}

function caseOf(trials: TrialResult[]): CaseResult {
  return {
    ...{ suite: 's', id: 'c', file: 'evals/s.eval.yaml', line: 1, tags: [], verdict: 'failed', passed: 0, required: 1 },
    ...{ planned: trials.length, notRun: 0, score: { mean: 0, stddev: 0 }, judgeScore: null, usage, trials },
  };
}

describe('missedTrialLines', () => {
  it('shows the trials that did not pass, three at most, each labelled when the case ran more than one', () => {
    const lines = missedTrialLines(caseOf([trial(0, 'passed'), trial(1, 'failed'), trial(2, 'scored'), trial(3, 'interrupted'), trial(4, 'failed'), trial(5, 'failed')]));
    expect(lines).toEqual(['trial 2 reply (2 chars): no', 'trial 3 reply (2 chars): no', 'trial 5 reply (2 chars): no', '… 1 more trial that did not pass (in the results)']);
  });

  it('a conversation shows each turn with its calls; a digested value shows as its shape; an empty reply as its length', () => {
    const turns = [
      { input: 'hi', reply: '', toolCalls: [], usage: emptyUsage(), durationMs: 1 },
      { input: 'order?', reply: 'It\nshipped', toolCalls: [{ name: 'lookup', args: digest({ id: 'A1' }), isError: true }], usage: emptyUsage(), durationMs: 1 },
    ];
    expect(trialLines(trial(0, 'failed', { turns }))).toEqual(['turn 1 reply (0 chars)', 'turn 2 reply (10 chars): It shipped', '  tool lookup <digest {"id":"<string:2>"}> → error']);
  });
});
