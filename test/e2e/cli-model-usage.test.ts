/**
 * The built CLI (its `main`, in-process) over a model-agent target talking to a fake OpenAI server:
 * usage scripted at the server appears exactly in the results JSON per trial, case and run, priced
 * from the bundled table; an unpriced model reports null and warns once; --max-cost stops new
 * trials. Needs dist/ (`npm test` builds it; else run `npx tsc -p tsconfig.json` first).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultsSchema } from '../../src/core/results-schema.js';
import { fixtureDir, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { GPT_41_MINI_TRIAL_COST, storeModel } from '../support/fake-store-model.js';

const cwd = fixtureDir('model-agent');
let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeOpenAI({ script: storeModel });
});
afterAll(async () => {
  await fake.close();
});

async function run(args: string[]) {
  const out = tempDir();
  const json = join(out, 'results.json');
  const result = await runCliInProcess(['run', ...args, '--json', json], {
    cwd,
    env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url, OUT_DIR: join(out, '.agent-evals') },
  });
  const results = ResultsSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
  return { ...result, results };
}

const trialUsage = { calls: 2, inputTokens: 300, outputTokens: 70, cachedInputTokens: 40, reasoningTokens: 0 };
const times = (n: number) => Object.fromEntries(Object.entries(trialUsage).map(([k, v]) => [k, v * n]));
const empty = { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0 };

describe('agent-evals run with a model-agent target', () => {
  it('reports the scripted usage exactly per trial, case and run, with costUsd from the price table', async () => {
    const { code, stdout, stderr, results } = await run(['--filter', 'usage/*']);
    expect(stderr).not.toMatch(/no price known/);
    expect(code, stdout + stderr).toBe(0);

    expect(results.cases.map((c) => `${c.suite}/${c.id}`).sort()).toEqual(['usage/delivered', 'usage/shipped']);
    for (const c of results.cases) {
      expect(c.trials).toHaveLength(2);
      for (const t of c.trials) {
        expect(t.verdict).toBe('passed');
        expect(t.usage.target).toMatchObject(trialUsage);
        expect(t.usage.target.costUsd).toBeCloseTo(GPT_41_MINI_TRIAL_COST, 12);
        expect(t.usage.judge).toEqual(empty);
        // One step per model call, each with its own usage and the model that priced it.
        expect(t.trace.steps!.map((s) => [s.model, s.usage?.inputTokens, s.toolCalls?.map((x) => x.name)])).toEqual([
          ['openai:gpt-4.1-mini-2025-04-14', 100, ['orders_lookup']],
          ['openai:gpt-4.1-mini-2025-04-14', 200, undefined],
        ]);
        expect(t.trace).toMatchObject({ instructions: 'You answer questions about orders.', stopReason: 'stop' });
      }
      expect(c.usage.target).toMatchObject(times(2));
      expect(c.usage.target.costUsd).toBeCloseTo(2 * GPT_41_MINI_TRIAL_COST, 12);
    }
    expect(results.summary.usage.target).toMatchObject(times(4));
    expect(results.summary.usage.target.costUsd).toBeCloseTo(4 * GPT_41_MINI_TRIAL_COST, 12);
    expect(results.summary.usage.total.costUsd).toBeCloseTo(4 * GPT_41_MINI_TRIAL_COST, 12);
  });

  it('reports costUsd null for a model with no known price, and warns once', async () => {
    const { code, stdout, stderr, results } = await run(['--filter', 'unpriced/*']);
    expect(code, stdout + stderr).toBe(0);
    const [c] = results.cases;
    expect(c!.trials).toHaveLength(3);
    for (const t of c!.trials) expect(t.usage.target).toMatchObject({ ...trialUsage, costUsd: null });
    expect(c!.usage.target).toMatchObject({ ...times(3), costUsd: null });
    expect(results.summary.usage.target.costUsd).toBeNull();
    expect(results.summary.usage.total.costUsd).toBeNull();
    const output = stdout + stderr;
    expect(output.match(/openai:my-local-model/g)).toHaveLength(1);
    expect(results.summary.warnings).toEqual([expect.stringContaining('no price known for model openai:my-local-model')]);
  });

  it('--max-cost stops starting trials once the budget is spent, and says so', async () => {
    // Each trial costs GPT_41_MINI_TRIAL_COST; the budget is spent during the third of four trials.
    const budget = 2.5 * GPT_41_MINI_TRIAL_COST;
    const { code, stdout, results } = await run(['--filter', 'usage/*', '--concurrency', '1', '--max-cost', String(budget)]);
    expect(code).toBe(1);
    expect(results.summary.trials).toMatchObject({ planned: 4, run: 3, notRun: 1 });
    expect(results.summary.failures).toEqual([expect.stringMatching(/^cost budget of \$0\.00055 spent \(\$0\.0007\d*\): no new trials were started$/)]);
    const notRun = results.cases.find((c) => c.notRun > 0)!;
    expect(notRun).toMatchObject({ notRun: 1, notRunReason: 'budget' });
    expect(stdout).toContain('cost budget of $0.00055 spent');
    expect(results.summary.usage.target.costUsd).toBeCloseTo(3 * GPT_41_MINI_TRIAL_COST, 12);
  });
});
