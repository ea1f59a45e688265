/**
 * Every error class lives in core/errors.ts and is recognised by class; what a failed call spent
 * travels one way, as `spent` on the error.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentEvalsError,
  CriterionError,
  JudgeError,
  JudgeProtocolError,
  JudgeResponseError,
  ProviderConfigError,
  ProviderError,
  TimeoutError,
  UserError,
  UserErrors,
  spentOf,
  withSpent,
} from '../../src/core/errors.js';
import type { AgentRun } from '../../src/core/agent-run.js';
import type { Usage } from '../../src/core/usage.js';
import { withPartialRun } from '../../src/targets/partial-run.js';

const usage: Usage = { calls: 1, inputTokens: 50, outputTokens: 8, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0.00003 };
const run: AgentRun = { reply: '', steps: [{ usage: { inputTokens: 50, outputTokens: 8 }, model: 'openai:gpt-4.1-mini' }] };

describe('error classes', () => {
  it('are all AgentEvalsErrors, told apart by class and named after it', () => {
    const errors = [
      new UserError('bad field', { file: 'a.yaml', line: 3, field: 'x' }),
      new UserErrors([new UserError('one')]),
      new ProviderConfigError('missing API key for openai: set OPENAI_API_KEY'),
      new ProviderError('openai', 'rate_limit', 'rate limited'),
      new TimeoutError(500),
      new JudgeProtocolError('no submission'),
    ];
    for (const e of errors) {
      expect(e).toBeInstanceOf(AgentEvalsError);
      expect(e.name).toBe(e.constructor.name);
    }
    // Recognition is by class: no code string to match on.
    expect('code' in new ProviderConfigError('x')).toBe(false);
    expect(new ProviderConfigError('x')).not.toBeInstanceOf(UserError);
  });

  it('judge failures are JudgeErrors whose kind says what went wrong, with what they spent', () => {
    const protocol = new JudgeProtocolError('judge stopped by maxSteps (2)', usage, run);
    expect(protocol).toBeInstanceOf(JudgeError);
    expect(protocol).toMatchObject({ kind: 'protocol', spent: { usage, run } });
    const response = new JudgeResponseError('not JSON', 'RAW', usage);
    expect(response).toMatchObject({ kind: 'response', raw: 'RAW', spent: { usage }, message: 'judge response invalid: not JSON' });
    expect(new CriterionError('needs a reference')).toMatchObject({ kind: 'criterion' });
    expect(spentOf(new JudgeResponseError('not JSON', 'RAW'))).toEqual({});
  });
});

describe('spent: the one way partial spend travels', () => {
  it('marks an error of ours in place, so whoever catches that same error reads it', () => {
    const timeout = new TimeoutError(500);
    expect(withSpent(timeout, { run })).toBe(timeout);
    expect(spentOf(timeout)).toEqual({ run });
    expect(withPartialRun(timeout, run)).toBe(timeout);
  });

  it('wraps anything else thrown, keeping its message and cause', () => {
    const thrown = new Error('the user code failed');
    const wrapped = withPartialRun(thrown, run);
    expect(wrapped).toBeInstanceOf(AgentEvalsError);
    expect(wrapped.message).toBe('the user code failed');
    expect(wrapped.cause).toBe(thrown);
    expect(spentOf(wrapped).run).toBe(run);
    expect(spentOf(withPartialRun('a string', run))).toEqual({ run });
    // Nothing spent: the error stays as it was.
    expect(withPartialRun(thrown, { reply: '', steps: [] })).toBe(thrown);
    expect(spentOf(thrown)).toEqual({});
  });
});
