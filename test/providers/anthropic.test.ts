import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider, limiterKeyFor } from '../../src/providers/create.js';
import { ProviderConfigError, ProviderError } from '../../src/core/errors.js';
import type { ModelSpecInput } from '../../src/providers/model-spec.js';
import { priceUsage } from '../../src/providers/pricing.js';
import type { ChatMessage, ProviderTool } from '../../src/providers/types.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import type { FakeProvider, Script } from '../support/fake-server.js';

const KEY = 'sk-ant-test-secret-0123456789';
const env = { ANTHROPIC_API_KEY: KEY };

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(script: Script, spec: Partial<Extract<ModelSpecInput, object>> = {}, apiKey?: string) {
  fake = await startFakeAnthropic({ script, ...(apiKey ? { apiKey } : {}) });
  const full = { provider: 'anthropic' as const, model: 'claude-sonnet-4-6', baseURL: fake.url, maxConcurrency: 4, ...spec };
  const limiters = new ProviderLimiters();
  return { fake, provider: createProvider(full, env, { limiters }), limiter: limiters.get(limiterKeyFor(full, env))! };
}

const tools: ProviderTool[] = [
  { name: 'orders_lookup', description: 'Find an order', parameters: { type: 'object', properties: { order: { type: 'string' } } } },
  { name: 'policy_lookup', parameters: { type: 'object', properties: { topic: { type: 'string' } } } },
];

describe('Anthropic provider against a fake Messages server', () => {
  it('sends system apart, and maps text and usage (cache reads and writes counted as input)', async () => {
    const { fake, provider } = await setup([{ text: 'Hello!', usage: { input: 50, cached: 30, cacheWrite: 20, cacheWrite1h: 5, output: 12, reasoning: 4 }, model: 'claude-sonnet-4-6-20260217' }], {
      temperature: 0,
    });
    const res = await provider.complete({ system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] });

    expect(res).toMatchObject({
      text: 'Hello!',
      toolCalls: [],
      usage: { inputTokens: 100, outputTokens: 12, cachedInputTokens: 30, reasoningTokens: 4, cacheWriteTokens: 20, cacheWrite1hTokens: 5 },
      finishReason: 'stop',
      model: 'claude-sonnet-4-6-20260217',
    });
    const req = fake.requests[0]!;
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['authorization'] ?? req.headers['x-api-key']).toContain(KEY);
    expect(req.headers['anthropic-version']).toBeTruthy();
    expect(req.body).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 4096,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    // At the Sonnet 4.6 family price: 50 plain input at $3, 30 cache reads at $0.30, 15 five-minute
    // cache writes at 1.25x ($3.75), 5 one-hour writes at 2x ($6), 12 out at $15.
    expect(priceUsage(`anthropic:${res.model}`, res.usage)).toBe((50 * 3 + 30 * 0.3 + 15 * 3.75 + 5 * 6 + 12 * 15) / 1e6);
  });

  it('maps two parallel tool_use blocks, then sends both results in ONE user message', async () => {
    const { fake, provider } = await setup([
      {
        text: 'Let me check.',
        toolCalls: [
          { id: 'toolu_a', name: 'orders_lookup', args: { order: 'A1049' } },
          { id: 'toolu_b', name: 'policy_lookup', args: { topic: 'refunds' } },
        ],
      },
      { text: 'Your order shipped.' },
    ]);
    const history: ChatMessage[] = [{ role: 'user', content: 'Refund A1049' }];
    const first = await provider.complete({ messages: history, tools, toolChoice: 'auto' });

    expect(first.finishReason).toBe('tool_calls');
    expect(first.text).toBe('Let me check.');
    expect(first.toolCalls).toEqual([
      { id: 'toolu_a', name: 'orders_lookup', args: { order: 'A1049' } },
      { id: 'toolu_b', name: 'policy_lookup', args: { topic: 'refunds' } },
    ]);
    expect(fake.bodies[0].tools).toEqual([
      { name: 'orders_lookup', description: 'Find an order', input_schema: tools[0]!.parameters },
      { name: 'policy_lookup', input_schema: tools[1]!.parameters },
    ]);
    expect(fake.bodies[0].tool_choice).toEqual({ type: 'auto' });

    history.push(
      { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
      { role: 'tool', toolCallId: 'toolu_a', name: 'orders_lookup', content: '{"status":"shipped"}' },
      { role: 'tool', toolCallId: 'toolu_b', name: 'policy_lookup', content: 'policy service down', isError: true },
    );
    const second = await provider.complete({ messages: history, tools, toolChoice: { name: 'orders_lookup' } });

    expect(second.text).toBe('Your order shipped.');
    expect(fake.bodies[1].tool_choice).toEqual({ type: 'tool', name: 'orders_lookup' });
    expect(fake.bodies[1].messages).toEqual([
      { role: 'user', content: 'Refund A1049' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_a', name: 'orders_lookup', input: { order: 'A1049' } },
          { type: 'tool_use', id: 'toolu_b', name: 'policy_lookup', input: { topic: 'refunds' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: '{"status":"shipped"}' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'policy service down', is_error: true },
        ],
      },
    ]);
  });

  it('gets structured output through a forced tool call and returns its input as JSON text', async () => {
    const schema = {
      type: 'object',
      properties: { score: { type: 'number' }, reason: { type: 'string' } },
      required: ['score', 'reason'],
    };
    const { fake, provider } = await setup([{ json: { score: 0.8, reason: 'cites policy' } }], { capabilities: { structuredOutput: 'forced_tool' } });
    const res = await provider.complete({
      system: 'You grade answers.',
      messages: [{ role: 'user', content: 'grade this' }],
      schema: { name: 'judgment', jsonSchema: schema },
    });
    expect(fake.bodies[0].tool_choice).toEqual({ type: 'tool', name: 'judgment' });
    expect(fake.bodies[0].tools).toEqual([{ name: 'judgment', description: expect.any(String), input_schema: schema }]);
    expect(JSON.parse(res.text)).toEqual({ score: 0.8, reason: 'cites policy' });
    expect(res.toolCalls).toEqual([]);
    expect(res.finishReason).toBe('stop');
  });

  it('sends no temperature to any model, from the spec or the request (API version 2026-10-21 refuses it)', async () => {
    const { fake, provider } = await setup([{ text: 'ok' }, { text: 'ok' }], { model: 'claude-opus-4-7', temperature: 0 });
    await provider.complete({ messages: [{ role: 'user', content: 'x' }] });
    await provider.complete({ messages: [{ role: 'user', content: 'x' }], temperature: 0.5 });
    expect(fake.bodies[0]).not.toHaveProperty('temperature');
    expect(fake.bodies[1]).not.toHaveProperty('temperature');
  });

  it('retries a 429 after its retry-after and halves the shared limiter', async () => {
    const { fake, provider, limiter } = await setup([{ status: 429, retryAfter: 0.02 }, { text: 'ok' }]);
    expect((await provider.complete({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('ok');
    expect(fake.count).toBe(2);
    expect(limiter.rateLimits).toBe(1);
    expect(limiter.current).toBe(2);
  });

  it('retries 500 and 529 (overloaded)', async () => {
    const { fake, provider } = await setup([{ status: 500, retryAfterMs: 1 }, { status: 529, retryAfterMs: 1 }, { text: 'recovered' }]);
    expect((await provider.complete({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('recovered');
    expect(fake.count).toBe(3);
  });

  it('retries a dropped connection', async () => {
    const { fake, provider } = await setup([{ drop: true }, { text: 'recovered' }]);
    expect((await provider.complete({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('recovered');
    expect(fake.count).toBe(2);
  });

  it('fails on a malformed body without retrying', async () => {
    const { fake, provider } = await setup([{ malformed: true }, { text: 'never' }]);
    await expect(provider.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ kind: 'malformed' });
    expect(fake.count).toBe(1);
  });

  it('returns the text and its usage when structured output comes back without the forced tool call', async () => {
    // The judge then looks for JSON in the text itself, and the tokens spent are still counted.
    const { provider } = await setup([{ text: 'I would rather not.', usage: { input: 12, output: 4 } }]);
    const res = await provider.complete({ messages: [{ role: 'user', content: 'x' }], schema: { name: 'judgment', jsonSchema: { type: 'object' } } });
    expect(res.text).toBe('I would rather not.');
    expect(res.usage).toMatchObject({ inputTokens: 12, outputTokens: 4 });
  });

  it('fails fast on 401 naming the env var, with no secret anywhere in the error', async () => {
    const { fake, provider } = await setup([], {}, 'sk-ant-the-right-key-xxxxxxxx');
    const err = await provider.complete({ messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toBe('authentication failed for anthropic: check ANTHROPIC_API_KEY');
    expect(fake.count).toBe(1);
    for (const text of [(err as Error).stack ?? '', inspect(err, { depth: 5 }), JSON.stringify(err), JSON.stringify(provider)]) {
      expect(text).not.toContain(KEY);
    }
  });

  it('does not retry a 403', async () => {
    const { fake, provider } = await setup([{ status: 403, message: 'Your API key does not have permission to use the specified resource.' }]);
    await expect(provider.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ kind: 'permission' });
    expect(fake.count).toBe(1);
  });

  it('refuses to build a provider without a key', () => {
    expect(() => createProvider('anthropic:claude-sonnet-4-6', {}, { limiters: new ProviderLimiters() })).toThrow(ProviderConfigError);
    expect(() => createProvider('anthropic:claude-sonnet-4-6', {}, { limiters: new ProviderLimiters() })).toThrow('missing API key for anthropic: set ANTHROPIC_API_KEY');
  });

  it('takes the base URL from ANTHROPIC_BASE_URL', async () => {
    fake = await startFakeAnthropic({ script: [{ text: 'via env' }] });
    const provider = createProvider('anthropic:claude-haiku-4-5', { ...env, ANTHROPIC_BASE_URL: fake.url }, { limiters: new ProviderLimiters() });
    expect((await provider.complete({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('via env');
  });
});
