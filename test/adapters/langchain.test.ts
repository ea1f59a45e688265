/**
 * fromLangChain over real @langchain/core messages and the plain shapes they serialize to
 * (`toJSON()`, stored messages, `{ role }` objects): steps, tool calls joined by id, errors, usage.
 * On both lines: LangGraph 0.4 with @langchain/core 0.3 (root) and LangGraph 1.x with core 1.x (newest).
 */
import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, mapChatMessagesToStoredMessages } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { fromLangChain } from '../../src/adapters/langchain.js';
import { startFakeOpenAI } from '../support/fake-openai.js';

const meta = { model_provider: 'anthropic', model_name: 'claude-haiku-4-5-20251001' };

/** One turn of an agent: a call that succeeds, one that fails, then the answer. */
function conversation() {
  return [
    new SystemMessage('You are a store agent.'),
    new HumanMessage('Refund A1 and B2'),
    new AIMessage({
      content: [{ type: 'text', text: 'Looking both up.' }],
      tool_calls: [
        { id: 't1', name: 'orders_lookup', args: { orderId: 'A1' } },
        { id: 't2', name: 'refunds_issue', args: { orderId: 'B2' } },
      ],
      usage_metadata: { input_tokens: 1200, output_tokens: 40, total_tokens: 1240, input_token_details: { cache_read: 800, cache_creation: 300 }, output_token_details: { reasoning: 12 } },
      response_metadata: meta,
    }),
    new ToolMessage({ tool_call_id: 't1', content: '{"orderId":"A1","status":"delivered"}' }),
    new ToolMessage({ tool_call_id: 't2', content: 'Error: order B2 is not delivered yet', status: 'error' }),
    new AIMessage({ content: 'A1 is refunded; B2 is not delivered yet.', usage_metadata: { input_tokens: 1400, output_tokens: 20, total_tokens: 1420 }, response_metadata: meta }),
  ];
}

const expected = {
  reply: 'A1 is refunded; B2 is not delivered yet.',
  instructions: 'You are a store agent.',
  steps: [
    {
      text: 'Looking both up.',
      toolCalls: [
        { name: 'orders_lookup', args: { orderId: 'A1' }, result: { orderId: 'A1', status: 'delivered' }, isError: false },
        { name: 'refunds_issue', args: { orderId: 'B2' }, result: 'Error: order B2 is not delivered yet', isError: true },
      ],
      usage: { inputTokens: 1200, outputTokens: 40, cachedInputTokens: 800, cacheWriteTokens: 300, reasoningTokens: 12 },
      model: 'anthropic:claude-haiku-4-5-20251001',
    },
    { text: 'A1 is refunded; B2 is not delivered yet.', usage: { inputTokens: 1400, outputTokens: 20 }, model: 'anthropic:claude-haiku-4-5-20251001' },
  ],
};

describe('fromLangChain', () => {
  it('makes one step per AI message, joining tool calls with the tool messages that answer them', () => {
    expect(fromLangChain(conversation())).toEqual(expected);
  });

  it('reads the toJSON() form of the same messages alike', () => {
    expect(fromLangChain(JSON.parse(JSON.stringify(conversation())))).toEqual(expected);
  });

  it('reads stored messages ({ type, data }) alike', () => {
    expect(fromLangChain(mapChatMessagesToStoredMessages(conversation()))).toEqual(expected);
  });

  it('reads plain { role } messages with OpenAI-style tool calls', () => {
    const run = fromLangChain([
      { role: 'user', content: 'Where is A1?' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', function: { name: 'orders_lookup', arguments: '{"orderId":"A1"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '42' },
      { role: 'assistant', content: 'Delivered.' },
    ]);
    // Text that is not a JSON object or array stays text.
    expect(run).toEqual({ reply: 'Delivered.', steps: [{ toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1' }, result: '42', isError: false }] }, { text: 'Delivered.' }] });
  });

  it('keeps only the turn after `since` (a count of earlier messages, or the last earlier message)', () => {
    const first = conversation();
    const second = [...first, new HumanMessage('And C3?'), new AIMessage({ content: 'No order C3.', response_metadata: { model_provider: 'openai', model_name: 'gpt-4.1-mini' } })];
    const turn2 = { reply: 'No order C3.', instructions: 'You are a store agent.', steps: [{ text: 'No order C3.', model: 'openai:gpt-4.1-mini' }] };
    expect(fromLangChain(second, { since: first.length })).toEqual(turn2);
    expect(fromLangChain(second, { since: first.at(-1)! })).toEqual(turn2);
    // The same message found by id in a serialized copy of the list.
    const withId = new AIMessage({ id: 'm-9', content: 'x' });
    expect(fromLangChain(JSON.parse(JSON.stringify([withId, ...second.slice(1)])), { since: withId }).steps).toHaveLength(3);
    expect(() => fromLangChain(second, { since: second.length + 1 })).toThrow(RangeError);
    expect(() => fromLangChain(second, { since: new HumanMessage('elsewhere') })).toThrow(/not in the list/);
  });

  it('records tool calls whose arguments were not valid JSON as errors', () => {
    const run = fromLangChain([new AIMessage({ content: '', invalid_tool_calls: [{ id: 'bad', name: 'orders_lookup', args: '{"orderId":', error: 'Malformed args.', type: 'invalid_tool_call' }] })]);
    expect(run.steps?.[0]?.toolCalls).toEqual([{ name: 'orders_lookup', args: '{"orderId":', result: 'Malformed args.', isError: true }]);
  });

  it("keeps a checkpointed LangGraph conversation's second turn apart from its first with `since`", async () => {
    const fake = await startFakeOpenAI({
      script: [
        { toolCalls: [{ id: 'turn1', name: 'orders_lookup', args: { orderId: 'A1' } }], usage: { input: 100, output: 10 } },
        { text: 'A1 is delivered.', usage: { input: 150, output: 8 } },
        { toolCalls: [{ id: 'turn2', name: 'orders_lookup', args: { orderId: 'B2' } }], usage: { input: 200, output: 10 } },
        { text: 'B2 is on its way.', usage: { input: 250, output: 9 } },
      ],
    });
    try {
      // The input is left untyped: @langchain/core 0.3 types schemas against the zod it bundles, not zod 4.
      const lookup = tool((input) => JSON.stringify(input), { name: 'orders_lookup', description: 'Look an order up.', schema: z.object({ orderId: z.string() }) });
      const llm = new ChatOpenAI({ model: 'gpt-4.1-mini', apiKey: 'k', configuration: { baseURL: fake.url } });
      const graph = createReactAgent({ llm, tools: [lookup], checkpointSaver: new MemorySaver() });
      const thread = { configurable: { thread_id: 't' } };
      const first = await graph.invoke({ messages: [{ role: 'user', content: 'Where is A1?' }] }, thread);
      const second = await graph.invoke({ messages: [{ role: 'user', content: 'And B2?' }] }, thread);

      // The state holds both turns; the run of turn 2 holds only its own call and usage.
      expect(second.messages.length).toBeGreaterThan(first.messages.length);
      const run = fromLangChain(second.messages, { since: first.messages.length });
      expect(run.reply).toBe('B2 is on its way.');
      expect(run.steps?.flatMap((s) => s.toolCalls ?? [])).toEqual([{ name: 'orders_lookup', args: { orderId: 'B2' }, result: { orderId: 'B2' }, isError: false }]);
      expect(run.steps?.map((s) => s.usage?.inputTokens)).toEqual([200, 250]);
      // The provider given prefixes the model, also where the messages do not name it (@langchain/core 0.3).
      expect(fromLangChain(second.messages, { since: first.messages.length, provider: 'openai' }).steps?.map((s) => s.model)).toEqual(['openai:gpt-4.1-mini', 'openai:gpt-4.1-mini']);
    } finally {
      await fake.close();
    }
  });
});
