/**
 * Batch judging with an image input: the batch's request lines carry the image in each API's own
 * format (OpenAI Batch JSONL lines with `image_url` parts, Anthropic Message Batch requests with
 * base64 `image` blocks), and the batch fakes validate each line as a direct call: a bad media type
 * comes back as that line's 400 `invalid_request_error`, in each provider's error shape.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { toFile } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { IMAGE_PNG, imageChatMessages, imageEvalFiles } from './image-fixtures.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000', ANTHROPIC_API_KEY: 'sk-ant-test-dummy-000000' };
const DATA = IMAGE_PNG.toString('base64');
const VERDICT = { json: { score: 1, reason: 'names the total', evidence: [] } };
const files = () => {
  const f = imageEvalFiles('fn');
  f['evals/receipt.eval.yaml'] = String(f['evals/receipt.eval.yaml']).replace('      - { type: image, path: images/big.png }\n', '');
  return f;
};
const judged = (judge: { provider: 'openai' | 'anthropic'; model: string; baseURL: string }) =>
  runInProcess({
    files: files(),
    config: { targets: { fn: () => 'The total is $12.50.' }, judge },
    flags: { cache: false, judgeBatch: true },
    env,
    batchPolling: { sleep: async () => {} },
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
  });

describe('a judged image case under batch judging', () => {
  it('OpenAI: the batch line carries the image_url part; the verdict comes from the batch', async () => {
    const fake = await startFakeOpenAI({ script: () => VERDICT });
    fakes.push(fake);
    const { results } = await judged({ provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url });
    expect(results.cases[0]!.verdict).toBe('passed');
    expect(fake.batches.creates).toHaveLength(1);
    const jsonl = await (await fetch(`${fake.url}/files/${fake.batches.creates[0]!.inputFileId}/content`, { headers: { authorization: `Bearer ${env.OPENAI_API_KEY}` } })).text();
    const lines = jsonl
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    const user = lines[0].body.messages.find((m: any) => m.role === 'user').content;
    expect(user[0].text).toContain('[attachment 1: image receipt.png (image/png');
    expect(user.slice(1)).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${DATA}` } }]);
  });

  it('Anthropic: the batch request carries the base64 image block; the verdict comes from the batch', async () => {
    const fake = await startFakeAnthropic({ script: () => VERDICT });
    fakes.push(fake);
    const { results } = await judged({ provider: 'anthropic', model: 'claude-haiku-4-5', baseURL: fake.url });
    expect(results.cases[0]!.verdict).toBe('passed');
    expect(fake.batches.created).toHaveLength(1);
    const [request] = fake.batches.created[0]!.requests;
    const blocks = request!.params.messages[0].content as any[];
    expect(blocks.filter((b) => b.type === 'image')).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: DATA } }]);
  });
});

describe('the batch fakes refuse a bad image line as a direct call would', () => {
  it('OpenAI: an image_url of an unsupported type is that line 400 invalid_request_error in the error file', async () => {
    const fake = await startFakeOpenAI({ script: () => VERDICT });
    fakes.push(fake);
    const client = new OpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: fake.url, maxRetries: 0 });
    const line = (id: string, url: string) =>
      JSON.stringify({
        custom_id: id,
        method: 'POST',
        url: '/v1/chat/completions',
        body: {
          model: 'gpt-4.1-mini',
          messages: imageChatMessages(url),
        },
      });
    const file = await client.files.create({
      file: await toFile(Buffer.from(`${line('good', `data:image/png;base64,${DATA}`)}\n${line('bmp', `data:image/bmp;base64,${DATA}`)}\n`), 'lines.jsonl'),
      purpose: 'batch',
    });
    let batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    while (!['completed', 'failed'].includes(batch.status)) batch = await client.batches.retrieve(batch.id);
    expect(batch.status).toBe('completed');
    const out = (await (await client.files.content(batch.output_file_id!)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const err = (await (await client.files.content(batch.error_file_id!)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.map((l) => l.custom_id)).toEqual(['good']);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatchObject({ custom_id: 'bmp', response: { status_code: 400, body: { error: { type: 'invalid_request_error', param: 'messages[0].content[1].image_url.url' } } } });
  });

  it('Anthropic: an image block of an unsupported media type is that request errored with invalid_request_error', async () => {
    const fake = await startFakeAnthropic({ script: () => VERDICT });
    fakes.push(fake);
    const client = new Anthropic({ apiKey: env.ANTHROPIC_API_KEY, baseURL: fake.url, maxRetries: 0 });
    const params = (media: string): Anthropic.MessageCreateParamsNonStreaming =>
      // A media type the SDK's type does not allow is what a mistyped wire would send.
      JSON.parse(
        JSON.stringify({
          model: 'claude-haiku-4-5',
          max_tokens: 64,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'image', source: { type: 'base64', media_type: media, data: DATA } },
                { type: 'text', text: 'hi' },
              ],
            },
          ],
        }),
      );
    let batch = await client.messages.batches.create({
      requests: [
        { custom_id: 'good', params: params('image/png') },
        { custom_id: 'bmp', params: params('image/bmp') },
      ],
    });
    while (batch.processing_status !== 'ended') batch = await client.messages.batches.retrieve(batch.id);
    const results: Record<string, Anthropic.Messages.MessageBatchResult> = {};
    for await (const r of await client.messages.batches.results(batch.id)) results[r.custom_id] = r.result;
    expect(results.good!.type).toBe('succeeded');
    expect(results.bmp).toMatchObject({ type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error' } } });
  });
});
