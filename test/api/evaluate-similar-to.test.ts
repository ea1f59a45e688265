/**
 * `similarTo` from inside a test file: `evaluate(agent).similarTo(...)` and a `check`'s `t.similarTo(...)`
 * with the offline embedder, graded like the file's `similarTo` (after the gates, as judge usage);
 * their options form (`{ model, dimensions }`) against the fake OpenAI embeddings endpoint.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { evaluate } from 'agent-evals';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';

const VALUE = 'The meeting has been moved to Friday afternoon.';

describe('evaluate(agent).similarTo()', () => {
  it('passes a paraphrase and fails an unrelated reply with the fake embedder', async () => {
    const paraphrase = await evaluate(() => 'Your meeting is now on Friday afternoon: we moved it.')
      .input('When is the meeting?')
      .similarTo(VALUE, 0.8, 'fake')
      .run();
    expect(paraphrase.passed).toBe(true);
    const scored = paraphrase.trials[0]!.assertions[0]!;
    expect(scored).toMatchObject({ kind: 'similarTo', status: 'passed', judge: { provider: 'fake' } });

    const unrelated = await evaluate(() => 'Bananas are a good source of potassium.')
      .input('When is the meeting?')
      .config({ embeddingModel: 'fake' })
      .similarTo(VALUE, 0.8)
      .run();
    expect(unrelated.trials[0]!.assertions[0]).toMatchObject({ kind: 'similarTo', status: 'failed' });
    expect(unrelated.trials[0]!.assertions[0]!.score).toBeLessThan(0.2);
  });
});

describe('the similarTo shorthands take options: { model, dimensions }', () => {
  const fakes: FakeProvider[] = [];
  afterEach(async () => {
    vi.unstubAllEnvs();
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });
  const startFake = async () => {
    const fake = await startFakeOpenAI();
    fakes.push(fake);
    return fake;
  };
  const embeddings = (fake: FakeProvider) => fake.requests.filter((r) => r.path.endsWith('/embeddings')).map((r) => r.body);

  it('evaluate().similarTo(value, threshold, { model, dimensions }) sends dimensions with the model', async () => {
    const fake = await startFake();
    vi.stubEnv('OPENAI_BASE_URL', fake.url);
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-dummy-key-000000');
    const result = await evaluate(() => 'Your meeting is now on Friday afternoon: we moved it.')
      .input('When is the meeting?')
      .similarTo(VALUE, 0.8, { model: 'openai:text-embedding-3-small', dimensions: 256 })
      .run();
    expect(result.trials[0]!.assertions[0]).toMatchObject({ kind: 'similarTo', status: 'passed', judge: { provider: 'openai', model: 'text-embedding-3-small' } });
    expect(embeddings(fake).map((b) => [b.model, b.dimensions])).toEqual([
      ['text-embedding-3-small', 256],
      ['text-embedding-3-small', 256],
    ]);
  });

  it('checks the options as the file schema does: dimensions with ada-002 throws naming dimensions', () => {
    const builder = evaluate(() => 'x').input('q');
    expect(() => builder.similarTo(VALUE, 0.8, { model: 'openai:text-embedding-ada-002', dimensions: 256 })).toThrow(/dimensions/);
    expect(() => builder.similarTo(VALUE, 0.8, { model: 'openai:text-embedding-ada-002' })).not.toThrow();
  });

  it("a check's t.similarTo(value, threshold, { model, dimensions }) sends dimensions too", async () => {
    const fake = await startFake();
    const env = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-dummy-key-000000' };
    const evalTs = `export default {
  suite: 'sim',
  target: 'bot',
  cases: [{ id: 'para', input: 'When is the meeting?', check: (t) => { t.similarTo(${JSON.stringify(VALUE)}, 0.8, { model: 'openai:text-embedding-3-small', dimensions: 512 }); } }],
};
`;
    const { results } = await runInProcess({
      files: { 'evals/sim.eval.ts': evalTs },
      config: { evals: ['evals/*.eval.ts'], targets: { bot: () => 'Your meeting is now on Friday afternoon: we moved it.' } },
      env,
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
    });
    expect(results.cases[0]!.trials[0]!.assertions[0]).toMatchObject({ kind: 'similarTo', status: 'passed' });
    expect(embeddings(fake).map((b) => b.dimensions)).toEqual([512, 512]);
  });
});
