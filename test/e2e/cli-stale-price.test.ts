/**
 * A price row marked as possibly stale (`mayBeStale`: GPT-5.6 Sol's $4/$20 promotion, documented
 * only until 2026-11-21, earlier $5/$30): a run calling that model warns once, however many trials,
 * naming the model, both figures and the date, in the terminal and in results.json; a run without
 * such a model does not; a user's `pricing` entry replaces the row and the warning. The built CLI
 * (its `main`, in-process) against a fake OpenAI server. Needs dist/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stalePriceWarnings } from '../../src/runner/loop/stale-prices.js';
import { resolvePrice } from '../../src/providers/pricing.js';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { writeProject } from '../support/temp-project.js';

const STALE = / may be stale: /;

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeOpenAI({ script: () => ({ text: 'Booked.' }) });
});
afterAll(async () => {
  await fake.close();
  removeTempDirs();
});

const EVAL = `suite: booking
target: writer
cases:
  - id: one
    input: Book a table.
    assert: [{ type: contains, value: Booked }]
  - id: two
    input: Book another.
    assert: [{ type: contains, value: Booked }]
`;

async function run(model: string, extra = '') {
  const dir = writeProject({
    'evals.config.mjs': `export default { outputDir: '.out', targets: { writer: { model: 'openai:${model}', instructions: 'You book tables.' } }${extra} };\n`,
    'evals/booking.eval.yaml': EVAL,
  });
  const r = await runCliInProcess(['run', '--repeat', '3', '--json', 'results.json'], {
    cwd: dir,
    env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url, EVALS_JUDGE_PROVIDER: undefined, EVALS_JUDGE_MODEL: undefined },
  });
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  const lines = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => STALE.test(l));
  return { ...r, lines, warnings: (results.summary.warnings as string[]).filter((w) => STALE.test(w)), trials: results.cases.flatMap((c: any) => c.trials).length };
}

describe('a price the docs date', () => {
  it('the table marks gpt-5.6-sol (and its alias) with both figures and the date', () => {
    for (const model of ['openai:gpt-5.6-sol', 'openai:gpt-5.6']) {
      expect(resolvePrice(model)).toMatchObject({ input: 4, output: 20, mayBeStale: { goodUntil: '2026-11-21', otherwise: { input: 5, output: 30 } } });
    }
    expect(resolvePrice('openai:gpt-5.6-luna')?.mayBeStale).toBeUndefined();
  });

  it('one warning per model, naming who calls it once each', () => {
    const callers = [
      { model: 'openai:gpt-5.6-sol', who: 'target "a"' },
      { model: 'openai:gpt-5.6-luna', who: 'config judge' },
      { model: 'openai:gpt-5.6-sol', who: 'target "a"' },
      { model: 'openai:gpt-5.6-sol', who: 'config judge' },
    ];
    const warnings = stalePriceWarnings(callers, (m) => resolvePrice(m));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^openai:gpt-5\.6-sol: its price \$4\/\$20 per 1M input\/output tokens may be stale: documented only until 2026-11-21 \(.*: \$5\/\$30\)/);
    expect(warnings[0]).toMatch(/used by target "a"; config judge: /);
  });

  it('a run of 6 trials on gpt-5.6-sol warns exactly once, in the terminal and in results.json', async () => {
    const r = await run('gpt-5.6-sol');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.trials).toBe(6);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatch(/openai:gpt-5\.6-sol: its price \$4\/\$20 .* until 2026-11-21 .*\$5\/\$30.*used by target "writer"/);
    expect(r.warnings).toHaveLength(1);
  });

  it('a run without such a model does not warn, nor one whose config prices the model itself', async () => {
    const luna = await run('gpt-5.6-luna');
    expect(luna.code, luna.stdout + luna.stderr).toBe(0);
    expect(luna.lines).toEqual([]);
    expect(luna.warnings).toEqual([]);
    const priced = await run('gpt-5.6-sol', `, pricing: { 'openai:gpt-5.6-sol': { input: 5, output: 30 } }`);
    expect(priced.code, priced.stdout + priced.stderr).toBe(0);
    expect(priced.lines).toEqual([]);
  });
});
