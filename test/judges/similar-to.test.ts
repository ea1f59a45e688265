/**
 * `similarTo` end to end through the CLI (in-process, over dist/): the fake embedder passes a
 * paraphrase and fails an unrelated reply; the OpenAI SDK path against the fake server, whose
 * embeddings endpoint validates each request; a second run over the same output folder reads every
 * embedding from the judge cache (zero requests); embedding usage is judge usage, priced; a model
 * that does not embed, or none at all, is exit 2 naming the field.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { readResults } from './cli-helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  removeTempDirs();
});

const VALUE = 'The meeting has been moved to Friday afternoon.';
const PARAPHRASE = 'Your meeting is now on Friday afternoon: we moved it.';
const UNRELATED = 'Bananas are a good source of potassium.';

/** A project whose target answers the paraphrase or the unrelated reply, each checked by `similarTo`. */
function project(opts: { embeddingModel?: string; assertionModel?: string } = {}): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'evals.config.mjs'),
    `export default {
  evals: ['*.eval.yaml'],
  outputDir: '.out',
  targets: { bot: (input) => (input === 'paraphrase' ? ${JSON.stringify(PARAPHRASE)} : ${JSON.stringify(UNRELATED)}) },
  ${opts.embeddingModel ? `embeddingModel: ${JSON.stringify(opts.embeddingModel)},` : ''}
};\n`,
  );
  const assertion = (indent: string) =>
    [`- type: similarTo`, `  value: ${JSON.stringify(VALUE)}`, `  threshold: 0.8`, ...(opts.assertionModel ? [`  model: ${opts.assertionModel}`] : [])].map((l) => indent + l).join('\n');
  writeFileSync(
    join(dir, 'sim.eval.yaml'),
    `suite: sim\ntarget: bot\ncases:\n  - id: paraphrase\n    input: paraphrase\n    assert:\n${assertion('      ')}\n  - id: unrelated\n    input: unrelated\n    assert:\n${assertion('      ')}\n`,
  );
  return dir;
}

async function run(dir: string, env: Record<string, string> = {}) {
  const json = join(dir, 'results.json');
  const res = await runCliInProcess(['run', '--json', json], { cwd: dir, env });
  return { ...res, results: () => readResults(json) };
}

const similarTo = (r: ReturnType<typeof readResults>, id: string) => r.cases.find((c) => c.id === id)!.trials[0]!.assertions[0]!;

describe('similarTo', () => {
  it('passes a paraphrase and fails an unrelated reply with the fake embedder; the second run reads the embeddings from the cache', async () => {
    const dir = project({ embeddingModel: 'fake' });
    const first = await run(dir);
    // `similarTo` is soft unless set otherwise (the judged default): the unrelated case is scored, not failed.
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const r1 = first.results();
    const para = similarTo(r1, 'paraphrase');
    expect(para).toMatchObject({ kind: 'similarTo', status: 'passed', threshold: 0.8 });
    expect(para.score).toBeGreaterThan(0.85);
    expect(para.message).toMatch(/cosine similarity to "The meeting has been moved to Friday afternoon\.": 0\.\d\d/);
    const unrelated = similarTo(r1, 'unrelated');
    expect(unrelated.status).toBe('failed');
    expect(unrelated.score).toBeLessThan(0.2);
    expect(para.judge?.cached).toBeUndefined();

    const second = await run(dir);
    expect(second.code).toBe(0);
    const r2 = second.results();
    for (const id of ['paraphrase', 'unrelated']) {
      expect(similarTo(r2, id).judge).toMatchObject({ provider: 'fake', cached: true, usage: { calls: 0 } });
      expect(similarTo(r2, id).score).toBe(similarTo(r1, id).score);
    }
  });

  it('OpenAI embeddings through the SDK: priced as judge usage, and none requested again on a second run', async () => {
    fake = await startFakeOpenAI();
    const dir = project({ embeddingModel: 'openai:text-embedding-3-small' });
    const env = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key' };
    const first = await run(dir, env);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    // Two replies and the value (shared by both cases within the run): three requests, as the API takes them.
    expect(fake.count).toBe(3);
    expect(fake.requests.every((q) => q.path === '/v1/embeddings')).toBe(true);
    expect(fake.bodies.map((b) => b.input).sort()).toEqual([UNRELATED, VALUE, PARAPHRASE].sort());
    expect(fake.bodies.every((b) => b.model === 'text-embedding-3-small' && b.encoding_format === 'float')).toBe(true);
    const r1 = first.results();
    expect(similarTo(r1, 'paraphrase')).toMatchObject({ status: 'passed', judge: { provider: 'openai', model: 'text-embedding-3-small' } });
    expect(similarTo(r1, 'unrelated').status).toBe('failed');
    // The fake counts a token per word: 8 + 10 + 7 = 25 tokens at $0.02 per 1M (price-table.ts).
    const tokens = [VALUE, PARAPHRASE, UNRELATED].reduce((n, t) => n + t.split(/\s+/).length, 0);
    expect(r1.summary.usage.judge).toMatchObject({ calls: 3, inputTokens: tokens, outputTokens: 0 });
    expect(r1.summary.usage.judge.costUsd).toBeCloseTo((tokens * 0.02) / 1e6, 12);
    expect(r1.summary.usage.target.calls).toBe(0);

    const second = await run(dir, env);
    expect(second.code).toBe(0);
    expect(fake.count).toBe(3);
    const r2 = second.results();
    expect(r2.summary.usage.judge).toMatchObject({ calls: 0, inputTokens: 0, costUsd: 0 });
    expect(similarTo(r2, 'paraphrase')).toMatchObject({ status: 'passed', judge: { cached: true } });
  });

  it('a model that does not embed is exit 2 naming the field, before any call', async () => {
    fake = await startFakeOpenAI();
    const env = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key' };
    const onAssertion = await run(project({ assertionModel: 'openai:gpt-5.5' }), env);
    expect(onAssertion.code).toBe(2);
    expect(onAssertion.stderr).toMatch(/sim\.eval\.yaml:\d+: .*model: openai:gpt-5\.5 is not an embedding model/);
    const inConfig = await run(project({ embeddingModel: 'anthropic:claude-haiku-5-5' }), env);
    expect(inConfig.code).toBe(2);
    expect(inConfig.stderr).toMatch(/evals\.config\.mjs: embeddingModel: anthropic:claude-haiku-5-5 cannot make embeddings/);
    const none = await run(project(), env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/sim\.eval\.yaml:\d+: model: similarTo: no embedding model/);
    expect(fake.count).toBe(0);
  });
});
