/**
 * `evaluate()` with content parts: an image given to `.input([...])` reaches a model-agent target
 * and its judge at the fake OpenAI server (which validates image parts as the real API does), and a
 * function target gets the parts in `ctx.trial.parts`; a turn given as parts reaches its own turn.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { evaluate, type TargetContext } from 'agent-evals';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { IMAGE_PNG } from '../multimodal/image-fixtures.js';

const fakes: FakeProvider[] = [];
const dirs: string[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const DATA_URL = `data:image/png;base64,${IMAGE_PNG.toString('base64')}`;
const VERDICT = { score: 0.9, reason: 'reads the total off the receipt', evidence: [] };

describe('evaluate() with an image input', () => {
  it('the image reaches the model-agent target and the judge as image_url parts', async () => {
    const fake = await startFakeOpenAI({ script: (body) => (body.response_format ? { json: VERDICT } : { text: 'The total is $12.50.' }) });
    fakes.push(fake);
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-dummy-key-000000');
    const model = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: fake.url };
    const result = await evaluate({ model })
      .input([
        { type: 'text', text: 'What is the total on this receipt?' },
        { type: 'image', url: DATA_URL },
      ])
      .useJudge(model)
      .expectJudge('states the total of the receipt')
      .config({ cache: false })
      .run();
    expect(result.verdict).toBe('passed');
    const target = fake.bodies.find((b) => !b.response_format);
    const judge = fake.bodies.find((b) => b.response_format);
    const userOf = (b: any) => b.messages.find((m: any) => m.role === 'user').content;
    expect(userOf(target)).toEqual([
      { type: 'text', text: 'What is the total on this receipt?' },
      { type: 'image_url', image_url: { url: DATA_URL } },
    ]);
    expect(userOf(judge).slice(1)).toEqual([{ type: 'image_url', image_url: { url: DATA_URL } }]);
    expect(userOf(judge)[0].text).toContain('[attachment 1: image inline (image/png');
  });

  it('a function target gets the parts (a path read from disk); a turn given as parts gets its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evaluate-parts-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'receipt.png'), IMAGE_PNG);
    const seen: Array<string[] | undefined> = [];
    const agent = (_input: string, ctx: TargetContext) => {
      seen.push(ctx.trial.parts?.map((p) => (p.type === 'text' ? p.text : 'url' in p ? p.url : `${p.mediaType} ${p.name ?? '(inline)'}`)));
      return 'The total is $12.50.';
    };
    const single = await evaluate(agent)
      .input([
        { type: 'text', text: 'Total?' },
        { type: 'image', path: join(dir, 'receipt.png') },
      ])
      .expect({ type: 'contains', value: 'total' })
      .run();
    expect(single.verdict).toBe('passed');
    const turns = await evaluate(agent)
      .turns([
        'Hello.',
        {
          input: [
            { type: 'text', text: 'This one.' },
            { type: 'image', url: DATA_URL },
          ],
        },
      ])
      .expect({ type: 'contains', value: 'total' })
      .run();
    expect(turns.verdict).toBe('passed');
    expect(seen).toEqual([['Total?', 'image/png receipt.png'], undefined, ['This one.', 'image/png (inline)']]);
  });
});
