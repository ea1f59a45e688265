import { describe, expect, it } from 'vitest';
import { estimateCost } from '../../src/runner/estimate/estimate.js';
import type { AssertionResult, TrialResult } from '../../src/core/results-schema.js';
import { emptyUsage, type Usage } from '../../src/core/usage.js';
import { caseResult } from '../support/case-result.js';

const usage = (calls: number, inputTokens: number, outputTokens: number, costUsd: number | null): Usage => ({ ...emptyUsage(), calls, inputTokens, outputTokens, costUsd });

/** A trial whose target made one call of `model` (1M input, 1M output tokens, recorded at `recordedUsd`) and whose judges are `judged`. */
function trial(model: string, recordedUsd: number | null, judged: AssertionResult['judge'][] = [], extra: Partial<TrialResult> = {}): TrialResult {
  const asked = judged.filter((j) => !j!.cached);
  const judgeUsage = asked.reduce(
    (u, j) => ({
      ...u,
      calls: u.calls + j!.usage.calls,
      inputTokens: u.inputTokens + j!.usage.inputTokens,
      outputTokens: u.outputTokens + j!.usage.outputTokens,
      costUsd: u.costUsd! + (j!.usage.costUsd ?? 0),
    }),
    emptyUsage(),
  );
  return {
    index: 0,
    verdict: 'passed',
    score: 1,
    durationMs: 1,
    reply: 'ok',
    usage: { target: usage(1, 1_000_000, 1_000_000, recordedUsd), judge: judgeUsage },
    assertions: judged.map((judge, i) => ({ name: `judge#${i}`, kind: 'judge', severity: 'gate', status: 'passed', score: 1, threshold: 0.5, weight: 1, message: '', judge })),
    trace: { steps: [{ usage: { inputTokens: 1_000_000, outputTokens: 1_000_000 }, model }] },
    ...extra,
  };
}

const judge = (opts: { batch?: boolean; cached?: boolean } = {}): AssertionResult['judge'] => ({
  provider: 'openai',
  model: 'gpt-4.1-mini',
  usage: opts.cached ? emptyUsage() : usage(1, 1_000_000, 0, 999),
  ...opts,
});

describe('estimateCost', () => {
  it('prices the recorded tokens with the current table, not the recorded cost', () => {
    // Recorded at $99; gpt-4.1-mini today: 1M input × $0.40 + 1M output × $1.60.
    const recorded = [caseResult({ suite: 's', id: 'a', trials: [trial('openai:gpt-4.1-mini', 99)] })];
    const e = estimateCost([{ key: 's/a', suite: 's', trials: 1 }], recorded, {});
    expect(e.suites[0]!.target.usd).toBeCloseTo(2, 9);
    // The user's price table wins over the bundled one.
    const mine = estimateCost([{ key: 's/a', suite: 's', trials: 1 }], recorded, { 'openai:gpt-4.1-mini': { input: 1, output: 1 } });
    expect(mine.total.target.usd).toBeCloseTo(2, 9);
    const dearer = estimateCost([{ key: 's/a', suite: 's', trials: 1 }], recorded, { 'openai:gpt-4.1-mini': { input: 3, output: 1 } });
    expect(dearer.total.target.usd).toBeCloseTo(4, 9);
  });

  it('falls back to the recorded cost for a model with no known price, and marks a case with neither', () => {
    const recorded = [caseResult({ suite: 's', id: 'a', trials: [trial('openai:my-finetune-x', 0.5)] }), caseResult({ suite: 's', id: 'b', trials: [trial('openai:my-finetune-x', null)] })];
    const e = estimateCost(
      [
        { key: 's/a', suite: 's', trials: 2 },
        { key: 's/b', suite: 's', trials: 2 },
      ],
      recorded,
      {},
    );
    expect(e.total.target).toEqual({ usd: 1, unpriced: 1 });
  });

  it('scales by the trials planned now over the trials recorded, and leaves out interrupted ones', () => {
    const t = trial('openai:gpt-4.1-mini', 2);
    const recorded = [
      caseResult({
        suite: 's',
        id: 'a',
        trials: [t, { ...t, index: 1 }, { ...t, index: 2 }, { ...t, index: 3, interrupted: true, verdict: 'interrupted', usage: { ...t.usage, target: usage(1, 5, 5, 0) } }],
      }),
    ];
    expect(estimateCost([{ key: 's/a', suite: 's', trials: 5 }], recorded, {}).total.target.usd).toBeCloseTo(10, 9);
  });

  it('lists planned cases with no history per suite, not priced', () => {
    const recorded = [caseResult({ suite: 's', id: 'a', trials: [trial('openai:gpt-4.1-mini', 2)] })];
    const e = estimateCost(
      [
        { key: 's/a', suite: 's', trials: 1 },
        { key: 's/new', suite: 's', trials: 3 },
        { key: 't/x', suite: 't', trials: 1 },
      ],
      recorded,
      {},
    );
    expect(e.suites.map((s) => [s.suite, s.cases, s.trials, s.noHistory])).toEqual([
      ['s', 2, 4, ['s/new']],
      ['t', 1, 1, ['t/x']],
    ]);
    expect(e.total.noHistory).toEqual(['s/new', 't/x']);
    expect(e.total.target.usd).toBeCloseTo(2, 9);
  });

  it('re-prices judge calls at the batch rate when they were batched; cached answers cost nothing and are counted', () => {
    const recorded = [caseResult({ suite: 's', id: 'a', trials: [trial('openai:gpt-4.1-mini', 2, [judge(), judge({ batch: true }), judge({ cached: true })])] })];
    const e = estimateCost([{ key: 's/a', suite: 's', trials: 1 }], recorded, {});
    // 1M input at $0.40 live, and at OpenAI's batch rate (half) through the Batch API.
    expect(e.total.judge.usd).toBeCloseTo(0.4 + 0.2, 9);
    expect(e.judge).toEqual({ answered: 3, cached: 1, batch: 1 });
  });
});
