/**
 * The judge cache never answers for a different judge, and never for a sampled one. In-process runs
 * (as `agent-evals run` runs them) against fake OpenAI servers (the real SDK client): two runs over one output directory (disk cache
 * on) that differ only in the judge's base URL both reach their server; four repeats of one reply
 * make one judge call at temperature 0 and four at 0.7 (again four on a second run: the disk cache
 * does not serve sampled judgments); `cache: false` in the config means `--no-cache`.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import type { UserConfig } from '../../src/config/define-config.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { explain, runProjectInProcess } from '../support/run-fixture-in-process.js';

// The tests run concurrently: temp dirs go only once all are done.
afterAll(removeTempDirs);

/** A fake judge server closed when its own test ends (`t`: the tests run concurrently). */
async function fake(t: TestContext): Promise<FakeProvider> {
  const f = await startFakeOpenAI({ script: () => ({ json: { score: 0.9, reason: 'gives the status', evidence: [] } }) });
  t.onTestFinished(() => f.close());
  return f;
}

const FILES = { 'status.eval.yaml': `suite: s\ntarget: agent\ncases:\n  - id: a\n    input: where is A1?\n    assert:\n      - type: judge\n        criteria: Gives the status.\n` };

/** A project with a fixed-reply target whose judge's base URL and temperature are the run's. */
async function run(config: Partial<UserConfig>, env: { url: string; outDir: string; temperature?: number }, repeat?: number) {
  const res = await runProjectInProcess(
    { files: FILES },
    {
      evals: ['*.eval.yaml'],
      targets: { agent: () => 'Order A1 shipped.' },
      judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: env.url, temperature: env.temperature ?? 0 },
      ...config,
    },
    { outDir: env.outDir, env: { OPENAI_API_KEY: 'test-key' }, flags: { earlyStop: false }, ...(repeat ? { selection: { repeat } } : {}) },
  );
  expect(res.code, explain(res)).toBe(0);
  return res;
}

describe.concurrent('the judge cache key', () => {
  it('two runs that differ only in the base URL both reach their server; the disk cache still serves the first endpoint', async (t) => {
    const [a, b] = [await fake(t), await fake(t)];
    const outDir = join(tempDir(), 'out');
    await run({}, { url: a.url, outDir });
    expect(a.count).toBe(1);
    await run({}, { url: b.url, outDir });
    expect(b.count).toBe(1);
    // The same endpoint again: answered from the disk cache, so the cache was on all along.
    await run({}, { url: a.url, outDir });
    expect([a.count, b.count]).toEqual([1, 1]);
  });

  it('four repeats of one reply: one judge call at temperature 0, four at 0.7 (and four again on a second run)', async (t) => {
    const cold = await fake(t);
    await run({}, { url: cold.url, outDir: join(tempDir(), 'out'), temperature: 0 }, 4);
    expect(cold.count).toBe(1);
    expect(cold.bodies[0].temperature).toBe(0);

    const warm = await fake(t);
    const outDir = join(tempDir(), 'out');
    await run({}, { url: warm.url, outDir, temperature: 0.7 }, 4);
    expect(warm.count).toBe(4);
    expect(warm.bodies.every((b) => b.temperature === 0.7)).toBe(true);
    await run({}, { url: warm.url, outDir, temperature: 0.7 }, 4);
    expect(warm.count).toBe(8);
  });

  it('cache: false in the config is --no-cache: no sharing between repeats, no disk cache', async (t) => {
    const f = await fake(t);
    const outDir = join(tempDir(), 'out');
    await run({ cache: false }, { url: f.url, outDir }, 2);
    expect(f.count).toBe(2);
    await run({ cache: false }, { url: f.url, outDir }, 2);
    expect(f.count).toBe(4);
  });
});
