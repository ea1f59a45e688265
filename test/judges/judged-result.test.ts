/**
 * `judgedResult` is the one place a judged assertion's result is built: from a score, a typed
 * judge failure, no judge, or a skip. Pure: no judge, no server.
 */
import { describe, expect, it } from 'vitest';
import { JudgeError, JudgeProtocolError, JudgeResponseError } from '../../src/core/errors.js';
import type { AgentRun } from '../../src/core/agent-run.js';
import { emptyUsage, type Usage } from '../../src/core/usage.js';
import type { JudgeAssertionSpec } from '../../src/judges/spec.js';
import { judgedResult } from '../../src/judges/judged-result.js';

const defaults = { severity: 'soft' as const, threshold: 0.7 };
const spec: JudgeAssertionSpec = { type: 'judge', criteria: 'states the status' };
const by = { provider: 'openai', model: 'gpt-4.1-mini' };
const usage: Usage = { calls: 2, inputTokens: 300, outputTokens: 30, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0.0002 };
const judgeRun: AgentRun = { reply: '', model: 'openai:gpt-4.1-mini', stopReason: 'protocol_error', steps: [{ toolCalls: [{ name: 'lookup', args: {} }] }, { toolCalls: [] }] };

describe('judgedResult', () => {
  it('marks a judge skipped for a failed gate with the skipped field, at zero usage', () => {
    const { result, usage: spent } = judgedResult(spec, defaults, { kind: 'skipped', skipped: 'gate-failed' });
    expect(result).toMatchObject({ status: 'skipped', skipped: 'gate-failed', severity: 'soft', score: 0, threshold: 0.7 });
    expect(spent).toEqual(emptyUsage());
  });

  it('turns a judge error into an error result that gates, carrying the usage and the run it spent', () => {
    const error = new JudgeProtocolError('judge stopped by maxSteps (2) before calling submit_judgment', usage, judgeRun);
    const { result, usage: spent } = judgedResult({ ...spec, severity: 'soft' }, defaults, { kind: 'failed', error, by });
    expect(result).toMatchObject({
      status: 'error',
      severity: 'gate',
      score: 0,
      message: 'judge "states the status": JudgeProtocolError: judge stopped by maxSteps (2) before calling submit_judgment',
      judge: { provider: 'openai', model: 'gpt-4.1-mini', usage, steps: 2, toolCalls: 1, run: judgeRun },
    });
    expect(result.skipped).toBeUndefined();
    expect(spent).toEqual(usage);
  });

  it("keeps an invalid answer's raw text and names each kind of failure", () => {
    const invalid = judgedResult(spec, defaults, { kind: 'failed', error: new JudgeResponseError('not JSON', 'RAW-ANSWER', usage), by });
    expect(invalid.result).toMatchObject({ status: 'error', raw: 'RAW-ANSWER', message: 'judge "states the status": judge response invalid: not JSON' });
    expect(invalid.usage).toEqual(usage);
    const call = judgedResult(spec, defaults, { kind: 'failed', error: new JudgeError('call', 'socket hang up'), by });
    expect(call.result.message).toBe('judge "states the status": judge call failed: socket hang up');
    expect(call.usage).toEqual(emptyUsage());
    // A judge that could not be built answered nothing: no judge block in the result.
    const unavailable = judgedResult(spec, defaults, { kind: 'failed', error: new JudgeError('unavailable', 'missing API key for openai: set OPENAI_API_KEY') });
    expect(unavailable.result.message).toBe('judge "states the status": missing API key for openai: set OPENAI_API_KEY');
    expect(unavailable.result.judge).toBeUndefined();
  });

  it('fails a missing judge as a gate', () => {
    expect(judgedResult(spec, defaults, { kind: 'no-judge' }).result).toMatchObject({ status: 'failed', severity: 'gate', message: 'No judge configured.' });
  });

  it('decides pass from the score, the threshold and the dimension minimums, never from the judge', () => {
    const score = (s: number, dimensions?: Record<string, number>) => ({ score: s, reason: 'r', evidence: [], usage, ...(dimensions ? { dimensions } : {}) });
    expect(judgedResult(spec, defaults, { kind: 'scored', score: score(0.7), by }).result).toMatchObject({ status: 'passed', message: 'judge "states the status": score 0.70 ≥ 0.70' });
    expect(judgedResult(spec, defaults, { kind: 'scored', score: score(0.69), by }).result.status).toBe('failed');
    const dims: JudgeAssertionSpec = { ...spec, dimensions: { accuracy: 0.8 } };
    const low = judgedResult(dims, defaults, { kind: 'scored', score: score(0.9, { accuracy: 0.5 }), by });
    expect(low.result).toMatchObject({ status: 'failed', message: 'judge "states the status": dimension below minimum: accuracy 0.50 < 0.80', dimensions: { accuracy: { score: 0.5, min: 0.8 } } });
    expect(low.usage).toEqual(usage);
  });
});
