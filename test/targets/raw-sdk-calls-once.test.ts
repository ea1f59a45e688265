/**
 * Tool calls read off the wire through ctx.fetch are each one call: not again when a later request
 * (the next turn's history) repeats them, not again when the target also runs them with ctx.tool,
 * and a call no request answers stays without a result. Real `openai` SDK, fake server.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { toolCallsOf } from '../../src/core/agent-run.js';
import { functionTarget, type TargetContext } from '../../src/targets/function-target.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { chatAgent, OPENAI_MODEL, refundScript } from '../support/raw-sdk-agents.js';
import { never, trialInput } from './helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const client = (ctx: TargetContext, url: string) => new OpenAI({ apiKey: 'sk-raw', baseURL: url, fetch: ctx.fetch('openai'), maxRetries: 0 });
const lookupTool: OpenAI.Chat.ChatCompletionFunctionTool = { type: 'function', function: { name: 'orders_lookup', parameters: { type: 'object', properties: { orderId: { type: 'string' } } } } };

describe('tool calls read off the wire, each once', () => {
  it('a second turn whose request repeats the first turn’s calls and results records no call again', async () => {
    const server = (fake = await startFakeOpenAI({ script: refundScript }));
    const target = functionTarget('chat', async (input, ctx) => {
      // The agent keeps its own history (tool calls and results included) in the session.
      const messages = (ctx.session.messages ??= []) as OpenAI.Chat.ChatCompletionMessageParam[];
      messages.push({ role: 'user', content: input });
      const reply = await chatAgent(messages, client(ctx, server.url), false);
      return reply;
    });
    const session = await target.openSession!(trialInput('Please refund order A1.'), never);
    const first = await session.send('Please refund order A1.', never);
    const second = await session.send('Thanks!', never);
    expect(toolCallsOf(first).map((c) => c.name)).toEqual(['orders_lookup', 'refunds_issue']);
    // The second turn's request carried both calls and results again: one model call, no tool call.
    expect(server.bodies[3].messages.filter((m: { role: string }) => m.role === 'tool')).toHaveLength(2);
    expect(second.steps).toEqual([{ usage: expect.objectContaining({ inputTokens: 10 }), model: `openai:${OPENAI_MODEL}` }]);
  });

  it('a call the target also runs with ctx.tool is recorded once, as ctx.tool recorded it', async () => {
    const server = (fake = await startFakeOpenAI({ script: [{ toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1' } }] }, { text: 'Delivered.' }] }));
    const target = functionTarget('with-ctx-tool', async (input, ctx) => {
      const openai = client(ctx, server.url);
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: input }];
      const first = (await openai.chat.completions.create({ model: OPENAI_MODEL, messages, tools: [lookupTool] })).choices[0]!.message;
      const call = first.tool_calls![0]!;
      if (call.type !== 'function') throw new Error('expected a function call');
      const result = await ctx.tool('orders_lookup', JSON.parse(call.function.arguments) as unknown, () => ({ status: 'delivered' }));
      messages.push({ role: 'assistant', content: first.content, tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
      return (await openai.chat.completions.create({ model: OPENAI_MODEL, messages, tools: [lookupTool] })).choices[0]!.message.content ?? '';
    });
    const run = await target.run(trialInput('Where is order A1?'), never);
    expect(toolCallsOf(run)).toEqual([{ name: 'orders_lookup', args: { orderId: 'A1' }, result: { status: 'delivered' }, isError: false, durationMs: expect.any(Number) }]);
    expect(run.steps!.filter((s) => s.usage)).toHaveLength(2);
  });

  it('a call no later request answers stays a tool call without a result', async () => {
    const server = (fake = await startFakeOpenAI({ script: [{ toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1' } }] }] }));
    const target = functionTarget('gives-up', async (input, ctx) => {
      await client(ctx, server.url).chat.completions.create({ model: OPENAI_MODEL, messages: [{ role: 'user', content: input }], tools: [lookupTool] });
      return 'I will not look it up after all.';
    });
    const run = await target.run(trialInput('Where is order A1?'), never);
    expect(toolCallsOf(run)).toEqual([{ name: 'orders_lookup', args: { orderId: 'A1' } }]);
  });
});
