import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors.js';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { ANTHROPIC_BATCH_MAX_BYTES, ANTHROPIC_BATCH_MAX_REQUESTS, anthropicBatchApi, toBatchStatus } from '../../src/providers/wires/anthropic/anthropic-batch.js';
import type { BatchApi, BatchItem, BatchStatus } from '../../src/providers/batch-types.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../src/providers/body-limit.js';
import { createProvider, limiterKey } from '../../src/providers/create.js';
import { parseModelSpec } from '../../src/providers/model-spec.js';
import type { ProviderSettings } from '../../src/providers/settings.js';
import type { CompletionRequest, CompletionResponse } from '../../src/providers/types.js';
import type { FakeBatchOptions } from '../support/fake-anthropic-batch.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import type { Script } from '../support/fake-server.js';

const KEY = 'sk-ant-test-secret-0123456789';
const MODEL = { provider: 'anthropic' as const, model: 'claude-sonnet-4-6', temperature: 0 };

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function settingsFor(server: FakeAnthropic, limiters = new ProviderLimiters()): ProviderSettings {
  return {
    spec: parseModelSpec({ ...MODEL, baseURL: server.url }),
    apiKey: KEY,
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    baseURL: server.url,
    limiter: limiters.for(limiterKey('anthropic', server.url)),
    network: { env: {} },
  };
}

async function setup(script: Script, batch?: FakeBatchOptions) {
  fake = await startFakeAnthropic({ script, ...(batch ? { batch } : {}), apiKey: KEY });
  const limiters = new ProviderLimiters();
  const live = createProvider({ ...MODEL, baseURL: fake.url }, { ANTHROPIC_API_KEY: KEY }, { limiters });
  return { fake, api: anthropicBatchApi(settingsFor(fake, limiters)), live };
}

const VERDICT = {
  name: 'judge_verdict',
  jsonSchema: { type: 'object', properties: { score: { type: 'number' }, reasoning: { type: 'string' } }, required: ['score', 'reasoning'], additionalProperties: false },
};

/** A judge-style request: system text, one user message, structured output through the forced tool. */
const judgeRequest = (reply: string): CompletionRequest => ({
  system: 'You grade replies against a rubric.',
  messages: [{ role: 'user', content: `Rubric: is polite.\n<untrusted>${reply}</untrusted>` }],
  schema: VERDICT,
  temperature: 0,
});

/** Answers by content, so a live call and a batch line with the same request get the same reply. */
const byContent: Script = (body) => {
  const text = JSON.stringify(body.messages);
  const score = text.includes('rude') ? 0 : 1;
  return { json: { score, reasoning: `scored ${score}` }, usage: { input: 40, cached: 100, cacheWrite: 20, output: 7 }, model: 'claude-sonnet-4-6-20260217' };
};

/** Polls until the batch leaves `pending`, at most `max` times; returns every status seen. */
async function pollToEnd(api: BatchApi, id: string, max = 10): Promise<BatchStatus[]> {
  const seen: BatchStatus[] = [];
  for (let i = 0; i < max; i++) {
    const s = await api.status(id);
    seen.push(s);
    if (s.state !== 'pending') return seen;
  }
  throw new Error(`batch ${id} still pending after ${max} polls`);
}

const withoutRaw = (r: CompletionResponse) => ({ ...r, raw: undefined });

describe('Anthropic Message Batches against the fake', () => {
  it('submits judge requests as one batch, polls it to ended, and reads back what the live call returns', async () => {
    const { fake, api, live } = await setup(byContent, { pollsToEnd: 3 });
    const items: BatchItem[] = ['thanks a lot', 'go away, rude', 'happy to help'].map((reply, i) => ({ customId: `j${i}`, request: judgeRequest(reply) }));

    const id = await api.submit(items);
    const statuses = await pollToEnd(api, id);
    const results = await api.results(id);

    // One create, carrying all three; progress is reported poll by poll until the batch ends.
    expect(fake.batches.created).toHaveLength(1);
    expect(fake.batches.created[0]!.requests.map((r) => r.custom_id)).toEqual(['j0', 'j1', 'j2']);
    expect(statuses.map((s) => [s.state, s.done, s.total])).toEqual([
      ['pending', 1, 3],
      ['pending', 2, 3],
      ['ended', 3, 3],
    ]);
    // The fake streams results in reverse: each is matched to its item by custom_id.
    expect(results.map((r) => r.customId)).toEqual(['j2', 'j1', 'j0']);

    // The same requests sent live: the same params on the wire, the same mapped responses.
    for (const item of items) {
      const liveResponse = await live.complete(item.request);
      const batched = results.find((r) => r.customId === item.customId);
      expect(batched?.ok).toBe(true);
      if (!batched?.ok) continue;
      expect(withoutRaw(batched.response)).toEqual(withoutRaw(liveResponse));
    }
    const liveBodies = fake.requests.filter((r) => r.path === '/v1/messages').map((r) => r.body);
    expect(fake.batches.created[0]!.requests.map((r) => r.params)).toEqual(liveBodies);
    // The spec's temperature is ignored: API version 2026-10-21 refuses it (the fake too).
    expect(liveBodies[0]).not.toHaveProperty('temperature');

    const j1 = results.find((r) => r.customId === 'j1');
    expect(j1).toMatchObject({
      ok: true,
      response: {
        text: JSON.stringify({ score: 0, reasoning: 'scored 0' }),
        finishReason: 'stop',
        model: 'claude-sonnet-4-6-20260217',
        // Usage convention: input is the whole prompt, cache reads and writes included.
        usage: { inputTokens: 160, cachedInputTokens: 100, cacheWriteTokens: 20, outputTokens: 7 },
      },
    });
  });

  it('a later process reads a batch it did not submit (rejudge --batch) as the submitter would, given each answer schema by custom_id', async () => {
    const { api } = await setup(byContent, { pollsToEnd: 1 });
    const items: BatchItem[] = ['thanks a lot', 'go away, rude'].map((reply, i) => ({ customId: `j${i}`, request: judgeRequest(reply) }));
    const id = await api.submit(items);
    await pollToEnd(api, id);
    const submitter = await api.results(id);
    const later = anthropicBatchApi(settingsFor(fake!));
    const collected = await later.results(id, undefined, new Map(items.map((i) => [i.customId, i.request.schema?.name])));
    const byId = (rs: typeof submitter) => Object.fromEntries(rs.map((r) => [r.customId, r.ok ? withoutRaw(r.response) : r.error]));
    expect(byId(collected)).toEqual(byId(submitter));
    expect(collected.find((r) => r.customId === 'j1')).toMatchObject({ ok: true, response: { text: JSON.stringify({ score: 0, reasoning: 'scored 0' }) } });
    // Without the schema names the forced tool's answer is not found: the names are what makes the read the same.
    const blind = await later.results(id);
    expect(byId(blind)).not.toEqual(byId(submitter));
  });

  it('turns errored, expired and invalid requests into ok: false lines that say why', async () => {
    const { api } = await setup((body) => (JSON.stringify(body.messages).includes('overload') ? { status: 529, message: 'Overloaded' } : { json: { score: 1, reasoning: 'fine' } }), {
      expire: ['late'],
    });
    const items: BatchItem[] = [
      { customId: 'good', request: judgeRequest('hello') },
      { customId: 'busy', request: judgeRequest('overload me') },
      { customId: 'late', request: judgeRequest('hello again') },
      // A tool result without the assistant's tool call: a live call would answer 400.
      { customId: 'bad', request: { messages: [{ role: 'tool', toolCallId: 'toolu_x', name: 'lookup', content: '{}' }], schema: VERDICT } },
    ];
    const id = await api.submit(items);
    const last = (await pollToEnd(api, id)).at(-1)!;
    const byId = new Map((await api.results(id)).map((r) => [r.customId, r]));

    expect(last).toEqual({ id, state: 'ended', done: 4, total: 4 });
    expect(byId.get('good')).toMatchObject({ ok: true, response: { text: '{"score":1,"reasoning":"fine"}' } });
    expect(byId.get('busy')).toEqual({ customId: 'busy', ok: false, error: 'anthropic batch request errored (overloaded_error: Overloaded)' });
    expect(byId.get('late')).toMatchObject({ ok: false, error: expect.stringContaining('expired') });
    expect(byId.get('bad')).toMatchObject({ ok: false, error: expect.stringMatching(/invalid_request_error: .*tool_use_id/) });
  });

  it('reports a batch whose every request expired as expired', async () => {
    const { api } = await setup(byContent, { expire: ['a', 'b'], pollsToEnd: 1 });
    const id = await api.submit([
      { customId: 'a', request: judgeRequest('x') },
      { customId: 'b', request: judgeRequest('y') },
    ]);
    expect(await api.status(id)).toEqual({ id, state: 'expired', done: 2, total: 2 });
    expect((await api.results(id)).map((r) => r.ok)).toEqual([false, false]);
  });

  it('cancel reaches the fake; requests not yet run come back canceled, finished ones keep their answers', async () => {
    const { fake, api } = await setup(byContent, { pollsToEnd: 4 });
    const items: BatchItem[] = ['a', 'b', 'c', 'd'].map((reply) => ({ customId: `c_${reply}`, request: judgeRequest(reply) }));
    const id = await api.submit(items);
    expect(await api.status(id)).toMatchObject({ state: 'pending', done: 1, total: 4 });

    await api.cancel(id);
    expect(fake.batches.cancelled).toEqual([id]);
    expect(await api.status(id)).toEqual({ id, state: 'cancelled', done: 4, total: 4 });
    const results = await api.results(id);
    expect(results.filter((r) => r.ok).map((r) => r.customId)).toEqual(['c_a']);
    expect(results.filter((r) => !r.ok)).toHaveLength(3);
    expect(results.find((r) => r.customId === 'c_d')).toEqual({ customId: 'c_d', ok: false, error: 'anthropic batch request was canceled before it ran' });
  });

  it('counts an item as the bytes of its line in the create request, and carries the API limits', async () => {
    const { fake, api } = await setup(byContent);
    const items: BatchItem[] = [
      { customId: 'ascii', request: judgeRequest('plain') },
      { customId: 'wide', request: judgeRequest('é'.repeat(50)) },
    ];
    await api.submit(items);

    const raw = fake.requests.find((r) => r.path === '/v1/messages/batches')!.rawBody;
    // `{"requests":[` + lines joined by commas + `]}`: each sizeOf is its line plus one separator.
    const sizes = items.map((i) => api.sizeOf(i));
    expect(Buffer.byteLength(raw)).toBe('{"requests":[]}'.length + sizes[0]! + sizes[1]! - 1);
    // Counted in bytes, not characters: 50 two-byte letters weigh 100 bytes more than 50 ASCII ones would.
    expect(api.sizeOf({ customId: 'x', request: judgeRequest('é'.repeat(50)) }) - api.sizeOf({ customId: 'x', request: judgeRequest('e'.repeat(50)) })).toBe(50);
    expect(api.maxRequests).toBe(ANTHROPIC_BATCH_MAX_REQUESTS);
    expect(ANTHROPIC_BATCH_MAX_REQUESTS).toBe(100_000);
    expect(api.maxBytes).toBe(ANTHROPIC_BATCH_MAX_BYTES);
    expect(api.maxBytes).toBeLessThanOrEqual(256 * 1024 * 1024);
    expect(api.provider).toBe('anthropic');
    expect(api.spec).toBe('anthropic:claude-sonnet-4-6');
  });

  it('a create the API refuses is a ProviderError naming the field, without the key', async () => {
    const { fake, api } = await setup(byContent);
    const err = await api.submit([{ customId: 'not allowed!', request: judgeRequest('x') }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe('bad_request');
    expect((err as ProviderError).message).toContain('requests.0.custom_id');
    expect((err as ProviderError).message).not.toContain(KEY);
    expect(fake.batches.created).toHaveLength(0);
    await expect(api.status('msgbatch_missing')).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('the results stream size cap', () => {
  it('reads a results stream bigger than one reply may be, while a maxResponseBytes in the spec still bounds it', async () => {
    const big = 'x'.repeat(DEFAULT_MAX_RESPONSE_BYTES + 1024);
    const { api, live } = await setup(() => ({ json: { score: 1, reasoning: big } }), { pollsToEnd: 1 });
    const id = await api.submit([{ customId: 'big', request: judgeRequest('hi') }]);
    await pollToEnd(api, id);
    const [result] = await api.results(id);
    expect(result?.ok && result.response.text.length).toBeGreaterThan(DEFAULT_MAX_RESPONSE_BYTES);
    // The same reply live is past the per-call cap.
    await expect(live.complete(judgeRequest('hi'))).rejects.toThrow(/larger than/);

    await fake?.close();
    fake = await startFakeAnthropic({ script: () => ({ json: { score: 1, reasoning: 'y'.repeat(5000) } }), batch: { pollsToEnd: 1 }, apiKey: KEY });
    const capped = anthropicBatchApi({ ...settingsFor(fake), spec: parseModelSpec({ ...MODEL, baseURL: fake.url, maxResponseBytes: 4000 }) });
    const small = await capped.submit([{ customId: 'small', request: judgeRequest('hi') }]);
    await pollToEnd(capped, small);
    await expect(capped.results(small)).rejects.toThrow(/maxResponseBytes: 4000/);
  });
});

describe('batch status', () => {
  it('a processing_status the API does not document is unknown, naming it, never pending', () => {
    const counts = { processing: 2, succeeded: 1, errored: 0, canceled: 0, expired: 0 };
    const batch = { id: 'msgbatch_x', processing_status: 'paused_for_review', request_counts: counts, cancel_initiated_at: null } as unknown as Parameters<typeof toBatchStatus>[0];
    expect(toBatchStatus(batch)).toEqual({ id: 'msgbatch_x', state: 'unknown', providerState: 'paused_for_review', done: 1, total: 3 });
    expect(toBatchStatus({ ...batch, processing_status: 'in_progress' })).toEqual({ id: 'msgbatch_x', state: 'pending', done: 1, total: 3 });
  });
});

describe('creating a batch is never doubled', () => {
  it('does not resend a create whose connection dropped: the batch may exist, a second would be billed again', async () => {
    const { fake, api } = await setup(byContent, { createFaults: [{ drop: true }] });
    const err = await api.submit([{ customId: 'a', request: judgeRequest('x') }]).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'connection' });
    expect(fake.batches.createAttempts).toBe(1);
    expect(fake.batches.created).toHaveLength(0);
  });

  it('resends a create the API refused with 529, after its retry-after', async () => {
    const { fake, api } = await setup(byContent, { createFaults: [{ status: 529, message: 'Overloaded', retryAfterMs: 1 }] });
    const id = await api.submit([{ customId: 'a', request: judgeRequest('x') }]);
    expect(fake.batches.createAttempts).toBe(2);
    expect(fake.batches.created.map((b) => b.id)).toEqual([id]);
  });
});
