/**
 * fromOpenAIAgents and openAIAgentsTracing on real `@openai/agents` runs against the fake OpenAI
 * server's Responses API (plain and streamed), nothing of the SDK mocked.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { z } from 'zod';
import { Agent, OpenAIProvider, Runner, setDefaultOpenAITracingExporter, setTraceProcessors, setTracingDisabled, tool } from '@openai/agents';
import { fromOpenAIAgents, openAIAgentsTracing, type OpenAIAgentsTracing } from '../../src/adapters/openai-agents.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { toolOutputsSent } from '../support/fake-openai-responses.js';
import { installedVersion, userOpenAI } from '../support/framework-line.js';
import type { FakeProvider, Script } from '../support/fake-server.js';

const lookup = tool({
  name: 'lookup',
  description: 'Look a key up.',
  parameters: z.object({ key: z.string() }),
  execute: ({ key }, runContext) => {
    if ((runContext?.context as { fail?: boolean } | undefined)?.fail) throw new Error(`lookup of ${key} failed`);
    return { key, value: key.length };
  },
});
const agent = new Agent({ name: 'a', instructions: 'Answer with the lookup tool.', model: 'gpt-4.1-mini', tools: [lookup] });

/**
 * What the model is shown for a tool that threw, all the run's result keeps of it: 0.14's default error
 * function appends the error; 0.20's is a fixed text that keeps the error's details from the model
 * (agents-core 0.20 tool.mjs `defaultToolErrorFunction`), so only the function span says it failed.
 */
const agentsMinor = installedVersion('@openai/agents')![1];
const shownForThrow = (error: string) =>
  agentsMinor >= 20 ? 'An error occurred while running the tool. Please try again.' : `An error occurred while running the tool. Please try again. Error: Error: ${error}`;

let fake: FakeProvider | undefined;
let tracing: OpenAIAgentsTracing;
beforeAll(() => {
  tracing = openAIAgentsTracing();
  // NODE_ENV=test turns the SDK's tracing off; only our processor runs (no exporter, no network).
  setTraceProcessors([tracing]);
  setTracingDisabled(false);
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(() => {
  tracing.dispose();
  // What importing the SDK set up, under NODE_ENV=test: its default exporter, tracing off.
  setDefaultOpenAITracingExporter();
  setTracingDisabled(true);
});

async function runnerOn(script: Script, hold?: (index: number) => Promise<void>) {
  fake = await startFakeOpenAI({ script, hold });
  // The client a user of this line hands the SDK: their own openai (7 on the newest line, agent-evals' is 6).
  const UserOpenAI = await userOpenAI();
  return new Runner({ modelProvider: new OpenAIProvider({ openAIClient: new UserOpenAI({ baseURL: fake.url, apiKey: 'sk-fake' }) }) });
}

describe('fromOpenAIAgents', () => {
  it('maps a streamed run: usage with cached, cache-write and reasoning tokens from response.completed, the model from the agent', async () => {
    const runner = await runnerOn([
      { toolCalls: [{ name: 'lookup', args: { key: 'abc' } }], text: 'Looking.', usage: { input: 300, output: 20, cached: 200, cacheWrite: 50 } },
      { text: 'It is 3.', usage: { input: 400, output: 30, reasoning: 12 } },
    ]);
    const result = await runner.run(agent, 'how long is abc?', { stream: true });
    await result.completed;

    expect(fake!.bodies.map((b) => b.stream)).toEqual([true, true]);
    expect(fromOpenAIAgents(result)).toEqual({
      reply: 'It is 3.',
      instructions: 'Answer with the lookup tool.',
      steps: [
        {
          text: 'Looking.',
          toolCalls: [{ name: 'lookup', args: { key: 'abc' }, result: { key: 'abc', value: 3 }, durationMs: expect.any(Number) }],
          usage: { inputTokens: 300, outputTokens: 20, cachedInputTokens: 200, cacheWriteTokens: 50, reasoningTokens: 0 },
          model: 'openai:gpt-4.1-mini',
        },
        { text: 'It is 3.', usage: { inputTokens: 400, outputTokens: 30, cachedInputTokens: 0, reasoningTokens: 12 }, model: 'openai:gpt-4.1-mini' },
      ],
    });
  });

  it('refuses a streamed run that has not finished (it read as an empty run), and takes it once completed', async () => {
    const runner = await runnerOn([{ toolCalls: [{ name: 'lookup', args: { key: 'abc' } }] }, { text: 'It is 3.' }]);
    const result = await runner.run(agent, 'how long is abc?', { stream: true });
    expect(() => fromOpenAIAgents(result)).toThrow('fromOpenAIAgents: this streamed run has not finished; `await result.completed` before handing it over');
    await result.completed;
    expect(fromOpenAIAgents(result)).toMatchObject({ reply: 'It is 3.', steps: [{ toolCalls: [{ name: 'lookup' }] }, { text: 'It is 3.' }] });
  });

  it('marks a call refused for arguments that are not JSON with isError, keeping the arguments as sent', async () => {
    const runner = await runnerOn([{ toolCalls: [{ name: 'lookup', args: '{"key": "ab' }] }, { text: 'Sorry.' }]);
    const run = fromOpenAIAgents(await runner.run(agent, 'x'));
    expect(run.steps![0]!.toolCalls).toEqual([{ name: 'lookup', args: '{"key": "ab', result: expect.stringContaining('parsing tool arguments'), isError: true, durationMs: expect.any(Number) }]);
    expect(run.steps![0]!.model).toBe('openai:gpt-4.1-mini'); // the request's model, as the fake answers it
  });

  it('keeps concurrent runs apart: the same call throws in one run and not in the other', async () => {
    let release!: () => void;
    const bothAsked = new Promise<void>((r) => (release = r));
    const runner = await runnerOn(
      (body) => (body.input.some((i: { type?: string }) => i.type === 'function_call_output') ? { text: 'done' } : { toolCalls: [{ name: 'lookup', args: { key: 'same' } }] }),
      // Both runs' first answers are held until both runs asked: their tool spans overlap.
      async (index) => {
        if (index === 1) release();
        if (index < 2) await bothAsked;
      },
    );
    const [failing, fine] = await Promise.all([runner.run(agent, 'x', { context: { fail: true } }), runner.run(agent, 'x', { context: { fail: false } })]);

    expect(fromOpenAIAgents(failing).steps![0]!.toolCalls![0]).toEqual({
      name: 'lookup',
      args: { key: 'same' },
      result: shownForThrow('lookup of same failed'),
      isError: true,
      durationMs: expect.any(Number),
    });
    expect(fromOpenAIAgents(fine).steps![0]!.toolCalls![0]).toEqual({ name: 'lookup', args: { key: 'same' }, result: { key: 'same', value: 4 }, durationMs: expect.any(Number) });
    expect(toolOutputsSent(fake!.bodies).sort()).toEqual([JSON.stringify({ key: 'same', value: 4 }), shownForThrow('lookup of same failed')].sort());
  });

  it('stringifies a structured final output', async () => {
    const runner = await runnerOn([{ json: { answer: 42 }, model: 'gpt-4.1-mini-2025-04-14' }]);
    const typed = new Agent({ name: 't', instructions: 'Answer.', model: 'gpt-4.1-mini', outputType: z.object({ answer: z.number() }) });
    const run = fromOpenAIAgents(await runner.run(typed, 'x'));
    expect(run.reply).toBe('{"answer":42}');
    expect(run.steps).toEqual([{ text: '{"answer":42}', usage: expect.objectContaining({ inputTokens: 10, outputTokens: 5 }), model: 'openai:gpt-4.1-mini-2025-04-14' }]);
  });

  it('refuses a run with tool calls that was not traced while the processor is in use (NODE_ENV=test turns tracing off): its tool errors would pass unseen', async () => {
    const runner = await runnerOn([{ toolCalls: [{ name: 'lookup', args: { key: 'k' } }] }, { text: 'no' }, { text: 'Hi.' }]);
    setTracingDisabled(true); // as importing the SDK leaves it under NODE_ENV=test
    try {
      const result = await runner.run(agent, 'x', { context: { fail: true } });
      expect(() => fromOpenAIAgents(result)).toThrow(
        'fromOpenAIAgents: this run was not traced, so openAIAgentsTracing() saw none of its tool calls and a tool that threw would pass as a result. Tracing is off: the SDK turns it off when NODE_ENV is `test` (call `setTracingDisabled(false)`',
      );
      // A run that called no tool has no tool error to miss.
      expect(fromOpenAIAgents(await runner.run(agent, 'y')).reply).toBe('Hi.');
    } finally {
      setTracingDisabled(false);
    }
  });

  it('refuses a traced run with tool calls when the processor made was never registered with the SDK', async () => {
    const runner = await runnerOn([{ toolCalls: [{ name: 'lookup', args: { key: 'k' } }] }, { text: 'no' }]);
    setTraceProcessors([]); // made (openAIAgentsTracing()) but not registered
    try {
      const result = await runner.run(agent, 'x', { context: { fail: true } });
      expect(() => fromOpenAIAgents(result)).toThrow('fromOpenAIAgents: openAIAgentsTracing() kept no span of this run, so a tool that threw would pass as a result: register it');
    } finally {
      setTraceProcessors([tracing]);
    }
  });

  it('cannot tell a throwing tool without the processor: its error is only the text the model saw', async () => {
    const runner = await runnerOn([{ toolCalls: [{ name: 'lookup', args: { key: 'k' } }] }, { text: 'no' }]);
    const result = await runner.run(agent, 'x', { context: { fail: true } });
    tracing.dispose(); // unregistered: the adapter reads no spans
    const call = fromOpenAIAgents(result).steps![0]!.toolCalls![0]!;
    expect(call.isError).toBeUndefined();
    expect(call.result).toBe(shownForThrow('lookup of k failed'));
    expect(toolOutputsSent(fake!.bodies)).toEqual([call.result]);
    tracing = openAIAgentsTracing();
    setTraceProcessors([tracing]);
  });
});

describe('openAIAgentsTracing', () => {
  const span = (traceId: string, spanId: string, error: { message: string } | null = null) => ({
    traceId,
    spanId,
    spanData: { type: 'function', name: 'lookup', input: '{}' },
    error,
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:00.250Z',
  });

  it('keeps function spans per trace in start order, with error and duration, and at most maxTraces traces', async () => {
    const t = openAIAgentsTracing({ maxTraces: 2 });
    try {
      for (const id of ['t1', 't2', 't3']) {
        await t.onSpanStart(span(id, `${id}-a`));
        await t.onSpanStart(span(id, `${id}-b`));
        await t.onSpanEnd(span(id, `${id}-b`, { message: 'boom' }));
        await t.onSpanEnd(span(id, `${id}-a`));
      }
      await t.onSpanEnd({ ...span('t3', 'x'), spanData: { type: 'response' } });
      expect(t.functionSpans('t1')).toEqual([]);
      expect(t.functionSpans('t3')).toEqual([
        { name: 'lookup', input: '{}', durationMs: 250 },
        { name: 'lookup', input: '{}', error: { message: 'boom' }, durationMs: 250 },
      ]);
    } finally {
      t.dispose();
    }
  });
});

describe('the fake OpenAI server, Responses API', () => {
  it('rejects a function_call_output that answers no function_call of the input, as the real API does', async () => {
    fake = await startFakeOpenAI({ script: [{ text: 'never' }] });
    const client = new OpenAI({ baseURL: fake.url, apiKey: 'sk-fake', maxRetries: 0 });
    const err = await client.responses.create({ model: 'gpt-4.1-mini', input: [{ type: 'function_call_output', call_id: 'call_x', output: 'y' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain('call_x');
  });
});
