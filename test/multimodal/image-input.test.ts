/**
 * Images as a case's input, end to end (in-process runner, real SDK clients, fake servers that
 * check image parts as the real APIs do): the image reaches an OpenAI and an Anthropic model-agent
 * target and judge in each API's own format; a function target gets the parts; the results keep a
 * small image as a thumbnail and a large one by digest only; a malformed image is refused by the fakes.
 */
import { createHash } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import type { TargetContext } from '../../src/targets/function-target.js';
import { IMAGE_PNG, BIG_PNG, imageChatMessages, imageEvalFiles } from './image-fixtures.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000', ANTHROPIC_API_KEY: 'sk-ant-test-dummy-000000' };
const SMALL_URL = `data:image/png;base64,${IMAGE_PNG.toString('base64')}`;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const VERDICT = { score: 1, reason: 'names the total', evidence: [] };

describe('an image input at model-agent targets and judges', () => {
  it('OpenAI Chat Completions: the target and the judge each get image_url parts with the data URLs', async () => {
    const fake = await startFakeOpenAI({ script: (body) => (body.response_format ? { json: VERDICT } : { text: 'The total is $12.50.' }) });
    fakes.push(fake);
    const model = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: fake.url };
    const { results } = await runInProcess({
      files: imageEvalFiles('gpt'),
      config: { targets: { gpt: { model } }, judge: { ...model, maxRetries: 0 } },
      flags: { cache: false },
      env,
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
    });
    expect(results.cases[0]!.verdict).toBe('passed');
    const target = fake.bodies.find((b) => !b.response_format);
    const judge = fake.bodies.find((b) => b.response_format);
    const userOf = (b: any) => b.messages.find((m: any) => m.role === 'user');
    expect(userOf(target).content).toEqual([
      { type: 'text', text: 'What is the total on this receipt?' },
      { type: 'image_url', image_url: { url: SMALL_URL } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${BIG_PNG.toString('base64')}` } },
    ]);
    const judged = userOf(judge).content;
    expect(judged[0].type).toBe('text');
    expect(judged[0].text).toContain('[attachment 1: image receipt.png (image/png');
    expect(judged.slice(1).map((p: any) => p.image_url.url)).toEqual([SMALL_URL, `data:image/png;base64,${BIG_PNG.toString('base64')}`]);
  });

  it('Anthropic Messages: the target and the judge each get image blocks with base64 sources', async () => {
    const fake = await startFakeAnthropic({ script: (body) => (body.tool_choice || body.output_config?.format ? { json: VERDICT } : { text: 'The total is $12.50.' }) });
    fakes.push(fake);
    const model = { provider: 'anthropic' as const, model: 'claude-haiku-4-5', baseURL: fake.url };
    const { results } = await runInProcess({
      files: imageEvalFiles('claude'),
      config: { targets: { claude: { model } }, judge: { ...model, maxRetries: 0 } },
      flags: { cache: false },
      env,
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
    });
    expect(results.cases[0]!.verdict).toBe('passed');
    const isJudge = (b: any) => Boolean(b.tool_choice || b.output_config?.format);
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: IMAGE_PNG.toString('base64') } };
    const big = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: BIG_PNG.toString('base64') } };
    const target = fake.bodies.find((b) => !isJudge(b));
    expect(target.messages[0].content).toEqual([{ type: 'text', text: 'What is the total on this receipt?' }, image, big]);
    const judged = fake.bodies.find(isJudge).messages[0].content as any[];
    expect(judged.filter((b) => b.type === 'image')).toEqual([image, big]);
    expect(
      judged
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join(''),
    ).toContain('[attachment 2: image big.png (image/png');
  });
});

describe('a function target and the results', () => {
  it('a function target gets the parts as given; results keep the small image as a thumbnail and the large one by digest', async () => {
    let seen: TargetContext['trial']['parts'];
    const { results } = await runInProcess({
      files: imageEvalFiles('fn', '{ type: contains, value: total }'),
      config: {
        targets: {
          fn: (input: string, ctx: TargetContext) => {
            seen = ctx.trial.parts;
            return `${input} The total is $12.50.`;
          },
        },
      },
    });
    expect(seen?.map((p) => (p.type === 'text' ? p.text : 'url' in p ? p.url : `${p.mediaType} ${p.name} ${p.sha256}`))).toEqual([
      'What is the total on this receipt?',
      `image/png receipt.png ${sha(IMAGE_PNG)}`,
      `image/png big.png ${sha(BIG_PNG)}`,
    ]);
    const c = results.cases[0]!;
    expect(c.input).toBe('What is the total on this receipt?');
    expect(c.inputParts).toEqual([
      { type: 'text', text: 'What is the total on this receipt?' },
      { type: 'image', name: 'receipt.png', mediaType: 'image/png', bytes: IMAGE_PNG.length, sha256: sha(IMAGE_PNG), thumbnail: SMALL_URL },
      { type: 'image', name: 'big.png', mediaType: 'image/png', bytes: BIG_PNG.length, sha256: sha(BIG_PNG) },
    ]);
    // The large image's bytes are nowhere in the results document (read back from the file the JSON reporter wrote).
    expect(JSON.stringify(results)).not.toContain(BIG_PNG.toString('base64').slice(8, 200));
  });

  it('a file given as an image that is not one is a user error naming the eval file and the part', async () => {
    const failure = (files: Record<string, string | Buffer>) =>
      runInProcess({ files: { ...imageEvalFiles('fn', '{ type: contains, value: total }'), ...files }, config: { targets: { fn: () => 'x' } } }).then(
        () => 'ran',
        (e: Error) => `${e.constructor.name}: ${e.message}`,
      );
    await expect(failure({ 'evals/receipt.png': 'just text' })).resolves.toMatch(/^UserError: evals\/receipt\.eval\.yaml:\d+: input\.1: receipt\.png is not a PNG, JPEG, GIF or WebP image$/);
  });
});

describe('the fakes refuse malformed image parts as the real APIs do', () => {
  it('OpenAI: an image_url data URL of an unsupported type or broken base64 is a 400 invalid_request_error naming the part', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ text: 'unreachable' }) });
    fakes.push(fake);
    const client = new OpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: fake.url, maxRetries: 0 });
    const ask = (url: string) =>
      client.chat.completions
        .create({
          model: 'gpt-4.1-mini',
          messages: imageChatMessages(url),
        })
        .then(
          () => undefined,
          (e: InstanceType<typeof OpenAI.APIError>) => ({ status: e.status, type: e.type, param: e.param }),
        );
    const refused = { status: 400, type: 'invalid_request_error', param: 'messages[0].content[1].image_url.url' };
    await expect(ask(`data:image/bmp;base64,${IMAGE_PNG.toString('base64')}`)).resolves.toEqual(refused);
    await expect(ask('data:image/png;base64,not base64!')).resolves.toEqual(refused);
    await expect(ask(`data:image/jpeg;base64,${IMAGE_PNG.toString('base64')}`)).resolves.toEqual(refused);
    await expect(ask(SMALL_URL)).resolves.toBeUndefined();
    expect(fake.count).toBe(4);
  });

  it('Anthropic: an image block of an unsupported media type or broken base64 is a 400 invalid_request_error', async () => {
    const fake = await startFakeAnthropic({ script: () => ({ text: 'fine' }) });
    fakes.push(fake);
    const client = new Anthropic({ apiKey: env.ANTHROPIC_API_KEY, baseURL: fake.url, maxRetries: 0 });
    const ask = (source: Anthropic.Base64ImageSource) =>
      client.messages
        .create({
          model: 'claude-haiku-4-5',
          max_tokens: 64,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'image', source },
                { type: 'text', text: 'hi' },
              ],
            },
          ],
        })
        .then(
          () => undefined,
          (e: InstanceType<typeof Anthropic.APIError>) => ({ status: e.status, type: (e.error as { error?: { type?: string } }).error?.type }),
        );
    const refused = { status: 400, type: 'invalid_request_error' };
    const data = IMAGE_PNG.toString('base64');
    // A media type the SDK's type does not even allow is what a mistyped wire would send.
    const bmp = JSON.parse(JSON.stringify({ type: 'base64', media_type: 'image/bmp', data })) as Anthropic.Base64ImageSource;
    await expect(ask(bmp)).resolves.toEqual(refused);
    await expect(ask({ type: 'base64', media_type: 'image/png', data: 'not base64!' })).resolves.toEqual(refused);
    await expect(ask({ type: 'base64', media_type: 'image/gif', data })).resolves.toEqual(refused);
    await expect(ask({ type: 'base64', media_type: 'image/png', data })).resolves.toBeUndefined();
  });

  it('OpenAI Responses: an input_image of an unsupported type or broken base64 is a 400, a PNG data URL is answered', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ text: 'fine' }) });
    fakes.push(fake);
    const client = new OpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: fake.url, maxRetries: 0 });
    const ask = (image_url: string) =>
      client.responses
        .create({
          model: 'gpt-4.1-mini',
          input: [
            {
              role: 'user',
              content: [
                { type: 'input_text', text: 'hi' },
                { type: 'input_image', image_url, detail: 'auto' },
              ],
            },
          ],
        })
        .then(
          () => undefined,
          (e: InstanceType<typeof OpenAI.APIError>) => ({ status: e.status, type: e.type }),
        );
    const refused = { status: 400, type: 'invalid_request_error' };
    await expect(ask(`data:image/bmp;base64,${IMAGE_PNG.toString('base64')}`)).resolves.toEqual(refused);
    await expect(ask('data:image/png;base64,not base64!')).resolves.toEqual(refused);
    await expect(ask(SMALL_URL)).resolves.toBeUndefined();
  });
});
