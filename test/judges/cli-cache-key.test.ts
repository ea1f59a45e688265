/**
 * The judge cache never answers for a different judge, and never for a sampled one. Through the CLI
 * against fake OpenAI servers (the real SDK client): two runs over one output directory (disk cache
 * on) that differ only in the judge's base URL both reach their server; four repeats of one reply
 * make one judge call at temperature 0 and four at 0.7 (again four on a second run: the disk cache
 * does not serve sampled judgments); `cache: false` in the config means `--no-cache`.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { removeTempDirs, runCli, tempDir } from '../support/cli.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { explain, tempProject } from './cli-helpers.js';

// The tests run concurrently: temp dirs go only once all are done.
afterAll(removeTempDirs);

/** A fake judge server closed when its own test ends (`t`: the tests run concurrently). */
async function fake(t: TestContext): Promise<FakeProvider> {
  const f = await startFakeOpenAI({ script: () => ({ json: { score: 0.9, reason: 'gives the status', evidence: [] } }) });
  t.onTestFinished(() => f.close());
  return f;
}

/** A project whose judge's base URL and temperature come from the environment. */
function project(extraConfig = ''): string {
  return tempProject(
    `  outputDir: process.env.OUT_DIR,
  judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: process.env.JUDGE_URL, temperature: Number(process.env.JUDGE_TEMPERATURE ?? 0) },
  ${extraConfig}`,
    { 'status.eval.yaml': `suite: s\ntarget: agent\ncases:\n  - id: a\n    input: where is A1?\n    assert:\n      - type: judge\n        criteria: Gives the status.\n` },
  );
}

async function run(dir: string, env: { url: string; outDir: string; temperature?: number }, args: string[] = []) {
  const res = await runCli(['run', '--no-early-stop', ...args], {
    cwd: dir,
    env: { JUDGE_URL: env.url, OUT_DIR: env.outDir, JUDGE_TEMPERATURE: String(env.temperature ?? 0), OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: undefined },
    timeoutMs: 30_000,
  });
  expect(res.code, explain(res)).toBe(0);
  return res;
}

describe.concurrent('the judge cache key', () => {
  it('two runs that differ only in the base URL both reach their server; the disk cache still serves the first endpoint', async (t) => {
    const [a, b] = [await fake(t), await fake(t)];
    const dir = project();
    const outDir = join(tempDir(), 'out');
    await run(dir, { url: a.url, outDir });
    expect(a.count).toBe(1);
    await run(dir, { url: b.url, outDir });
    expect(b.count).toBe(1);
    // The same endpoint again: answered from the disk cache, so the cache was on all along.
    await run(dir, { url: a.url, outDir });
    expect([a.count, b.count]).toEqual([1, 1]);
  });

  it('four repeats of one reply: one judge call at temperature 0, four at 0.7 (and four again on a second run)', async (t) => {
    const cold = await fake(t);
    const dir = project();
    await run(dir, { url: cold.url, outDir: join(tempDir(), 'out'), temperature: 0 }, ['--repeat', '4']);
    expect(cold.count).toBe(1);
    expect(cold.bodies[0].temperature).toBe(0);

    const warm = await fake(t);
    const outDir = join(tempDir(), 'out');
    await run(dir, { url: warm.url, outDir, temperature: 0.7 }, ['--repeat', '4']);
    expect(warm.count).toBe(4);
    expect(warm.bodies.every((b) => b.temperature === 0.7)).toBe(true);
    await run(dir, { url: warm.url, outDir, temperature: 0.7 }, ['--repeat', '4']);
    expect(warm.count).toBe(8);
  });

  it('cache: false in the config is --no-cache: no sharing between repeats, no disk cache', async (t) => {
    const f = await fake(t);
    const dir = project('cache: false,');
    const outDir = join(tempDir(), 'out');
    await run(dir, { url: f.url, outDir }, ['--repeat', '2']);
    expect(f.count).toBe(2);
    await run(dir, { url: f.url, outDir }, ['--repeat', '2']);
    expect(f.count).toBe(4);
  });
});
