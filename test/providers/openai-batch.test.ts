/**
 * The OpenAI Batch API over the official SDK, against the fake server's Batch API: the uploaded
 * JSONL holds the live call's own request bodies, the batch is polled to its end, and its output
 * and error files are read back through the live call's mapping; a cancel reaches the server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createBatchApi } from '../../src/providers/batch-create.js';
import { providerSettings } from '../../src/providers/create.js';
import { toOpenAIParams } from '../../src/providers/wires/openai/openai-wire.js';
import { priceUsage } from '../../src/providers/pricing.js';
import type { BatchItem } from '../../src/providers/batch-types.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import type { Script } from '../support/fake-server.js';

const env = { OPENAI_API_KEY: 'sk-test-batch-0123456789' };
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(script: Script, pollsInProgress = 1) {
  fake = await startFakeOpenAI({ script, batch: { pollsInProgress } });
  const settings = providerSettings({ provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, temperature: 0 }, env, { limiters: new ProviderLimiters() });
  return { fake, api: await createBatchApi(settings) };
}

const item = (n: number): BatchItem => ({
  customId: `c${n}`,
  request: {
    system: 'Grade it.',
    messages: [{ role: 'user', content: `reply ${n}` }],
    schema: { name: 'verdict', jsonSchema: { type: 'object', properties: { score: { type: 'number' } }, required: ['score'], additionalProperties: false } },
  },
});

describe('OpenAI batch API', () => {
  it('uploads one JSONL of the live request bodies, polls to completed, and maps every answer', async () => {
    const { fake, api } = await setup((body) => {
      const text = String(body.messages[1].content);
      return text.endsWith('2') ? { status: 400, message: 'bad request two' } : { json: { score: Number(text.slice(-1)) / 10 }, usage: { input: 30, output: 4 } };
    }, 2);
    const items = [item(1), item(2), item(3)];
    const id = await api.submit(items);

    const upload = fake.requests.find((r) => r.path === '/v1/files')!;
    expect(upload.headers['content-type']).toMatch(/^multipart\/form-data/);
    const lines = fake.requests
      .filter((r) => r.path === '/v1/files')
      .flatMap((r) => r.rawBody.split(/\r?\n/).filter((l) => l.startsWith('{"custom_id"')))
      .map((l) => JSON.parse(l));
    // The same body a live call sends, built by the same mapping.
    expect(lines).toEqual(items.map((it) => ({ custom_id: it.customId, method: 'POST', url: '/v1/chat/completions', body: toOpenAIParams('gpt-4.1-mini', it.request, { temperature: 0 }) })));
    expect(fake.batches.creates).toEqual([{ id, lines: 3, inputFileId: expect.any(String) }]);
    expect(fake.requests.find((r) => r.path === '/v1/batches')!.body).toMatchObject({ endpoint: '/v1/chat/completions', completion_window: '24h' });

    // validating, then two polls in progress (lines answered over them), then completed.
    expect(await api.status(id)).toEqual({ id, state: 'pending', done: 0, total: 3 });
    expect(await api.status(id)).toEqual({ id, state: 'pending', done: 2, total: 3 });
    expect(await api.status(id)).toEqual({ id, state: 'ended', done: 3, total: 3 });

    const results = await api.results(id);
    const byId = Object.fromEntries(results.map((r) => [r.customId, r]));
    expect(byId.c1).toMatchObject({ ok: true, response: { text: '{"score":0.1}', usage: { inputTokens: 30, outputTokens: 4 }, finishReason: 'stop' } });
    expect(byId.c3).toMatchObject({ ok: true, response: { text: '{"score":0.3}' } });
    expect(byId.c2).toEqual({ customId: 'c2', ok: false, error: 'HTTP 400: bad request two' });
    // No chat completion was called live.
    expect(fake.requests.some((r) => r.path === '/v1/chat/completions')).toBe(false);
  });

  it('reads an output file of 20 MB (past the 16 MB cap on one reply) line by line: every answer', async () => {
    // 200 answers of about 100 KB each: a 20 MB output file.
    const { fake, api } = await setup((body) => ({ json: { score: 0.5, reason: `${String(body.messages[1].content)} ${'x'.repeat(100_000)}` } }));
    const items = Array.from({ length: 200 }, (_, n) => item(n));
    const id = await api.submit(items);
    while ((await api.status(id)).state === 'pending');
    const results = await api.results(id);
    const sent = fake.requests.filter((r) => r.path.endsWith('/content'));
    expect(sent).toHaveLength(1);
    expect(results).toHaveLength(200);
    expect(results.every((r) => r.ok)).toBe(true);
    const texts = results.map((r) => (r.ok ? (JSON.parse(r.response.text) as { reason: string }).reason.split(' ')[0] : ''));
    expect(texts.sort()).toEqual(items.map((i) => String(i.request.messages[0]!.content).split(' ')[0]).sort());
    // The file really was past the cap on one reply.
    const total = results.reduce((n, r) => n + (r.ok ? r.response.text.length : 0), 0);
    expect(total).toBeGreaterThan(20_000_000);
  });

  it('refuses a line of a result file longer than the cap on one reply, naming the cap', async () => {
    fake = await startFakeOpenAI({ script: () => ({ json: { score: 0.5, reason: 'y'.repeat(3_000) } }) });
    const settings = providerSettings({ provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxResponseBytes: 2_000 }, env, { limiters: new ProviderLimiters() });
    const api = await createBatchApi(settings);
    const id = await api.submit([item(1)]);
    while ((await api.status(id)).state === 'pending');
    await expect(api.results(id)).rejects.toThrow(/longer than 2000 bytes/);
  });

  it('a status the API does not document is `unknown`, naming it, never pending', async () => {
    fake = await startFakeOpenAI({ script: () => ({ json: { score: 1 } }), batch: { unknownStatus: 'queued_for_review' } });
    const settings = providerSettings({ provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url }, env, { limiters: new ProviderLimiters() });
    const api = await createBatchApi(settings);
    const id = await api.submit([item(1)]);
    expect(await api.status(id)).toEqual({ id, state: 'unknown', providerState: 'queued_for_review', done: 0, total: 1 });
  });

  it('sizes an item as its JSONL line and holds the documented limits', async () => {
    const { api } = await setup([]);
    const line = JSON.stringify({ custom_id: 'c1', method: 'POST', url: '/v1/chat/completions', body: toOpenAIParams('gpt-4.1-mini', item(1).request, { temperature: 0 }) });
    expect(api.sizeOf(item(1))).toBe(Buffer.byteLength(line) + 1);
    expect(api.maxRequests).toBe(50_000);
    expect(api.maxBytes).toBe(200 * 1024 * 1024);
    expect(api.spec).toBe('openai:gpt-4.1-mini');
  });

  it('cancels a pending batch at the provider: cancelling, then cancelled', async () => {
    const { fake, api } = await setup(() => ({ json: { score: 1 } }), 100);
    const id = await api.submit([item(1), item(2)]);
    expect((await api.status(id)).state).toBe('pending');
    await api.cancel(id);
    expect(fake.batches.cancels).toEqual([id]);
    expect(await api.status(id)).toMatchObject({ state: 'cancelled' });
  });

  it('prices batch usage at half the standard rate', () => {
    const tokens = { inputTokens: 1_000_000, outputTokens: 1_000_000 };
    expect(priceUsage('openai:gpt-4.1-mini', tokens)).toBeCloseTo(2.0, 9);
    expect(priceUsage('openai:gpt-4.1-mini', tokens, {}, { batch: true })).toBeCloseTo(1.0, 9);
    // A user's price may set its own batch fraction.
    expect(priceUsage('openai:my-tune', tokens, { 'openai:my-tune': { input: 1, output: 1, batch: 0.25 } }, { batch: true })).toBeCloseTo(0.5, 9);
  });

  it('gives an anthropic spec the Message Batches API, at its limits', async () => {
    const settings = providerSettings({ provider: 'anthropic', model: 'claude-haiku-4-5' }, { ANTHROPIC_API_KEY: 'k' }, { limiters: new ProviderLimiters() });
    expect(await createBatchApi(settings)).toMatchObject({ provider: 'anthropic', spec: 'anthropic:claude-haiku-4-5', maxRequests: 100_000 });
  });
});
