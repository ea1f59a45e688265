import { describe, it, expect } from 'vitest';
import { defaultSeverityOf, evaluateDeterministic, type DeterministicSpec } from '../../src/assertions/evaluate.js';
import { call, makeCtx } from './helpers.js';

const ctx = makeCtx({ reply: 'Refund issued.', calls: [call('refunds_issue', { order: 'A1' })] });

describe('evaluateDeterministic', () => {
  it('dispatches YAML types through the registry', async () => {
    expect(await evaluateDeterministic({ type: 'contains', value: 'Refund' }, ctx)).toEqual({ score: 1, message: 'contains "Refund": found at char 1' });
    expect(await evaluateDeterministic({ type: 'notCalledTool', tool: 'refunds_issue' }, ctx)).toEqual({
      score: 0,
      message: 'notCalledTool refunds_issue: called 1 time',
    });
  });
  it('runs custom assertions', async () => {
    expect(await evaluateDeterministic({ type: 'custom', name: 'short', fn: (c) => c.reply.length < 5 }, ctx)).toEqual({
      score: 0,
      message: 'custom short: returned false',
    });
  });
  it('turns a check that throws into a score-0 outcome', async () => {
    const broken = { type: 'containsAll', values: undefined } as unknown as DeterministicSpec;
    const out = await evaluateDeterministic(broken, ctx);
    expect(out.score).toBe(0);
    expect(out.message).toMatch(/^containsAll threw: /);
  });
  it('reports an unknown type instead of throwing', async () => {
    const unknown = { type: 'telepathy' } as unknown as DeterministicSpec;
    expect(await evaluateDeterministic(unknown, ctx)).toEqual({ score: 0, message: 'unknown assertion type "telepathy"' });
  });
});

describe('defaultSeverityOf', () => {
  it('knows deterministic types and falls back to gate', () => {
    expect(defaultSeverityOf('notCalledTool')).toBe('gate');
    expect(defaultSeverityOf('similarity')).toBe('soft');
    expect(defaultSeverityOf('custom')).toBe('gate');
    expect(defaultSeverityOf('notAType')).toBe('gate');
  });
});
