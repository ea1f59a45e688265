/**
 * The fake OpenAI server's embeddings endpoint, driven by the real SDK: it answers what the real API
 * answers (floats, or base64 the SDK decodes; `dimensions` on the text-embedding-3 models) and
 * refuses with OpenAI's error shape what the real API refuses: `dimensions` on a model that does not
 * take it, an empty input, an unknown field, a model that does not embed.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { cosineSimilarity } from '../../src/assertions/similar-to.js';

let fake: FakeOpenAI;
let client: OpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  client = new OpenAI({ baseURL: fake.url, apiKey: 'test-key', maxRetries: 0 });
});
afterAll(() => fake.close());

async function refusal(body: OpenAI.EmbeddingCreateParams) {
  const err = await client.embeddings.create(body).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OpenAI.APIError);
  const e = err as InstanceType<typeof OpenAI.APIError>;
  expect(e.type).toBe('invalid_request_error');
  return { status: e.status, param: e.param, code: e.code };
}

describe('fake OpenAI /v1/embeddings', () => {
  it('answers floats or base64 (decoded by the SDK) of the model size, normalized, with usage', async () => {
    const floats = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'the meeting moved to Friday', encoding_format: 'float' });
    expect(floats.data[0]!.embedding).toHaveLength(1536);
    expect(Math.hypot(...floats.data[0]!.embedding)).toBeCloseTo(1, 6);
    expect(floats.usage).toEqual({ prompt_tokens: 5, total_tokens: 5 });
    // Without encoding_format the SDK asks for base64 and decodes it.
    const decoded = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'the meeting moved to Friday' });
    expect(fake.bodies.at(-1).encoding_format).toBe('base64');
    expect(cosineSimilarity(decoded.data[0]!.embedding, floats.data[0]!.embedding)).toBeCloseTo(1, 5);
    const short = await client.embeddings.create({ model: 'text-embedding-3-large', input: ['a b', 'c'], dimensions: 64, encoding_format: 'float' });
    expect(short.data.map((d) => [d.index, d.embedding.length])).toEqual([
      [0, 64],
      [1, 64],
    ]);
  });

  it('refuses what the real API refuses, in its error shape', async () => {
    expect(await refusal({ model: 'text-embedding-ada-002', input: 'x', dimensions: 256 })).toEqual({ status: 400, param: 'dimensions', code: null });
    expect(await refusal({ model: 'text-embedding-3-small', input: 'x', dimensions: 4096 })).toEqual({ status: 400, param: 'dimensions', code: null });
    expect(await refusal({ model: 'text-embedding-3-small', input: '' })).toEqual({ status: 400, param: 'input', code: null });
    expect(await refusal({ model: 'text-embedding-3-small', input: [] })).toEqual({ status: 400, param: 'input', code: null });
    expect(await refusal({ model: 'gpt-5.5', input: 'x' })).toEqual({ status: 404, param: 'model', code: 'model_not_found' });
    const raw = await fetch(`${fake.url}/embeddings`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-3-small', input: 'x', encoding_format: 'float16' }),
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { error: { param: string } }).error.param).toBe('encoding_format');
    const unknown = await fetch(`${fake.url}/embeddings`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-3-small', input: 'x', temperature: 0 }),
    });
    expect(unknown.status).toBe(400);
  });
});
