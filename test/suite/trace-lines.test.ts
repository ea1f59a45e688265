import { describe, expect, it } from 'vitest';
import { recordedTrajectory } from '../../src/assertions/trajectory.js';
import { UserError } from '../../src/core/errors.js';
import { tracesFromLines } from '../../src/suite/trace-lines.js';

describe('tracesFromLines', () => {
  it('reads each line as a recorded run, its tool calls as one step, metadata kept', () => {
    const text = [
      JSON.stringify({
        id: 't1',
        time: '2026-11-30T10:00:00Z',
        input: 'where is A1050?',
        reply: 'shipped',
        toolCalls: [{ name: 'lookup_order', args: { id: 'A1050' } }],
        metadata: { agent: 'support' },
      }),
      '',
      JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], reply: 'hello', usage: { inputTokens: 3, outputTokens: 1 } }),
    ].join('\n');
    const [a, b] = tracesFromLines(text, 'prod.jsonl');
    expect(a).toEqual({
      id: 't1',
      startedAt: '2026-11-30T10:00:00Z',
      input: 'where is A1050?',
      run: { reply: 'shipped', steps: [{ toolCalls: [{ name: 'lookup_order', args: { id: 'A1050' } }] }] },
      metadata: { agent: 'support' },
      source: 'prod.jsonl:1',
    });
    expect(b).toMatchObject({ id: 'prod.jsonl:3', messages: [{ role: 'user', content: 'hi' }], run: { reply: 'hello', usage: { inputTokens: 3, outputTokens: 1 } }, source: 'prod.jsonl:3' });
  });

  it('an empty `toolCalls` records a run that called no tool (a trajectory, not a missing one); no `toolCalls` records none', () => {
    const [none, absent] = tracesFromLines([JSON.stringify({ input: 'a', reply: 'b', toolCalls: [] }), JSON.stringify({ input: 'a', reply: 'b' })].join('\n'), 'prod.jsonl');
    expect(none!.run).toEqual({ reply: 'b', steps: [] });
    expect(recordedTrajectory(none!.run)).toBe(true);
    expect(absent!.run).toEqual({ reply: 'b' });
    expect(recordedTrajectory(absent!.run)).toBe(false);
  });

  it('names the file, line and field of a bad line', () => {
    const bad = (text: string) => {
      try {
        tracesFromLines(text, 'prod.jsonl');
      } catch (err) {
        expect(err).toBeInstanceOf(UserError);
        return (err as Error).message;
      }
      throw new Error('no error');
    };
    expect(bad(`${JSON.stringify({ input: 'a', reply: 'b' })}\n{oops`)).toMatch(/^prod\.jsonl:2: not JSON/);
    expect(bad(JSON.stringify({ input: 'a' }))).toMatch(/^prod\.jsonl:1: reply: /);
    expect(bad(JSON.stringify({ reply: 'b' }))).toMatch(/^prod\.jsonl:1: input: a trace line has `input` or `messages`/);
    expect(bad(JSON.stringify({ input: 'a', reply: 'b', extra: 1 }))).toMatch(/^prod\.jsonl:1: extra: unknown field|prod\.jsonl:1: .*extra/);
  });
});
