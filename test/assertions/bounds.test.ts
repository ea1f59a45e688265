import { describe, it, expect } from 'vitest';
import { check, makeCtx } from './helpers.js';

describe('maxSteps', () => {
  it('counts run steps, 0 when there are none', () => {
    expect(check({ type: 'maxSteps', max: 0 }, makeCtx())).toEqual({ score: 1, message: 'maxSteps 0: 0 steps' });
    const three = makeCtx({ steps: [{}, { text: 'a' }, { toolCalls: [] }] });
    expect(check({ type: 'maxSteps', max: 3 }, three)).toEqual({ score: 1, message: 'maxSteps 3: 3 steps' });
    expect(check({ type: 'maxSteps', max: 2 }, three)).toEqual({ score: 0, message: 'maxSteps 2: 3 steps' });
  });
});

describe('maxTokens', () => {
  it('sums input and output tokens', () => {
    const ctx = makeCtx({ usage: { inputTokens: 800, outputTokens: 400, cachedInputTokens: 700, reasoningTokens: 50 } });
    expect(check({ type: 'maxTokens', max: 1200 }, ctx)).toEqual({ score: 1, message: 'maxTokens 1200: 1200 tokens (800 input + 400 output)' });
    expect(check({ type: 'maxTokens', max: 1199 }, ctx)).toEqual({ score: 0, message: 'maxTokens 1199: 1200 tokens (800 input + 400 output)' });
  });
});

describe('maxLatencyMs', () => {
  it('compares the trial duration', () => {
    expect(check({ type: 'maxLatencyMs', max: 5000 }, makeCtx({ durationMs: 4200 }))).toEqual({ score: 1, message: 'maxLatencyMs 5000: took 4200 ms' });
    expect(check({ type: 'maxLatencyMs', max: 5000 }, makeCtx({ durationMs: 5000.04 }))).toEqual({ score: 0, message: 'maxLatencyMs 5000: took 5000.0 ms' });
  });
});

describe('maxCostUsd', () => {
  it('passes within budget and fails over it', () => {
    expect(check({ type: 'maxCostUsd', max: 0.05 }, makeCtx({ usage: { costUsd: 0.0123 } }))).toEqual({ score: 1, message: 'maxCostUsd 0.05: cost $0.0123' });
    expect(check({ type: 'maxCostUsd', max: 0.05 }, makeCtx({ usage: { costUsd: 0.07123456 } }))).toEqual({ score: 0, message: 'maxCostUsd 0.05: cost $0.07123' });
  });
  it('never prints an over-budget cost as equal to the budget', () => {
    expect(check({ type: 'maxCostUsd', max: 0.05 }, makeCtx({ usage: { costUsd: 0.0500001 } }))).toEqual({ score: 0, message: 'maxCostUsd 0.05: cost $0.0500001' });
  });
  it('fails when the cost is unknown, never treating it as 0', () => {
    expect(check({ type: 'maxCostUsd', max: 100 }, makeCtx({ usage: { costUsd: null }, model: 'acme:mystery-1' }))).toEqual({
      score: 0,
      message: 'maxCostUsd 100: cost unknown (model acme:mystery-1 has no known price)',
    });
    expect(check({ type: 'maxCostUsd', max: 100 }, makeCtx({ usage: { costUsd: null } })).message).toBe('maxCostUsd 100: cost unknown (the model has no known price)');
  });
});

describe('a trial whose target recorded nothing', () => {
  const replyAlone = (extra: Parameters<typeof makeCtx>[0] = {}) => ({ ...makeCtx(extra), target: { name: 'agent', recordedTrajectory: false } });
  const unknown = (bound: string) =>
    `${bound}: unknown: target "agent" recorded no model call and no usage (a function target records them through ctx.openai(), ctx.anthropic(), ctx.fetch or ctx.usage, or returns { reply, usage })`;

  it('fails maxSteps, maxTokens and maxCostUsd as unknown rather than passing them on zero', () => {
    expect(check({ type: 'maxSteps', max: 4 }, replyAlone())).toEqual({ score: 0, message: unknown('maxSteps 4') });
    expect(check({ type: 'maxCostUsd', max: 0.01 }, replyAlone())).toEqual({ score: 0, message: unknown('maxCostUsd 0.01') });
    expect(check({ type: 'maxTokens', max: 10 }, replyAlone())).toEqual({ score: 0, message: unknown('maxTokens 10') });
    // Wall time is measured by the runner whatever the target recorded.
    expect(check({ type: 'maxLatencyMs', max: 10 }, replyAlone({ durationMs: 5 })).score).toBe(1);
  });

  it('reads usage the target returned (or a recorded trace gave) without a trajectory', () => {
    const ctx = replyAlone({ usage: { inputTokens: 5, outputTokens: 3, costUsd: 0.001 } });
    const withUsage = { ...ctx, run: { ...ctx.run, usage: { inputTokens: 5, outputTokens: 3 } } };
    expect(check({ type: 'maxTokens', max: 10 }, withUsage)).toEqual({ score: 1, message: 'maxTokens 10: 8 tokens (5 input + 3 output)' });
    expect(check({ type: 'maxCostUsd', max: 0.01 }, withUsage).score).toBe(1);
    // A trajectory (ctx.tool steps, or `steps: []` returned: it only replied) with no model call is a measured zero.
    expect(check({ type: 'maxSteps', max: 0 }, { ...makeCtx({ steps: [] }), target: { name: 'agent', recordedTrajectory: true } })).toEqual({ score: 1, message: 'maxSteps 0: 0 steps' });
    expect(check({ type: 'maxTokens', max: 0 }, { ...makeCtx({ steps: [] }), target: { name: 'agent', recordedTrajectory: true } }).score).toBe(1);
  });
});
