import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createProvider, limiterKeyFor } from '../../src/providers/create.js';
import { ProviderConfigError, ProviderError } from '../../src/core/errors.js';
import type { ModelSpecInput } from '../../src/providers/model-spec.js';
import { priceUsage } from '../../src/providers/pricing.js';
import type { ChatMessage, ProviderTool } from '../../src/providers/types.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, Script } from '../support/fake-server.js';

const KEY = 'sk-test-openai-secret-0123456789';
const env = { OPENAI_API_KEY: KEY };

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(script: Script, spec: Partial<Extract<ModelSpecInput, object>> = {}, apiKey?: string) {
  fake = await startFakeOpenAI({ script, ...(apiKey ? { apiKey } : {}) });
  const full = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: fake.url, maxConcurrency: 4, ...spec };
  const limiters = new ProviderLimiters();
  return { fake, provider: createProvider(full, env, { limiters }), limiter: limiters.get(limiterKeyFor(full, env))! };
}

const tools: ProviderTool[] = [
  { name: 'orders_lookup', description: 'Find an order', parameters: { type: 'object', properties: { order: { type: 'string' } } } },
  { name: 'policy_lookup', parameters: { type: 'object', properties: { topic: { type: 'string' } } } },
];

describe('OpenAI provider against a fake Chat Completions server', () => {
  it('sends system, user and sampling settings, and maps text and usage (cached and reasoning tokens)', async () => {
    const { fake, provider } = await setup([{ text: 'Hello!', usage: { input: 100, output: 20, cached: 40, reasoning: 8 }, model: 'gpt-4.1-mini-2025-04-14' }], { temperature: 0, maxTokens: 50 });
    const res = await provider.complete({ system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] });

    expect(res).toMatchObject({
      text: 'Hello!',
      toolCalls: [],
      usage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 40, reasoningTokens: 8 },
      finishReason: 'stop',
      model: 'gpt-4.1-mini-2025-04-14',
    });
    expect(JSON.parse(res.raw!).object).toBe('chat.completion');
    const req = fake.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(req.body).toEqual({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0,
      max_completion_tokens: 50,
    });
    // The dated id the server reports prices as its family: 60 uncached, 40 cached, 20 out.
    expect(priceUsage(`openai:${res.model}`, res.usage)).toBe((60 * 0.4 + 40 * 0.1 + 20 * 1.6) / 1e6);
  });

  it('maps two parallel tool calls, then sends the tool results back in the wire shape', async () => {
    const { fake, provider } = await setup([
      {
        toolCalls: [
          { id: 'call_a', name: 'orders_lookup', args: { order: 'A1049' } },
          { id: 'call_b', name: 'policy_lookup', args: { topic: 'refunds' } },
        ],
      },
      { text: 'Your order shipped.' },
    ]);
    const history: ChatMessage[] = [{ role: 'user', content: 'Refund A1049' }];
    const first = await provider.complete({ messages: history, tools, toolChoice: 'auto' });

    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls).toEqual([
      { id: 'call_a', name: 'orders_lookup', args: { order: 'A1049' } },
      { id: 'call_b', name: 'policy_lookup', args: { topic: 'refunds' } },
    ]);
    expect(fake.bodies[0].tools).toEqual([
      { type: 'function', function: { name: 'orders_lookup', description: 'Find an order', parameters: tools[0]!.parameters } },
      { type: 'function', function: { name: 'policy_lookup', parameters: tools[1]!.parameters } },
    ]);
    expect(fake.bodies[0].tool_choice).toBe('auto');

    history.push(
      { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
      { role: 'tool', toolCallId: 'call_a', name: 'orders_lookup', content: '{"status":"shipped"}' },
      { role: 'tool', toolCallId: 'call_b', name: 'policy_lookup', content: 'policy service down', isError: true },
    );
    const second = await provider.complete({ messages: history, tools, toolChoice: { name: 'orders_lookup' } });

    expect(second.text).toBe('Your order shipped.');
    expect(fake.bodies[1].tool_choice).toEqual({ type: 'function', function: { name: 'orders_lookup' } });
    expect(fake.bodies[1].messages).toEqual([
      { role: 'user', content: 'Refund A1049' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'orders_lookup', arguments: '{"order":"A1049"}' } },
          { id: 'call_b', type: 'function', function: { name: 'policy_lookup', arguments: '{"topic":"refunds"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '{"status":"shipped"}' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Error: policy service down' },
    ]);
  });

  it('keeps tool arguments that are not valid JSON as the raw string', async () => {
    const { provider } = await setup([{ toolCalls: [{ id: 'c1', name: 'orders_lookup', args: '{"order": ' }] }]);
    const res = await provider.complete({ messages: [{ role: 'user', content: 'x' }], tools });
    expect(res.toolCalls[0]!.args).toBe('{"order": ');
  });

  it('asks for structured output with a strict json_schema response_format', async () => {
    const schema = {
      type: 'object',
      properties: { score: { type: 'number' }, reason: { type: 'string' } },
      required: ['score', 'reason'],
      additionalProperties: false,
    };
    const { fake, provider } = await setup([{ json: { score: 0.8, reason: 'cites policy' } }]);
    const res = await provider.complete({
      messages: [{ role: 'user', content: 'grade this' }],
      schema: { name: 'judgment', jsonSchema: schema },
    });
    expect(fake.bodies[0].response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'judgment', schema, strict: true },
    });
    expect(JSON.parse(res.text)).toEqual({ score: 0.8, reason: 'cites policy' });
  });

  it('does not send a temperature to reasoning models', async () => {
    const { fake, provider } = await setup([{ text: 'ok' }], { model: 'o4-mini', temperature: 0 });
    await provider.complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(fake.bodies[0]).not.toHaveProperty('temperature');
  });

  it('retries a 429 after its retry-after and halves the shared limiter', async () => {
    const { fake, provider, limiter } = await setup([{ status: 429, retryAfter: 0.02 }, { text: 'ok' }]);
    const res = await provider.complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(res.text).toBe('ok');
    expect(fake.count).toBe(2);
    // Ordering on the server's own clock: the retry arrived no sooner than the retry-after (20 ms)
    // after the 429 left (1 ms of slack for the limiter's millisecond clock). Load only widens the gap.
    const [limited, retry] = fake.requests;
    expect(retry!.receivedAt - limited!.answeredAt!).toBeGreaterThanOrEqual(19);
    expect(limiter.rateLimits).toBe(1);
    expect(limiter.current).toBe(2);
  });

  it('reports a rate limit that outlasts the wait budget, however few retries are allowed for other errors', async () => {
    // The budget is read from the clock: only Date is faked, and each 429 moves it 20 ms on (its
    // retry-after is 0, so no hold waits on the frozen clock), so the number of attempts does not
    // depend on how fast the machine answers.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { fake, provider, limiter } = await setup(
        () => {
          vi.setSystemTime(Date.now() + 20);
          return { status: 429, retryAfterMs: 0 };
        },
        { maxRetries: 1, rateLimitWaitMs: 50 },
      );
      const err = await provider.complete({ messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect(err).toMatchObject({ kind: 'rate_limit', status: 429 });
      expect((err as Error).message).toMatch(/^still rate limited by openai after waiting 50 ms/);
      // More attempts than maxRetries + 1: the budget, not the count, bounded them. The first 429
      // starts the budget; after the ones 20 and 40 ms later it retries, the one 60 ms later ends it.
      expect(fake.count).toBe(4);
      expect(limiter.rateLimits).toBe(fake.count);
    } finally {
      vi.useRealTimers();
    }
  });

  it('retries a 500', async () => {
    const { fake, provider } = await setup([{ status: 500, retryAfterMs: 1 }, { text: 'recovered' }]);
    expect((await provider.complete({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('recovered');
    expect(fake.count).toBe(2);
  });

  it('retries a dropped connection', async () => {
    const { fake, provider } = await setup([{ drop: true }, { text: 'recovered' }]);
    expect((await provider.complete({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('recovered');
    expect(fake.count).toBe(2);
  });

  it('retries an attempt that times out, then names the timeout when every attempt does', async () => {
    // The late answers never come within the test (the fake drops them on close). The clock is faked
    // (setTimeout, Date) and moves only while the newest request hangs at the fake, one timer at a
    // time: the timely answer takes no time on it, so a loaded machine cannot turn it into a timeout,
    // and the test waits out no real timeout or retry backoff.
    const { fake, provider } = await setup([{ delayMs: 60_000, then: { text: 'late' } }, { text: 'in time' }], { timeoutMs: 1_000 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      /** Settles `work`, moving the clock only while the fake holds fewer than `hanging` requests answered. */
      const drive = async <T>(work: Promise<T>, hanging: (count: number) => boolean): Promise<T> => {
        let done = false;
        const settled = work.finally(() => (done = true));
        settled.catch(() => {});
        while (!done) {
          if (hanging(fake.count)) await vi.advanceTimersToNextTimerAsync();
          await new Promise((resolve) => setImmediate(resolve));
        }
        return settled;
      };
      expect((await drive(provider.complete({ messages: [{ role: 'user', content: 'x' }] }), (n) => n === 1)).text).toBe('in time');
      expect(fake.count).toBe(2);

      fake.push({ delayMs: 60_000 }, { delayMs: 60_000 });
      const slow = createProvider({ provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, timeoutMs: 100, maxRetries: 1 }, env, { limiters: new ProviderLimiters() });
      await expect(drive(slow.complete({ messages: [{ role: 'user', content: 'x' }] }), (n) => n >= 3)).rejects.toMatchObject({
        kind: 'timeout',
        message: 'openai request timed out after 100 ms (2 attempts)',
      });
      expect(fake.count).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails on a malformed body without retrying', async () => {
    const { fake, provider } = await setup([{ malformed: true }, { text: 'never' }]);
    await expect(provider.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ kind: 'malformed' });
    expect(fake.count).toBe(1);
  });

  it('does not retry a 400', async () => {
    const { fake, provider } = await setup([{ status: 400, message: "Invalid schema for response_format 'judgment'" }]);
    const err = await provider.complete({ messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'bad_request', status: 400 });
    expect((err as Error).message).toContain("Invalid schema for response_format 'judgment'");
    expect(fake.count).toBe(1);
  });

  it('fails fast on 401 naming the env var, with no secret anywhere in the error', async () => {
    const { fake, provider } = await setup([], { apiKeyEnv: 'OPENAI_API_KEY' }, 'sk-the-right-key-xxxxxxxx');
    const err = await provider.complete({ messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toBe('authentication failed for openai: check OPENAI_API_KEY');
    expect(fake.count).toBe(1);
    for (const text of [(err as Error).message, (err as Error).stack ?? '', inspect(err, { depth: 5 }), JSON.stringify(err)]) {
      expect(text).not.toContain(KEY);
    }
    expect(JSON.stringify(provider)).not.toContain(KEY);
  });

  it('names a custom key variable on 401', async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-the-right-key-xxxxxxxx' });
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, apiKeyEnv: 'TEAM_OPENAI_KEY' }, { TEAM_OPENAI_KEY: KEY }, { limiters: new ProviderLimiters() });
    await expect(provider.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow('authentication failed for openai: check TEAM_OPENAI_KEY');
  });

  it('refuses to build a provider without a key', () => {
    expect(() => createProvider('openai:gpt-4.1-mini', {}, { limiters: new ProviderLimiters() })).toThrow(ProviderConfigError);
    expect(() => createProvider('openai:gpt-4.1-mini', { OPENAI_API_KEY: '  ' }, { limiters: new ProviderLimiters() })).toThrow('missing API key for openai: set OPENAI_API_KEY');
  });

  it('takes the base URL from OPENAI_BASE_URL', async () => {
    fake = await startFakeOpenAI({ script: [{ text: 'via env' }] });
    const provider = createProvider('openai:gpt-4.1-mini', { ...env, OPENAI_BASE_URL: fake.url }, { limiters: new ProviderLimiters() });
    expect((await provider.complete({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('via env');
  });

  it('keeps no more calls in flight than the limiter allows', async () => {
    // The fake's 40 ms replies wait on a faked clock, moved only once every call holding a slot has
    // reached the fake: the peak it sees is what the limiter let out, however slow the machine.
    const { fake, provider, limiter } = await setup(() => ({ delayMs: 40, then: { text: 'ok' } }), { maxConcurrency: 2 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      let answered = 0;
      const calls = Promise.all(Array.from({ length: 6 }, () => provider.complete({ messages: [{ role: 'user', content: 'x' }] }).finally(() => answered++)));
      while (answered < 6) {
        if (limiter.inFlight > 0 && fake.count - answered === limiter.inFlight) await vi.advanceTimersByTimeAsync(40);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await calls;
      expect(fake.count).toBe(6);
      expect(fake.maxInFlight).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops a call whose signal aborts', async () => {
    const { provider } = await setup([{ delayMs: 60_000 }]);
    const ctrl = new AbortController();
    const pending = provider.complete({ messages: [{ role: 'user', content: 'x' }], signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 30);
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });
});
