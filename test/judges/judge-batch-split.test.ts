/**
 * The judge batch's own machinery over an in-memory BatchApi (the contract, not an SDK): calls split
 * at the provider's limits, polls backing off to their cap, and every call answered from the results
 * or failed with why (a failed batch, a missing answer, a request too big for any batch).
 */
import { describe, expect, it } from 'vitest';
import { JudgeBatch } from '../../src/judges/judge-batch.js';
import type { BatchApi, BatchItem, BatchItemResult, BatchStatus } from '../../src/providers/batch-types.js';
import type { CompletionResponse, Provider } from '../../src/providers/types.js';

const live: Provider = {
  id: 'openai',
  model: 'm',
  spec: 'openai:m',
  complete: () => Promise.reject(new Error('a batched call must not go live')),
};

/** A provider batch that ends after `pendingPolls` polls, answering each request with its own text. */
function memoryApi(opts: { maxRequests?: number; maxBytes?: number; pendingPolls?: number; end?: BatchStatus['state']; drop?: (id: string) => boolean } = {}) {
  const batches = new Map<string, { items: BatchItem[]; polls: number }>();
  const api: BatchApi = {
    provider: 'openai',
    spec: 'openai:m',
    maxRequests: opts.maxRequests ?? 100,
    maxBytes: opts.maxBytes ?? 1_000_000,
    sizeOf: (item) => String(item.request.messages[0]!.content).length,
    async submit(items) {
      const id = `b${batches.size + 1}`;
      batches.set(id, { items, polls: 0 });
      return id;
    },
    async status(id) {
      const b = batches.get(id)!;
      b.polls += 1;
      const ended = b.polls > (opts.pendingPolls ?? 0);
      return { id, state: ended ? (opts.end ?? 'ended') : 'pending', done: ended ? b.items.length : 0, total: b.items.length };
    },
    async results(id): Promise<BatchItemResult[]> {
      return batches
        .get(id)!
        .items.filter((i) => !opts.drop?.(i.customId))
        .map((i) => ({ customId: i.customId, ok: true, response: reply(String(i.request.messages[0]!.content)) }));
    },
    async cancel() {},
  };
  return { api, batches };
}

/** A call joins the queue once its batch API is loaded: a turn later. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

const reply = (text: string): CompletionResponse => ({ text, toolCalls: [], usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop', model: 'm' });

function setup(api: BatchApi) {
  const delays: number[] = [];
  const progress: string[] = [];
  const batch = new JudgeBatch({
    progress: (l) => progress.push(l),
    polling: {
      firstDelayMs: 10,
      maxDelayMs: 40,
      sleep: async (ms) => void delays.push(ms),
    },
  });
  const provider = batch.provider(live, Promise.resolve(api), 50);
  const ask = (text: string) => provider.complete({ messages: [{ role: 'user', content: text }] });
  return { batch, ask, delays, progress };
}

describe('JudgeBatch', () => {
  it('splits at maxRequests and maxBytes, and answers every call from its batch', async () => {
    const { api, batches } = memoryApi({ maxRequests: 3, maxBytes: 9 });
    const { batch, ask } = setup(api);
    const calls = ['aa', 'bb', 'cc', 'dd', 'eeeeeeee', 'ff'].map(ask);
    await tick();
    expect(batch.queued).toBe(6);
    await batch.flush(new AbortController().signal);
    // 3 requests fill the first; then 'dd' + 'eeeeeeee' would pass 9 bytes, and so would 'eeeeeeee' + 'ff'.
    expect([...batches.values()].map((b) => b.items.map((i) => i.request.messages[0]!.content))).toEqual([['aa', 'bb', 'cc'], ['dd'], ['eeeeeeee'], ['ff']]);
    expect((await Promise.all(calls)).map((r) => r.text)).toEqual(['aa', 'bb', 'cc', 'dd', 'eeeeeeee', 'ff']);
    expect(batch.queued).toBe(0);
  });

  it('fails alone a request bigger than any batch may hold', async () => {
    const { api } = memoryApi({ maxBytes: 4 });
    const { batch, ask } = setup(api);
    const small = ask('ok');
    const big = ask('too big');
    await tick();
    await batch.flush(new AbortController().signal);
    expect((await small).text).toBe('ok');
    await expect(big).rejects.toThrow('the judge request is 7 bytes, more than the 4 one openai batch may hold');
  });

  it('polls with doubling waits up to the cap, and shows progress as the count changes', async () => {
    const { api } = memoryApi({ pendingPolls: 4 });
    const { batch, ask, delays, progress } = setup(api);
    const call = ask('x');
    await tick();
    await batch.flush(new AbortController().signal);
    await call;
    expect(delays).toEqual([10, 20, 40, 40, 40]);
    expect(progress).toEqual(['judge batch b1 (openai:m): 1 request submitted', 'judge batch b1: 0/1 done', 'judge batch b1: 1/1 done, ended']);
  });

  it('fails every call of a failed batch, and a call the results do not answer', async () => {
    const failed = setup(memoryApi({ end: 'failed' }).api);
    const a = failed.ask('a');
    await tick();
    await failed.batch.flush(new AbortController().signal);
    await expect(a).rejects.toThrow('judge batch b1 failed without an answer to this request');

    const partial = setup(memoryApi({ drop: (id) => id.endsWith('2') }).api);
    const [x, y] = [partial.ask('x'), partial.ask('y')];
    await tick();
    await partial.batch.flush(new AbortController().signal);
    expect((await x).text).toBe('x');
    await expect(y).rejects.toThrow('judge batch b1 ended without an answer to this request');
  });

  it('estimates tokens per model: input from the request size, output from the token limit', async () => {
    const { api } = memoryApi();
    const { batch, ask } = setup(api);
    const calls = [ask('12345678'), ask('1234')].map((p) => p.catch((e: Error) => e.message));
    await tick();
    expect(batch.estimate()).toEqual([{ spec: 'openai:m', inputTokens: 3, outputTokens: 100 }]);
    batch.failQueued(new Error('done'));
    return expect(Promise.all(calls)).resolves.toEqual(['done', 'done']);
  });
});
