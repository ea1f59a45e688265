/**
 * `similarTo`'s `dimensions` (the embeddings API's shorter vectors) through the CLI (in-process, over
 * dist/) against the fake OpenAI server, which validates each request as the API does: sent as the
 * request's `dimensions`, part of the embedding cache key, and refused at load (exit 2 naming the
 * field) for a model that does not take it (ada-002) or asks more than the model's size.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
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

function project(opts: { embeddingModel?: string; model?: string; dimensions: number }): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'evals.config.mjs'),
    `export default {\n  evals: ['*.eval.yaml'],\n  outputDir: '.out',\n  targets: { bot: () => ${JSON.stringify(PARAPHRASE)} },\n  ${opts.embeddingModel ? `embeddingModel: ${JSON.stringify(opts.embeddingModel)},` : ''}\n};\n`,
  );
  const model = opts.model ? `\n        model: ${opts.model}` : '';
  writeFileSync(
    join(dir, 'sim.eval.yaml'),
    `suite: sim\ntarget: bot\ncases:\n  - id: para\n    input: q\n    assert:\n      - type: similarTo\n        value: ${JSON.stringify(VALUE)}\n        threshold: 0.8\n        dimensions: ${opts.dimensions}${model}\n`,
  );
  return dir;
}

async function run(dir: string) {
  const env = { OPENAI_BASE_URL: fake!.url, OPENAI_API_KEY: 'test-key' };
  const json = join(dir, 'results.json');
  const res = await runCliInProcess(['run', '--json', json], { cwd: dir, env });
  return { ...res, results: () => readResults(json) };
}

/** The same project asking for another vector length. */
const rewrite = (dir: string, dimensions: number) => {
  const file = join(dir, 'sim.eval.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/dimensions: \d+/, `dimensions: ${dimensions}`));
};

describe('similarTo dimensions', () => {
  it('is sent as the request field and keys the cache: 256 embeds twice, 512 twice more, 256 again nothing', async () => {
    fake = await startFakeOpenAI();
    const dir = project({ embeddingModel: 'openai:text-embedding-3-small', dimensions: 256 });
    const first = await run(dir);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(fake.count).toBe(2);
    expect(fake.bodies.every((b) => b.model === 'text-embedding-3-small' && b.dimensions === 256)).toBe(true);
    expect(first.results().cases[0]!.trials[0]!.assertions[0]).toMatchObject({ kind: 'similarTo', status: 'passed' });

    rewrite(dir, 512);
    const other = await run(dir);
    expect(other.code).toBe(0);
    // Another length is another vector: neither text is read from the 256 entries.
    expect(fake.count).toBe(4);
    expect(fake.bodies.slice(2).map((b) => b.dimensions)).toEqual([512, 512]);

    rewrite(dir, 256);
    const again = await run(dir);
    expect(again.code).toBe(0);
    expect(fake.count).toBe(4);
    expect(again.results().cases[0]!.trials[0]!.assertions[0]!.judge).toMatchObject({ cached: true });
  });

  it("ada-002 does not take it: on the assertion's model or the config's, exit 2 naming the file and `dimensions`, before any call", async () => {
    fake = await startFakeOpenAI();
    const own = await run(project({ model: 'openai:text-embedding-ada-002', dimensions: 256 }));
    expect(own.code).toBe(2);
    expect(own.stderr).toMatch(/sim\.eval\.yaml:\d+: .*dimensions: text-embedding-ada-002 does not take `dimensions`/);
    const config = await run(project({ embeddingModel: 'openai:text-embedding-ada-002', dimensions: 256 }));
    expect(config.code).toBe(2);
    expect(config.stderr).toMatch(/sim\.eval\.yaml:\d+: dimensions: similarTo with the config's embeddingModel openai:text-embedding-ada-002: text-embedding-ada-002 does not take `dimensions`/);
    expect(config.stderr).not.toMatch(/\n\s+at /);
    const tooMany = await run(project({ model: 'openai:text-embedding-3-small', dimensions: 4096 }));
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/dimensions: text-embedding-3-small makes vectors of at most 1536 dimensions, not 4096/);
    expect(fake.count).toBe(0);
  });

  it('the fake server refuses `dimensions` for ada-002 with the API error shape, through the real SDK', async () => {
    fake = await startFakeOpenAI();
    const sdk = new OpenAI({ baseURL: fake.url, apiKey: 'test-key', maxRetries: 0 });
    const err = await sdk.embeddings.create({ model: 'text-embedding-ada-002', input: 'x', dimensions: 256 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err).toMatchObject({ status: 400, param: 'dimensions', type: 'invalid_request_error', message: expect.stringContaining('This model does not support specifying dimensions.') });
    const ok = await sdk.embeddings.create({ model: 'text-embedding-3-small', input: 'x', dimensions: 256 });
    expect(ok.data[0]!.embedding).toHaveLength(256);
  });
});
