/**
 * The live example (evals.live.config.ts + examples/live) through the built CLI (its `main`,
 * in-process), with the fake OpenAI server standing in for the real API: it must load, run every
 * suite green against a model that follows the store policy, and refuse to start without an API key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultsSchema } from '../../src/core/results-schema.js';
import { REPO_ROOT, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { policyModel } from '../support/policy-model.js';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeOpenAI({ script: policyModel });
});
afterAll(async () => {
  await fake.close();
});

describe('the live example config', () => {
  it('runs every live suite against an OpenAI-compatible endpoint', async () => {
    const json = join(tempDir(), 'results.json');
    const { code, stdout, stderr } = await runCliInProcess(['run', '--config', 'evals.live.config.ts', '--json', json], {
      cwd: REPO_ROOT,
      env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url, LIVE_MODEL: undefined },
    });
    expect(code, stdout + stderr).toBe(0);
    const results = ResultsSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(results.cases.map((c) => `${c.suite}/${c.id}:${c.verdict}`).sort()).toEqual([
      'live/conversation/verify-then-refund:passed',
      'live/refunds/outside-refund-window:passed',
      'live/refunds/refund-when-verified:passed',
      'live/refunds/shipping-policy:passed',
      'live/refunds/verify-before-refund:passed',
    ]);
    // The instructions file reached the model, and every call was priced (the config's default model, gpt-5.4-mini, has a bundled price).
    expect(fake.bodies[0].messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('customer support agent') });
    expect(results.summary.usage.target.costUsd).toBeGreaterThan(0);
  });

  it('stops before any call when the key is missing, naming the variable (exit 2)', async () => {
    const before = fake.count;
    const { code, stderr } = await runCliInProcess(['run', '--config', 'evals.live.config.ts'], { cwd: REPO_ROOT, env: { OPENAI_API_KEY: undefined, LIVE_MODEL: undefined } });
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('agent-evals: OPENAI_API_KEY is not set: needed by target "store-agent"');
    expect(fake.count).toBe(before);
  });
});
