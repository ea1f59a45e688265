/**
 * fromAISDK over results of the real `ai` (generateText and streamText) with `@ai-sdk/openai`
 * pointed at the fake OpenAI server, plus the usage shapes OpenAI never sends (cache writes, no
 * usage at all) as the AI SDK types state them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { fromAISDK, type AISDKStep } from '../../src/adapters/ai-sdk.js';
import { AgentRunSchema } from '../../src/core/agent-run.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, Script } from '../support/fake-server.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const MODEL = 'gpt-4.1-mini-2025-04-14';

const tools = {
  lookup: tool({ description: 'Look an order up', inputSchema: z.object({ id: z.string() }), execute: async ({ id }) => ({ id, status: 'shipped' }) }),
  explode: tool({
    description: 'Always fails',
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw new Error('kaboom');
    },
  }),
};

/** One step with four calls (fine, throwing, invalid arguments, unknown tool), then an answer. */
const faultyScript: Script = [
  {
    toolCalls: [
      { id: 'c1', name: 'lookup', args: { id: 'A1' } },
      { id: 'c2', name: 'explode', args: {} },
      { id: 'c3', name: 'lookup', args: { id: 7 } },
      { id: 'c4', name: 'teleport', args: { to: 'moon' } },
    ],
    text: 'Checking.',
    usage: { input: 120, output: 30, cached: 40, reasoning: 6 },
    model: MODEL,
  },
  { text: 'Order A1 is shipped.', usage: { input: 300, output: 12 }, model: MODEL },
];

async function openai(script: Script) {
  fake = await startFakeOpenAI({ script });
  return createOpenAI({ baseURL: fake.url, apiKey: 'sk-test' });
}

const expectedSteps = [
  {
    text: 'Checking.',
    toolCalls: [
      { name: 'lookup', args: { id: 'A1' }, result: { id: 'A1', status: 'shipped' }, isError: false },
      { name: 'explode', args: {}, result: 'kaboom', isError: true },
      { name: 'lookup', args: { id: 7 }, result: expect.stringMatching(/^Invalid input for tool lookup/), isError: true },
      { name: 'teleport', args: { to: 'moon' }, result: expect.stringContaining("unavailable tool 'teleport'"), isError: true },
    ],
    usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 40, reasoningTokens: 6 },
    model: `openai:${MODEL}`,
  },
  { text: 'Order A1 is shipped.', usage: { inputTokens: 300, outputTokens: 12, cachedInputTokens: 0, reasoningTokens: 0 }, model: `openai:${MODEL}` },
];

describe('fromAISDK', () => {
  it('maps a generateText result: one step per step, tool calls joined with results and errors, usage and provider:model', async () => {
    const provider = await openai(faultyScript);
    const result = await generateText({ model: provider.chat('gpt-4.1-mini'), prompt: 'Where is A1?', tools, stopWhen: stepCountIs(4) });
    const run = fromAISDK(result, { instructions: 'Be brief.' });
    expect(run).toEqual({ reply: 'Order A1 is shipped.', steps: expectedSteps, stopReason: 'stop', instructions: 'Be brief.' });
    expect(AgentRunSchema.parse(run)).toEqual(run);
  });

  it('maps an awaited streamText result (through the streaming fake) to the same run', async () => {
    const provider = await openai(faultyScript);
    const result = streamText({ model: provider.chat('gpt-4.1-mini'), prompt: 'Where is A1?', tools, stopWhen: stepCountIs(4) });
    const pending = fromAISDK(result);
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ reply: 'Order A1 is shipped.', steps: expectedSteps, stopReason: 'stop' });
    expect(fake!.bodies.map((b) => [b.stream, b.stream_options?.include_usage])).toEqual([
      [true, true],
      [true, true],
    ]);
  });

  it('records a call the SDK did not run (a tool without execute) with no result and no error flag', async () => {
    const provider = await openai([{ toolCalls: [{ id: 'c1', name: 'handoff', args: { team: 'billing' } }], usage: { input: 50, output: 9 }, model: MODEL }]);
    const result = await generateText({
      model: provider.chat('gpt-4.1-mini'),
      prompt: 'Billing question',
      tools: { handoff: tool({ description: 'Hand the chat over', inputSchema: z.object({ team: z.string() }) }) },
    });
    const run = fromAISDK(result);
    expect(run.steps).toEqual([
      { toolCalls: [{ name: 'handoff', args: { team: 'billing' } }], usage: { inputTokens: 50, outputTokens: 9, cachedInputTokens: 0, reasoningTokens: 0 }, model: `openai:${MODEL}` },
    ]);
    expect(run.stopReason).toBe('tool-calls');
    expect(run.reply).toBe('');
  });

  it('reads cache writes and the older usage names, and marks a step without usage as a call of unknown cost', () => {
    const step = (over: Partial<AISDKStep>): AISDKStep => ({ content: [], text: '', model: { provider: 'anthropic.messages', modelId: 'claude-sonnet-4-6' }, ...over });
    const run = fromAISDK({
      text: 'done',
      finishReason: 'stop',
      steps: [
        step({ usage: { inputTokens: 1000, outputTokens: 20, inputTokenDetails: { cacheReadTokens: 600, cacheWriteTokens: 300 }, outputTokenDetails: { reasoningTokens: 5 } } }),
        step({ usage: { inputTokens: 10, outputTokens: 2, cachedInputTokens: 4, reasoningTokens: 1 }, response: { modelId: 'claude-sonnet-4-6-20260101' } }),
        step({ usage: { inputTokens: undefined, outputTokens: undefined }, text: 'done' }),
      ],
    });
    expect(run.steps).toEqual([
      { usage: { inputTokens: 1000, outputTokens: 20, cachedInputTokens: 600, reasoningTokens: 5, cacheWriteTokens: 300 }, model: 'anthropic:claude-sonnet-4-6' },
      { usage: { inputTokens: 10, outputTokens: 2, cachedInputTokens: 4, reasoningTokens: 1 }, model: 'anthropic:claude-sonnet-4-6-20260101' },
      { text: 'done', usageUnknown: true, model: 'anthropic:claude-sonnet-4-6' },
    ]);
  });

  it('keeps the final result of a tool that streamed preliminary outputs', () => {
    const run = fromAISDK({
      text: '',
      steps: [
        {
          text: '',
          content: [
            { type: 'tool-call', toolCallId: 't1', toolName: 'search', input: { q: 'x' } },
            { type: 'tool-result', toolCallId: 't1', toolName: 'search', input: { q: 'x' }, output: 'partial', preliminary: true },
            { type: 'tool-result', toolCallId: 't1', toolName: 'search', input: { q: 'x' }, output: 'final' },
          ],
          usage: { inputTokens: 1, outputTokens: 1 },
        },
      ],
    });
    expect(run.steps![0]!.toolCalls).toEqual([{ name: 'search', args: { q: 'x' }, result: 'final', isError: false }]);
    expect(run.steps![0]!.model).toBeUndefined();
  });
});
