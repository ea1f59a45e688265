/**
 * `--dry-run` calls no model: model targets answer with a placeholder and judges with the fake
 * judge, so a suite runs with zero tokens and without API keys.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureDir, removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  removeTempDirs();
});

describe('--dry-run', () => {
  it('runs model targets without a request and without an API key, at zero tokens', async () => {
    fake = await startFakeOpenAI({ script: () => ({ text: 'should not be asked' }) });
    const out = tempDir();
    const json = join(out, 'r.json');
    const res = await runCliInProcess(['run', '--dry-run', '--json', json, 'evals/usage.eval.yaml'], {
      cwd: fixtureDir('model-agent'),
      env: { OUT_DIR: out, OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: undefined },
    });
    expect(res.stderr).not.toMatch(/missing API key/);
    expect(fake.count).toBe(0);
    const results = JSON.parse(readFileSync(json, 'utf8'));
    expect(results.summary.usage.total).toMatchObject({ inputTokens: 0, outputTokens: 0 });
    for (const c of results.cases) for (const t of c.trials) expect(t.reply).toContain('dry run');
  });

  it('without --dry-run the same suite needs its key (the dry run is what made the difference)', async () => {
    const res = await runCliInProcess(['run', 'evals/usage.eval.yaml'], { cwd: fixtureDir('model-agent'), env: { OUT_DIR: tempDir(), OPENAI_API_KEY: undefined } });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/OPENAI_API_KEY/);
  });
});
