/**
 * `t.send()` with content parts in a TypeScript check: the parts are checked and read as a case's
 * `input` parts are (paths relative to the eval file, the same errors), reach a function target as
 * that turn's parts and a model agent's API as an image part of turn 2, a judge after the transcript,
 * and the trial's turns keep them.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import type { TargetContext } from '../../src/targets/function-target.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { IMAGE_PNG } from './image-fixtures.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000' };
const DATA_URL = `data:image/png;base64,${IMAGE_PNG.toString('base64')}`;
const SHA = createHash('sha256').update(IMAGE_PNG).digest('hex');

/** A TS eval file in a folder of its own (the image beside it, not at the project root) whose check sends `sent`. */
const sendFiles = (target: string, sent: string) => ({
  'evals/chat/chat.eval.ts': `export default {
  suite: 'chat',
  target: '${target}',
  cases: [{
    id: 'receipt',
    input: 'Hello, I need help with a receipt.',
    check: async (t) => {
      await t.send(${sent});
      t.contains('total');
    },
  }],
};
`,
  'evals/chat/receipt.png': IMAGE_PNG,
});
const RECEIPT = `[{ type: 'text', text: 'Here it is. What is the total?' }, { type: 'image', path: 'receipt.png' }]`;
const config = (targets: Record<string, unknown>) => ({ evals: ['evals/**/*.eval.ts'], targets }) as any;

describe('t.send() with content parts', () => {
  it('a function target gets them as turn 2 parts; the trial keeps them on turn 2', async () => {
    const seen: Array<{ turn: number; input: string; parts: string[] | undefined; last: string[] | undefined }> = [];
    const digest = (parts: TargetContext['trial']['parts']) => parts?.map((p) => (p.type === 'text' ? p.text : 'url' in p ? p.url : `${p.mediaType} ${p.name} ${p.sha256}`));
    const fn = (input: string, ctx: TargetContext) => {
      seen.push({ turn: ctx.turn, input, parts: digest(ctx.trial.parts), last: digest(ctx.messages.at(-1)!.parts) });
      return 'The total is $12.50.';
    };
    const { results } = await runInProcess({ files: sendFiles('fn', RECEIPT), config: config({ fn }) });
    const trial = results.cases[0]!.trials[0]!;
    expect(trial.error).toBeUndefined();
    const receipt = ['Here it is. What is the total?', `image/png receipt.png ${SHA}`];
    expect(seen).toEqual([
      { turn: 1, input: 'Hello, I need help with a receipt.', parts: undefined, last: undefined },
      { turn: 2, input: 'Here it is. What is the total?', parts: receipt, last: receipt },
    ]);
    expect(trial.turns?.map((t) => ({ input: t.input, parts: t.parts }))).toEqual([
      { input: 'Hello, I need help with a receipt.', parts: undefined },
      {
        input: 'Here it is. What is the total?',
        parts: [
          { type: 'text', text: 'Here it is. What is the total?' },
          { type: 'image', name: 'receipt.png', mediaType: 'image/png', bytes: IMAGE_PNG.length, sha256: SHA, thumbnail: DATA_URL },
        ],
      },
    ]);
  });

  it("a model agent's second request carries the image as an image_url part after turn 1's text (OpenAI Chat Completions)", async () => {
    const fake = await startFakeOpenAI({ script: () => ({ text: 'The total is $12.50.' }) });
    fakes.push(fake);
    const gpt = { model: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url } };
    const { results } = await runInProcess({ files: sendFiles('gpt', RECEIPT), config: config({ gpt }), env });
    expect(results.cases[0]!.trials[0]!.error).toBeUndefined();
    expect(fake.bodies).toHaveLength(2);
    expect(fake.bodies[1].messages.filter((m: any) => m.role === 'user').map((m: any) => m.content)).toEqual([
      'Hello, I need help with a receipt.',
      [
        { type: 'text', text: 'Here it is. What is the total?' },
        { type: 'image_url', image_url: { url: DATA_URL } },
      ],
    ]);
  });

  it("the judge is sent the image after the transcript that names it, as a YAML turn's would be", async () => {
    const fake = await startFakeOpenAI({ script: () => ({ json: { score: 1, reason: 'reads the receipt', evidence: [] } }) });
    fakes.push(fake);
    const judge = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 };
    const files = sendFiles('fn', RECEIPT);
    files['evals/chat/chat.eval.ts'] = files['evals/chat/chat.eval.ts'].replace("t.contains('total');", "t.judge().criteria('states the total of the receipt');");
    const { results } = await runInProcess({
      files,
      config: { ...config({ fn: () => 'The total is $12.50.' }), judge },
      flags: { cache: false },
      env,
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
    });
    expect(results.cases[0]!.verdict).toBe('passed');
    expect(fake.bodies).toHaveLength(1);
    const content = fake.bodies[0].messages.find((m: any) => m.role === 'user').content;
    expect(content[0].text).toContain('<transcript>');
    expect(content[0].text).toContain('[attachment 1: image receipt.png (image/png');
    expect(content.slice(1)).toEqual([{ type: 'image_url', image_url: { url: DATA_URL } }]);
  });

  it('a part the schema refuses, or a file that is not there, fails the trial naming the file, t.send and the field; the target is not called', async () => {
    let calls = 0;
    const fn = () => (calls++, 'The total is $12.50.');
    const bad = await runInProcess({ files: sendFiles('fn', `[{ type: 'video', path: 'receipt.png' }]`), config: config({ fn }) });
    expect(bad.results.cases[0]!.trials[0]!.error).toMatch(/^check\(\) threw: evals\/chat\/chat\.eval\.ts:5: t\.send \(turn 2\)\.0\.type: Invalid discriminator value/);
    const missing = await runInProcess({ files: sendFiles('fn', `[{ type: 'image', path: 'missing.png' }]`), config: config({ fn }) });
    expect(missing.results.cases[0]!.trials[0]!.error).toMatch(
      /^check\(\) threw: evals\/chat\/chat\.eval\.ts:5: t\.send \(turn 2\)\.0: cannot read missing\.png \(ENOENT\); paths are relative to the eval file$/,
    );
    expect(calls).toBe(2); // turn 1 of each run only
  });
});
