/**
 * executeTrial grades judged assertions through the one builder: a judge's typed failure keeps its
 * usage in the trial, a failed gate skips judges with `skipped: 'gate-failed'`, and a judge read
 * early inside `check()` is judged once and reported as the check saw it. The judge service here
 * is a stand-in that counts its calls; no model is asked.
 */
import { describe, expect, it } from 'vitest';
import { JudgeError } from '../../src/core/errors.js';
import type { AssertionResult } from '../../src/core/results-schema.js';
import type { Usage } from '../../src/core/usage.js';
import type { JudgeService } from '../../src/judges/judge-service.js';
import type { Judgment } from '../../src/judges/judgment.js';
import { executeTrial } from '../../src/runner/loop/trial.js';
import type { PlannedCase } from '../../src/suite/plan.js';
import { functionTarget } from '../../src/targets/function-target.js';
import { makePlannedCase } from '../support/planned-case.js';

const spent: Usage = { calls: 1, inputTokens: 120, outputTokens: 12, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0.00007 };
const by = { provider: 'openai', model: 'gpt-4.1-mini' };

/** A judge service whose every judgment is `judgment`, recording the criteria it was asked. */
function service(judgment: Judgment): JudgeService & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async judge(spec) {
      asked.push('criteria' in spec ? String(spec.criteria) : spec.type);
      return judgment;
    },
  };
}

const failing = (): Judgment => ({ kind: 'failed', error: new JudgeError('call', 'socket hang up', { spent: { usage: spent } }), by });

function trial(over: Partial<PlannedCase>, judges: JudgeService) {
  const c = makePlannedCase(over, { suite: 'runner', file: 'runner.eval.ts', input: 'where is order 4711?' });
  return executeTrial(c, 0, {
    target: functionTarget('agent', () => 'order 4711 shipped'),
    judges,
    pricing: { overrides: {}, warnUnpriced: () => {} },
    skipJudgesOnGateFailure: true,
    signal: new AbortController().signal,
  });
}

describe('executeTrial and judged assertions', () => {
  it('counts the usage a failed judgment spent in the trial and in its error result', async () => {
    const judges = service(failing());
    const result = await trial(
      {
        assertions: [
          { type: 'contains', value: 'shipped' },
          { type: 'judge', criteria: 'polite' },
        ] as PlannedCase['assertions'],
      },
      judges,
    );
    expect(result.assertions[1]).toMatchObject({ status: 'error', severity: 'gate', message: 'judge "polite": judge call failed: socket hang up', judge: { ...by, usage: spent } });
    expect(result.usage.judge).toEqual(spent);
    expect(result.verdict).toBe('failed');
  });

  it('skips the judges of a trial whose gate failed, marking them gate-failed, without asking', async () => {
    const judges = service(failing());
    const result = await trial(
      {
        assertions: [
          { type: 'contains', value: 'refunded' },
          { type: 'judge', criteria: 'polite' },
        ] as PlannedCase['assertions'],
      },
      judges,
    );
    expect(result.assertions[1]).toMatchObject({ status: 'skipped', skipped: 'gate-failed' });
    expect(judges.asked).toEqual([]);
    expect(result.usage.judge.calls).toBe(0);
  });

  /** A check recording `contains(gate)`, then reading a judge (and recording one more when `more`). */
  async function readInCheck(gate: string, more = false) {
    const judges = service(failing());
    let seen: AssertionResult | undefined;
    const result = await trial(
      {
        check: async (t) => {
          t.contains(gate);
          seen = await t.judge().criteria('states the status').result();
          if (more) t.judge().criteria('never asked either');
        },
      },
      judges,
    );
    return { judges, seen, result };
  }

  it('judges a judge read inside check() once, and reports it as check() saw it, its usage counted once', async () => {
    const { judges, seen, result } = await readInCheck('shipped');
    expect(judges.asked).toEqual(['states the status']);
    expect(seen).toMatchObject({ status: 'error', judge: { usage: spent } });
    expect(result.assertions[1]).toEqual(seen);
    expect(result.usage.judge).toEqual(spent);
  });

  it('skips a judge read inside check() after a failed gate, with the skipped field', async () => {
    const { judges, seen, result } = await readInCheck('refunded', true);
    expect(seen).toMatchObject({ status: 'skipped', skipped: 'gate-failed' });
    expect(result.assertions.map((a) => a.skipped)).toEqual([undefined, 'gate-failed', 'gate-failed']);
    expect(judges.asked).toEqual([]);
  });
});
