/**
 * Content parts in a conversation: a two-turn case whose second turn carries an image, and a
 * history (`messages`) whose user message carries one. The image reaches the OpenAI and the
 * Anthropic fake (which validate the parts) with the turn it belongs to, in each API's format; the
 * judge gets it after a transcript that names it; a function target receives each turn's parts;
 * the results keep them by turn and message.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import type { TargetContext } from '../../src/targets/function-target.js';
import { IMAGE_PNG } from './image-fixtures.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000', ANTHROPIC_API_KEY: 'sk-ant-test-dummy-000000' };
const DATA = IMAGE_PNG.toString('base64');
const DATA_URL = `data:image/png;base64,${DATA}`;
const SHA = createHash('sha256').update(IMAGE_PNG).digest('hex');
const VERDICT = { score: 1, reason: 'reads the receipt', evidence: [] };

/** Turn 1 is text; turn 2 sends the receipt. */
const turnFiles = (target: string, assert = '{ type: judge, criteria: states the total of the receipt }') => ({
  'evals/chat.eval.yaml': `suite: chat
target: ${target}
cases:
  - id: receipt
    turns:
      - input: Hello, I need help with a receipt.
      - input:
          - { type: text, text: Here it is. What is the total? }
          - { type: image, path: receipt.png }
    assert:
      - ${assert}
`,
  'evals/receipt.png': IMAGE_PNG,
});

const judging = { judges: (settings: any, deps: any) => createJudgeService({ settings: settings.judging, ...deps, env }) };

describe('an image in the second turn of a conversation', () => {
  it('OpenAI Chat Completions: turn 2 carries the image_url part, turn 1 stays text; the judge gets it after the transcript', async () => {
    const fake = await startFakeOpenAI({ script: (body) => (body.response_format ? { json: VERDICT } : { text: 'The total is $12.50.' }) });
    fakes.push(fake);
    const model = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: fake.url };
    const { results } = await runInProcess({ files: turnFiles('gpt'), config: { targets: { gpt: { model } }, judge: { ...model, maxRetries: 0 } }, flags: { cache: false }, env, ...judging });
    expect(results.cases[0]!.verdict).toBe('passed');
    const targetCalls = fake.bodies.filter((b) => !b.response_format);
    expect(targetCalls).toHaveLength(2);
    const users = (b: any) => b.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content);
    expect(users(targetCalls[0])).toEqual(['Hello, I need help with a receipt.']);
    expect(users(targetCalls[1])).toEqual([
      'Hello, I need help with a receipt.',
      [
        { type: 'text', text: 'Here it is. What is the total?' },
        { type: 'image_url', image_url: { url: DATA_URL } },
      ],
    ]);
    const judged = users(fake.bodies.find((b) => b.response_format))[0];
    expect(judged[0].text).toContain('<transcript>');
    expect(judged[0].text).toContain('[attachment 1: image receipt.png (image/png');
    expect(judged.slice(1)).toEqual([{ type: 'image_url', image_url: { url: DATA_URL } }]);
    expect(results.cases[0]!.turns).toEqual([
      { input: 'Hello, I need help with a receipt.' },
      {
        input: 'Here it is. What is the total?',
        parts: [
          { type: 'text', text: 'Here it is. What is the total?' },
          { type: 'image', name: 'receipt.png', mediaType: 'image/png', bytes: IMAGE_PNG.length, sha256: SHA, thumbnail: DATA_URL },
        ],
      },
    ]);
  });

  it('Anthropic Messages: turn 2 carries the image block, turn 1 stays text; the judge gets it too', async () => {
    const fake = await startFakeAnthropic({ script: (body) => (body.tool_choice || body.output_config?.format ? { json: VERDICT } : { text: 'The total is $12.50.' }) });
    fakes.push(fake);
    const model = { provider: 'anthropic' as const, model: 'claude-haiku-4-5', baseURL: fake.url };
    const { results } = await runInProcess({ files: turnFiles('claude'), config: { targets: { claude: { model } }, judge: { ...model, maxRetries: 0 } }, flags: { cache: false }, env, ...judging });
    expect(results.cases[0]!.verdict).toBe('passed');
    const isJudge = (b: any) => Boolean(b.tool_choice || b.output_config?.format);
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: DATA } };
    const targetCalls = fake.bodies.filter((b) => !isJudge(b));
    expect(targetCalls).toHaveLength(2);
    const second = targetCalls[1].messages.filter((m: any) => m.role === 'user').map((m: any) => m.content);
    expect(JSON.stringify(second[0])).not.toContain('"image"');
    expect(second[1]).toEqual([{ type: 'text', text: 'Here it is. What is the total?' }, image]);
    const judged = fake.bodies.find(isJudge).messages[0].content as any[];
    expect(judged.filter((b) => b.type === 'image')).toEqual([image]);
  });

  it('a function target receives each turn its own parts (ctx.trial.parts and ctx.messages)', async () => {
    const seen: Array<{ turn: number; parts: string[] | undefined; history: Array<string[] | undefined> }> = [];
    const digest = (parts: TargetContext['trial']['parts']) => parts?.map((p) => (p.type === 'text' ? p.text : 'url' in p ? p.url : `${p.mediaType} ${p.name} ${p.sha256}`));
    const { results } = await runInProcess({
      files: turnFiles('fn', '{ type: contains, value: total }'),
      config: {
        targets: {
          fn: (_input: string, ctx: TargetContext) => {
            seen.push({ turn: ctx.turn, parts: digest(ctx.trial.parts), history: ctx.messages.map((m) => digest(m.parts)) });
            return 'The total is $12.50.';
          },
        },
      },
    });
    expect(results.cases[0]!.verdict).toBe('passed');
    const receipt = ['Here it is. What is the total?', `image/png receipt.png ${SHA}`];
    expect(seen).toEqual([
      { turn: 1, parts: undefined, history: [undefined] },
      { turn: 2, parts: receipt, history: [undefined, undefined, receipt] },
    ]);
  });
});

describe('an image in a user message of the history (messages)', () => {
  const messageFiles = (target: string) => ({
    'evals/history.eval.yaml': `suite: history
target: ${target}
cases:
  - id: follow-up
    messages:
      - role: user
        content:
          - { type: text, text: This is my receipt. }
          - { type: image, path: receipt.png }
      - { role: assistant, content: 'Thanks, I see it.' }
      - { role: user, content: What is the total? }
    assert:
      - { type: contains, value: total }
`,
    'evals/receipt.png': IMAGE_PNG,
  });

  it('OpenAI: the earlier user message carries its image; the results keep it on that message', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ text: 'The total is $12.50.' }) });
    fakes.push(fake);
    const { results } = await runInProcess({ files: messageFiles('gpt'), config: { targets: { gpt: { model: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url } } } }, env });
    expect(results.cases[0]!.verdict).toBe('passed');
    expect(fake.bodies[0].messages.filter((m: any) => m.role !== 'system')).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'This is my receipt.' },
          { type: 'image_url', image_url: { url: DATA_URL } },
        ],
      },
      { role: 'assistant', content: 'Thanks, I see it.' },
      { role: 'user', content: 'What is the total?' },
    ]);
    expect(results.cases[0]!.messages?.[0]?.parts?.[1]).toMatchObject({ type: 'image', name: 'receipt.png', sha256: SHA });
  });

  it('an assistant message given as parts is a user error naming the field', async () => {
    const files = {
      'evals/bad.eval.yaml': `suite: bad
target: fn
cases:
  - id: x
    messages:
      - role: assistant
        content: [{ type: text, text: hi }]
      - { role: user, content: hello }
    assert: [{ type: contains, value: a }]
`,
    };
    const failure = await runInProcess({ files, config: { targets: { fn: () => 'a' } } }).then(
      () => 'ran',
      (e: Error) => e.message,
    );
    expect(failure).toMatch(/messages\[0\]\.content: assistant messages are text; only user messages may have content parts/);
  });
});
