/** Function targets in a conversation: one call per user turn, with the whole history in ctx.messages. */
import { describe, expect, it } from 'vitest';
import { functionTarget, type TargetContext } from '../../src/targets/function-target.js';
import { never, trialInput } from './helpers.js';

describe('function target sessions', () => {
  it('calls the function once per turn with the conversation so far', async () => {
    const seen: Array<{ input: string; turn: number; messages: TargetContext['messages'] }> = [];
    const target = functionTarget('echo', async (input, ctx) => {
      seen.push({ input, turn: ctx.turn, messages: ctx.messages });
      await ctx.tool('note', { input }, () => 'noted');
      return `#${ctx.turn} ${input}`;
    });
    const history = [
      { role: 'system' as const, content: 'be nice' },
      { role: 'user' as const, content: 'hi' },
      { role: 'assistant' as const, content: 'hello' },
      { role: 'user' as const, content: 'first' },
    ];
    const session = await target.openSession!(trialInput('first', { messages: history }), never);
    const a = await session.send('first', never);
    const b = await session.send('second', never);
    await session.close();

    expect([a.reply, b.reply]).toEqual(['#1 first', '#2 second']);
    expect(b.steps).toEqual([{ toolCalls: [expect.objectContaining({ name: 'note', args: { input: 'second' }, result: 'noted' })] }]);
    expect(seen[0]!.messages).toEqual(history);
    expect(seen[1]).toEqual({
      input: 'second',
      turn: 2,
      messages: [...history, { role: 'assistant', content: '#1 first' }, { role: 'user', content: 'second' }],
    });
  });

  it('hands each single-turn call and each session its own ctx.session, kept across the turns of one session', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const target = functionTarget('counter', async (input, ctx) => {
      seen.push(ctx.session);
      ctx.session.count = ((ctx.session.count as number | undefined) ?? 0) + 1;
      return String(ctx.session.count);
    });
    expect((await target.run(trialInput('a'), never)).reply).toBe('1');
    expect((await target.run(trialInput('a'), never)).reply).toBe('1');
    const one = await target.openSession!(trialInput('a'), never);
    const two = await target.openSession!(trialInput('a'), never);
    expect([(await one.send('a', never)).reply, (await one.send('b', never)).reply, (await two.send('a', never)).reply]).toEqual(['1', '2', '1']);
    expect(new Set(seen).size).toBe(4);
  });
});
