/**
 * fromMastra over real Mastra `agent.generate()` results, on both lines: Mastra 0.24 (root) and 1.x
 * (the newest line), each on the AI SDK v5 providers (1.x takes them too), pointed at the fake
 * Anthropic and OpenAI servers (nothing mocked).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { createAnthropic } from '@ai-sdk/anthropic-v5';
import { createOpenAI } from '@ai-sdk/openai-v5';
import { z } from 'zod';
import { fromMastra } from '../../src/adapters/mastra.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { startFakeServer, type FakeProvider, type FakeServer } from '../support/fake-server.js';
import { installedMajor } from '../support/framework-line.js';

let fakes: Array<FakeProvider | FakeServer> = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

type Execute = NonNullable<Parameters<typeof createTool>[0]['execute']>;

/** A tool body over its input: Mastra 1.x calls `execute(inputData, context)`, 0.x `execute({ context })` with the input as `context`. */
function execute<I>(body: (input: I) => Promise<unknown>): Execute {
  const run = (installedMajor('@mastra/core') ?? 0) >= 1 ? (input: I) => body(input) : ({ context }: { context: I }) => body(context);
  return run as Execute;
}

const lookup = createTool({
  id: 'orders_lookup',
  description: 'Look an order up.',
  inputSchema: z.object({ orderId: z.string() }),
  execute: execute(async ({ orderId }: { orderId: string }) => ({ orderId, status: 'delivered' })),
});

type Config = ConstructorParameters<typeof Agent>[0];

function agent(model: Config['model'], tools: Config['tools'] = { orders_lookup: lookup }) {
  // Mastra 1.x requires the agent's id; 0.x takes it too.
  const support = new Agent({ id: 'support', name: 'support', instructions: 'Help.', model, tools });
  return new Mastra({ agents: { support }, logger: false }).getAgent('support');
}

describe('fromMastra', () => {
  it('adds Anthropic cache reads and writes back into inputTokens, so it is the whole prompt', async () => {
    const fake = await startFakeAnthropic({
      script: [
        { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1' } }], usage: { input: 50, cached: 1000, cacheWrite: 200, output: 30 } },
        { text: 'A1 was delivered.', usage: { input: 80, cached: 1200, output: 10 } },
      ],
    });
    fakes.push(fake);
    const model = createAnthropic({ baseURL: `${fake.url}/v1`, apiKey: 'k' })('claude-haiku-4-5');
    const result = await agent(model).generate('Where is A1?', { maxSteps: 3 });

    const run = fromMastra(result, { provider: 'anthropic' });
    expect(run).toEqual({
      reply: 'A1 was delivered.',
      steps: [
        {
          toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1' }, result: { orderId: 'A1', status: 'delivered' }, isError: false }],
          usage: { inputTokens: 1250, outputTokens: 30, cachedInputTokens: 1000, cacheWriteTokens: 200 },
          model: 'anthropic:claude-haiku-4-5',
        },
        { text: 'A1 was delivered.', usage: { inputTokens: 1280, outputTokens: 10, cachedInputTokens: 1200, cacheWriteTokens: 0 }, model: 'anthropic:claude-haiku-4-5' },
      ],
    });
    // The provider read from the model's metadata (`anthropic.messages`) gives the same run.
    expect(fromMastra(result)).toEqual(run);
  });

  // Mastra 1.x takes the AI SDK v7 providers too; the newest line installs @ai-sdk/anthropic 4, the root has only v5.
  it.runIf((installedMajor('@mastra/core') ?? 0) >= 1)('adds nothing to inputTokens of an AI SDK v7 Anthropic model under Mastra 1.x, whose usage counts cache reads and writes already', async () => {
    const fake = await startFakeAnthropic({
      script: [
        { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1' } }], usage: { input: 50, cached: 1000, cacheWrite: 200, output: 30 } },
        { text: 'A1 was delivered.', usage: { input: 80, cached: 1200, output: 10 } },
      ],
    });
    fakes.push(fake);
    // By a path TypeScript does not follow (the root has no @ai-sdk/anthropic 4), typed as the v5 factory it is called like.
    const v7 = '@ai-sdk/anthropic';
    const { createAnthropic: createAnthropicV7 } = (await import(v7)) as { createAnthropic: typeof createAnthropic };
    const result = await agent(createAnthropicV7({ baseURL: `${fake.url}/v1`, apiKey: 'k' })('claude-haiku-4-5')).generate('Where is A1?', { maxSteps: 3 });

    expect(fromMastra(result, { provider: 'anthropic' }).steps?.map((s) => s.usage)).toEqual([
      { inputTokens: 1250, outputTokens: 30, cachedInputTokens: 1000, cacheWriteTokens: 200 },
      { inputTokens: 1280, outputTokens: 10, cachedInputTokens: 1200, cacheWriteTokens: 0 },
    ]);
  });

  it('records arguments Mastra refused ({ error: true }) and a thrown tool error with isError: true', async () => {
    const fake = await startFakeOpenAI({
      script: [{ toolCalls: [{ name: 'orders_lookup', args: { orderId: 5 } }] }, { toolCalls: [{ name: 'crash', args: {} }] }, { text: 'Sorry.' }],
    });
    fakes.push(fake);
    const crash = createTool({
      id: 'crash',
      description: 'Always fails.',
      inputSchema: z.object({}),
      execute: execute(async () => {
        throw new Error('database unreachable');
      }),
    });
    const model = createOpenAI({ baseURL: fake.url, apiKey: 'k' }).chat('gpt-4.1-mini');
    const result = await agent(model, { orders_lookup: lookup, crash }).generate('Where is order 5?', { maxSteps: 4 });

    const calls = fromMastra(result).steps?.flatMap((s) => s.toolCalls ?? []);
    expect(calls).toEqual([
      {
        name: 'orders_lookup',
        args: { orderId: 5 },
        result: expect.objectContaining({ error: true, message: expect.stringMatching(/Tool (input )?validation failed for orders_lookup/) }),
        isError: true,
      },
      { name: 'crash', args: {}, result: 'database unreachable', isError: true },
    ]);
    expect(fromMastra(result).steps?.map((s) => s.model)).toEqual(['openai:gpt-4.1-mini', 'openai:gpt-4.1-mini', 'openai:gpt-4.1-mini']);
  });

  it('reads a streamed run once its full output is awaited', async () => {
    // Chat Completions streamed as the AI SDK asks for it: deltas, then a usage-only chunk.
    const sse = (chunks: object[]) =>
      chunks.map((c) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1-mini-2025-04-14', ...c })}\n\n`).join('') + 'data: [DONE]\n\n';
    const server = await startFakeServer((_req, index) => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: sse([
        index === 0
          ? {
              choices: [
                {
                  index: 0,
                  delta: { role: 'assistant', tool_calls: [{ index: 0, id: 't1', type: 'function', function: { name: 'orders_lookup', arguments: '{"orderId":"A1"}' } }] },
                  finish_reason: 'tool_calls',
                },
              ],
            }
          : { choices: [{ index: 0, delta: { role: 'assistant', content: 'Delivered.' }, finish_reason: 'stop' }] },
        { choices: [], usage: { prompt_tokens: 100 + index, completion_tokens: 5, total_tokens: 105 + index, prompt_tokens_details: { cached_tokens: 64 } } },
      ]),
    }));
    fakes.push(server);
    const model = createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'k' }).chat('gpt-4.1-mini');
    const output = await agent(model).stream('Where is A1?', { maxSteps: 3 });

    expect(fromMastra(await output.getFullOutput())).toEqual({
      reply: 'Delivered.',
      steps: [
        {
          toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1' }, result: { orderId: 'A1', status: 'delivered' }, isError: false }],
          usage: { inputTokens: 100, outputTokens: 5, cachedInputTokens: 64 },
          model: 'openai:gpt-4.1-mini-2025-04-14',
        },
        { text: 'Delivered.', usage: { inputTokens: 101, outputTokens: 5, cachedInputTokens: 64 }, model: 'openai:gpt-4.1-mini-2025-04-14' },
      ],
    });
  });
});
