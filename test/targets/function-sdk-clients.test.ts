/**
 * ctx.openai() / ctx.anthropic() on function targets: real SDK clients whose calls' usage lands in
 * the trial's run, read off the wire (JSON and streamed) by the client's fetch, nothing mocked.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { functionTarget } from '../../src/targets/function-target.js';
import { spentOf } from '../../src/core/errors.js';
import { usageOfRun } from '../../src/providers/run-usage.js';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';
import type { FakeProvider } from '../support/fake-server.js';
import { ANTHROPIC_KEY, never, OPENAI_KEY, startFake, trialInput } from './helpers.js';

let servers: Array<FakeProvider | FakeServer> = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  vi.unstubAllEnvs();
});

const pricing = { overrides: {}, warnUnpriced: () => {} };

describe('ctx.openai()', () => {
  it('returns an SDK client on OPENAI_BASE_URL whose calls are recorded as priced steps', async () => {
    const { fake } = await startFake('openai', [
      { text: 'first', usage: { input: 100, output: 10, cached: 20 }, model: 'gpt-4.1-mini-2025-04-14' },
      { status: 429, retryAfterMs: 1 },
      { text: 'second', usage: { input: 50, output: 5, reasoning: 2 }, model: 'gpt-4.1-mini-2025-04-14' },
    ]);
    servers.push(fake);
    vi.stubEnv('OPENAI_API_KEY', OPENAI_KEY);
    vi.stubEnv('OPENAI_BASE_URL', fake.url);

    const target = functionTarget('sdk-agent', async (input, ctx) => {
      const openai = await ctx.openai();
      const a = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: input }] });
      const b = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'again' }] });
      return `${a.choices[0]!.message.content} ${b.choices[0]!.message.content}`;
    });
    const run = await target.run(trialInput('hello'), never);

    expect(run.reply).toBe('first second');
    expect(fake.requests[0]!.headers['authorization']).toBe(`Bearer ${OPENAI_KEY}`);
    // Two calls: the 429 the SDK retried billed nothing.
    expect(run.steps).toEqual([
      { usage: { inputTokens: 100, outputTokens: 10, cachedInputTokens: 20, reasoningTokens: 0 }, model: 'openai:gpt-4.1-mini-2025-04-14' },
      { usage: { inputTokens: 50, outputTokens: 5, cachedInputTokens: 0, reasoningTokens: 2 }, model: 'openai:gpt-4.1-mini-2025-04-14' },
    ]);
    const usage = usageOfRun(run, pricing);
    expect(usage).toMatchObject({ calls: 2, inputTokens: 150, outputTokens: 15, cachedInputTokens: 20, reasoningTokens: 2 });
    expect(usage.costUsd).toBeCloseTo((80 * 0.4 + 20 * 0.1 + 10 * 1.6 + 50 * 0.4 + 5 * 1.6) / 1e6, 12);
  });

  it('reads usage off a streamed response (the final chunk of stream_options.include_usage)', async () => {
    const chunk = (o: object) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1-mini-2025-04-14', ...o })}\n\n`;
    const server = await startFakeServer(() => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body:
        chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }], usage: null }) +
        chunk({ choices: [{ index: 0, delta: { content: 'lo' }, finish_reason: 'stop' }], usage: null }) +
        chunk({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } }) +
        'data: [DONE]\n\n',
    }));
    servers.push(server);
    vi.stubEnv('OPENAI_API_KEY', OPENAI_KEY);

    const target = functionTarget('streamer', async (_input, ctx) => {
      const openai = await ctx.openai({ baseURL: `${server.origin}/v1` });
      const stream = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      for await (const part of stream) text += part.choices[0]?.delta.content ?? '';
      return text;
    });
    const run = await target.run(trialInput('hi'), never);
    expect(run.reply).toBe('Hello');
    expect(run.steps).toEqual([{ usage: { inputTokens: 12, outputTokens: 3, cachedInputTokens: 0, reasoningTokens: 0 }, model: 'openai:gpt-4.1-mini-2025-04-14' }]);
  });

  it('fails the trial naming OPENAI_API_KEY when it is not set', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const target = functionTarget('keyless', async (_i, ctx) => {
      await ctx.openai();
      return 'never';
    });
    await expect(target.run(trialInput('x'), never)).rejects.toThrow('missing API key for openai: set OPENAI_API_KEY');
  });
});

describe('ctx.anthropic()', () => {
  it('returns an SDK client on ANTHROPIC_BASE_URL whose usage (cache reads included) is recorded', async () => {
    const { fake } = await startFake('anthropic', [{ text: 'Hi from Claude', usage: { input: 40, cached: 60, output: 8 }, model: 'claude-sonnet-4-6' }]);
    servers.push(fake);
    vi.stubEnv('ANTHROPIC_API_KEY', ANTHROPIC_KEY);
    vi.stubEnv('ANTHROPIC_BASE_URL', fake.url);

    const target = functionTarget('claude-agent', async (input, ctx) => {
      const claude = await ctx.anthropic();
      const msg = await claude.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: input }] });
      return msg.content[0]!.type === 'text' ? msg.content[0].text : '';
    });
    const run = await target.run(trialInput('hello'), never);
    expect(run.reply).toBe('Hi from Claude');
    expect(run.steps).toEqual([{ usage: { inputTokens: 100, outputTokens: 8, cachedInputTokens: 60 }, model: 'anthropic:claude-sonnet-4-6' }]);
  });

  it('reads a streamed Messages response: message_start usage updated by message_delta', async () => {
    const ev = (type: string, o: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...o })}\n\n`;
    const server = await startFakeServer(() => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body:
        ev('message_start', {
          message: {
            id: 'm',
            type: 'message',
            role: 'assistant',
            model: 'claude-haiku-4-5',
            content: [],
            stop_reason: null,
            usage: { input_tokens: 30, output_tokens: 1, cache_read_input_tokens: 10 },
          },
        }) +
        ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Streamed' } }) +
        ev('content_block_stop', { index: 0 }) +
        ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }) +
        ev('message_stop', {}),
    }));
    servers.push(server);
    vi.stubEnv('ANTHROPIC_API_KEY', ANTHROPIC_KEY);

    const target = functionTarget('claude-streamer', async (_i, ctx) => {
      const claude = await ctx.anthropic({ baseURL: server.origin });
      const stream = claude.messages.stream({ model: 'claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
      return (await stream.finalMessage()).content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    });
    const run = await target.run(trialInput('hi'), never);
    expect(run.reply).toBe('Streamed');
    expect(run.steps).toEqual([{ usage: { inputTokens: 40, outputTokens: 9, cachedInputTokens: 10 }, model: 'anthropic:claude-haiku-4-5' }]);
  });
});

describe('function target failures', () => {
  it('keep the usage of the calls made before the function threw', async () => {
    const { fake } = await startFake('openai', [{ text: 'ok', usage: { input: 7, output: 3 } }]);
    servers.push(fake);
    vi.stubEnv('OPENAI_API_KEY', OPENAI_KEY);
    vi.stubEnv('OPENAI_BASE_URL', fake.url);
    const target = functionTarget('crashy', async (_i, ctx) => {
      await (await ctx.openai()).chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'x' }] });
      throw new Error('agent crashed after one call');
    });
    const err = await target.run(trialInput('x'), never).catch((e: unknown) => e);
    expect((err as Error).message).toBe('agent crashed after one call');
    expect(spentOf(err).run?.steps).toEqual([{ usage: expect.objectContaining({ inputTokens: 7, outputTokens: 3 }), model: 'openai:gpt-4.1-mini' }]);
  });
});

describe('ctx.fetch()', () => {
  it('records the usage of calls a client of your own makes through it, with the client keeping its key and endpoint', async () => {
    const { fake } = await startFake('openai', [{ text: 'own client', usage: { input: 40, output: 4, cached: 8 }, model: 'gpt-4.1-mini-2025-04-14' }]);
    servers.push(fake);
    const { default: OpenAI } = await import('openai');
    const target = functionTarget('own-client', async (input, ctx) => {
      const client = new OpenAI({ apiKey: 'sk-own-client-key', baseURL: fake.url, fetch: ctx.fetch('openai') });
      const r = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: input }] });
      return r.choices[0]!.message.content ?? '';
    });
    const run = await target.run(trialInput('hi'), never);
    expect(run.reply).toBe('own client');
    expect(fake.requests[0]!.headers['authorization']).toBe('Bearer sk-own-client-key');
    expect(run.steps).toEqual([{ usage: { inputTokens: 40, outputTokens: 4, cachedInputTokens: 8, reasoningTokens: 0 }, model: 'openai:gpt-4.1-mini-2025-04-14' }]);
  });

  it('answers in-process with the placeholder under --dry-run: nothing is sent', async () => {
    const { fake } = await startFake('anthropic', []);
    servers.push(fake);
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const target = functionTarget(
      'dry',
      async (input, ctx) => {
        const client = new Anthropic({ apiKey: 'k', baseURL: fake.url, fetch: ctx.fetch('anthropic') });
        const m = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: input }] });
        return m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      },
      { dryRun: true },
    );
    const run = await target.run(trialInput('hi'), never);
    expect(fake.requests).toHaveLength(0);
    expect(run.steps).toEqual([{ usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }, model: 'anthropic:claude-sonnet-4-5' }]);
  });
});
