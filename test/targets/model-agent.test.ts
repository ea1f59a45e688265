/**
 * The model-agent target's tool loop against fake OpenAI and Anthropic servers (the official
 * SDKs over loopback, nothing mocked): steps, parallel calls, usage per step, guards.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider } from '../../src/providers/create.js';
import { modelAgentTarget } from '../../src/targets/model-agent.js';
import { usageOfRun } from '../../src/providers/run-usage.js';
import type { FakeProvider, Script } from '../support/fake-server.js';
import { never, overlappingStoreTools, startFake, storeTools, trialInput, type ProviderName } from './helpers.js';

const pricing = { overrides: {}, warnUnpriced: () => {} };
const MODELS: Record<ProviderName, string> = { openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-6' };

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function agent(provider: ProviderName, script: Script, opts: { maxSteps?: number; maxTokens?: number; instructions?: string; tools?: typeof storeTools } = {}) {
  const started = await startFake(provider, script);
  fake = started.fake;
  const p = createProvider({ provider, model: MODELS[provider], baseURL: started.fake.url }, started.env, { limiters: new ProviderLimiters() });
  return { fake: started.fake, target: modelAgentTarget('store-agent', { provider: p, tools: storeTools, instructions: 'You are a store agent.', ...opts }) };
}

/** The tool results a request carried, in order, whatever the wire: [call id, content, error?]. */
function toolResults(provider: ProviderName, body: any): Array<[string, string, boolean]> {
  if (provider === 'openai') {
    return body.messages.filter((m: any) => m.role === 'tool').map((m: any) => [m.tool_call_id, m.content, m.content.startsWith('Error: ')]);
  }
  return body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content.filter((b: any) => b.type === 'tool_result').map((b: any) => [b.tool_use_id, b.content, b.is_error === true]) : []));
}

describe.each(['openai', 'anthropic'] as const)('model-agent target over %s', (provider) => {
  it('runs a multi-step tool loop with two parallel calls in one step, and sums usage per step', async () => {
    const { tools, activity } = overlappingStoreTools();
    const { fake, target } = await agent(
      provider,
      [
        { toolCalls: [{ id: 'c1', name: 'orders_lookup', args: { orderId: 'A1049' } }], usage: { input: 100, output: 10 } },
        {
          text: 'Checking policy and refunding.',
          toolCalls: [
            { id: 'c2', name: 'policy_lookup', args: { topic: 'refunds' } },
            { id: 'c3', name: 'refunds_issue', args: { orderId: 'A1049' } },
          ],
          usage: { input: 200, output: 20, cached: 50 },
        },
        { text: 'Refunded $42.00 for order A1049.', usage: { input: 300, output: 30 } },
      ],
      { tools },
    );

    const run = await target.run(trialInput('Refund A1049, I am ann@example.com'), never);

    expect(target.model).toBe(`${provider}:${MODELS[provider]}`);
    expect(run.reply).toBe('Refunded $42.00 for order A1049.');
    expect(run.stopReason).toBe('stop');
    expect(run.instructions).toBe('You are a store agent.');
    expect(run.steps).toHaveLength(3);
    const [s1, s2, s3] = run.steps!;
    expect(s1!.toolCalls).toEqual([
      { name: 'orders_lookup', args: { orderId: 'A1049' }, result: expect.objectContaining({ id: 'A1049', email: 'ann@example.com' }), isError: false, durationMs: expect.any(Number) },
    ]);
    expect(s2!.text).toBe('Checking policy and refunding.');
    expect(s2!.toolCalls!.map((c) => [c.name, c.isError])).toEqual([
      ['policy_lookup', false],
      ['refunds_issue', false],
    ]);
    expect(s2!.toolCalls![1]!.result).toEqual({ orderId: 'A1049', amountUsd: 42 });
    // Both calls of the step ran at once: the refund finished while the (slower) policy lookup was still running.
    expect(activity).toEqual(['policy:start', 'refund:start', 'refund:end', 'policy:end']);
    expect(s3).toMatchObject({ text: 'Refunded $42.00 for order A1049.' });
    expect(s3!.toolCalls).toBeUndefined();
    for (const s of run.steps!) expect(s.model).toBe(`${provider}:${MODELS[provider]}`);

    // Per-step usage as the provider reports it; Anthropic's cache reads are part of the prompt.
    const cachedInput = provider === 'openai' ? 0 : 50;
    expect(s2!.usage).toEqual({ inputTokens: 200 + cachedInput, outputTokens: 20, cachedInputTokens: 50, ...(provider === 'openai' ? { reasoningTokens: 0 } : {}) });
    const total = usageOfRun(run, pricing);
    expect(total).toMatchObject({ calls: 3, inputTokens: 600 + cachedInput, outputTokens: 60, cachedInputTokens: 50 });
    expect(total.costUsd).toBeGreaterThan(0);

    // The wire: instructions as the system prompt, tool results answered in call order.
    expect(fake.count).toBe(3);
    const system = provider === 'openai' ? fake.bodies[0].messages[0] : fake.bodies[0].system;
    expect(JSON.stringify(system)).toContain('You are a store agent.');
    expect(toolResults(provider, fake.bodies[1]).map(([id]) => id)).toEqual(['c1']);
    expect(toolResults(provider, fake.bodies[2]).map(([id]) => id)).toEqual(['c1', 'c2', 'c3']);
    expect(toolResults(provider, fake.bodies[2])[2]![1]).toContain('"amountUsd":42');
    const names = provider === 'openai' ? fake.bodies[0].tools.map((t: any) => t.function.name) : fake.bodies[0].tools.map((t: any) => t.name);
    expect(names).toEqual(['orders_lookup', 'policy_lookup', 'refunds_issue']);
  });

  it('sends invalid arguments, unknown tools and throwing tools back to the model as error results', async () => {
    const { fake, target } = await agent(provider, [
      {
        toolCalls: [
          { id: 'bad', name: 'orders_lookup', args: { orderId: 'not-an-id' } },
          { id: 'missing', name: 'orders_lookup', args: { orderId: 'Z9999' } },
          { id: 'ghost', name: 'launch_rockets', args: {} },
        ],
      },
      { text: 'Sorry, I could not find that order.' },
    ]);
    const run = await target.run(trialInput('Where is my order?'), never);

    const calls = run.steps![0]!.toolCalls!;
    expect(calls.map((c) => c.isError)).toEqual([true, true, true]);
    expect(calls[0]!.result).toMatch(/^invalid arguments for orders_lookup: orderId: /);
    expect(calls[1]!.result).toBe('order Z9999 not found');
    expect(calls[2]!.result).toBe('unknown tool "launch_rockets" (available: orders_lookup, policy_lookup, refunds_issue)');
    const sent = toolResults(provider, fake.bodies[1]);
    expect(sent.map(([id, , isError]) => [id, isError])).toEqual([
      ['bad', true],
      ['missing', true],
      ['ghost', true],
    ]);
    expect(sent[1]![1]).toContain('order Z9999 not found');
    expect(run.reply).toBe('Sorry, I could not find that order.');
  });

  it("stops at maxSteps (running that step's calls) and records stopReason max_steps", async () => {
    const lookup = { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1050' } }], text: 'Looking…' };
    const { fake, target } = await agent(provider, [lookup, lookup, lookup], { maxSteps: 2 });
    const run = await target.run(trialInput('Where is A1050?'), never);
    expect(fake.count).toBe(2);
    expect(run.stopReason).toBe('max_steps');
    expect(run.steps).toHaveLength(2);
    expect(run.steps![1]!.toolCalls).toHaveLength(1);
    expect(run.reply).toBe('Looking…');
  });

  it('stops with max_tokens when the model hits its output limit, and sends maxTokens', async () => {
    const finish = provider === 'openai' ? 'length' : 'max_tokens';
    const { fake, target } = await agent(provider, [{ text: 'The answer is', finishReason: finish }], { maxTokens: 7 });
    const run = await target.run(trialInput('Tell me everything'), never);
    expect(run).toMatchObject({ reply: 'The answer is', stopReason: 'max_tokens' });
    expect(fake.bodies[0][provider === 'openai' ? 'max_completion_tokens' : 'max_tokens']).toBe(7);
  });

  it('continues the conversation across turns of a session, tools sharing one store', async () => {
    const { fake, target } = await agent(provider, [
      { toolCalls: [{ name: 'refunds_issue', args: { orderId: 'A1049' } }] },
      { text: 'Refunded.' },
      { toolCalls: [{ name: 'refunds_issue', args: { orderId: 'A1049' } }] },
      { text: 'It was already refunded.' },
    ]);
    const session = await target.openSession!(trialInput('Refund A1049'), never);
    const first = await session.send('Refund A1049', never);
    const second = await session.send('Refund it again', never);
    await session.close();

    expect(first.reply).toBe('Refunded.');
    expect(second.reply).toBe('It was already refunded.');
    // The second turn's steps only; its refund failed because the first turn's refund is remembered.
    expect(second.steps).toHaveLength(2);
    expect(second.steps![0]!.toolCalls![0]).toMatchObject({ isError: true, result: 'order A1049 was already refunded' });
    // The model saw the whole conversation: first question, tool round, first reply, follow-up.
    const last = fake.bodies[2];
    const texts = JSON.stringify(last.messages);
    for (const t of ['Refund A1049', 'Refunded.', 'Refund it again']) expect(texts).toContain(t);
  });

  it('fails the trial when aborted, keeping the steps already paid for', async () => {
    const { fake, target } = await agent(provider, [{ toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1050' } }] }, { delayMs: 60_000 }]);
    const ac = new AbortController();
    const running = target.run(trialInput('Where is A1050?'), ac.signal).catch((e: unknown) => e);
    // Aborted while the second model call is in flight: the first step (the tool round) is paid for.
    await vi.waitFor(() => expect(fake.bodies).toHaveLength(2), { timeout: 15_000, interval: 5 });
    ac.abort(new Error('timed out after 100 ms'));
    const err = await running;
    expect(err).toBeInstanceOf(Error);
    const { spentOf } = await import('../../src/core/errors.js');
    expect(spentOf(err).run?.steps).toHaveLength(1);
  });
});
