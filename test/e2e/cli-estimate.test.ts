/**
 * `run --estimate` and the `--max-cost` check before a run (issue 26, item 4), through the built CLI's
 * `main` in-process against a fake OpenAI server (the real SDK) that counts every request: a run is
 * recorded with a model-agent target and an OpenAI judge, then estimated without any request. Needs
 * dist/ (`npm test` builds it).
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';
import type { Results } from '../../src/core/results-schema.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

const CONFIG = `export default {
  outputDir: '.out',
  targets: { agent: { model: 'openai:gpt-4.1-mini' } },
  judge: 'openai:gpt-4.1-mini',
};
`;
// Two suites: one without a judge (2 cases x 2 trials), one judged (1 case x 3 trials).
const ALPHA = `suite: alpha\ntarget: agent\nrepeat: 2\ncases:\n  - id: a\n    input: first\n    assert: [{ type: contains, value: answer }]\n  - id: b\n    input: second\n    assert: [{ type: contains, value: answer }]\n`;
const BETA = `suite: beta\ntarget: agent\nrepeat: 3\ncases:\n  - id: c\n    input: third\n    assert:\n      - { type: contains, value: answer }\n      - { type: judge, criteria: is polite }\n`;

/** The judge's requests carry a response schema; the agent's do not. Replies differ per trial, so the judge cache hits only on repeats. */
function script(body: { response_format?: unknown; messages: Array<{ content: unknown }> }, index: number) {
  if (body.response_format) return { json: { score: 1, reason: 'polite', evidence: [] }, usage: { input: 3000, output: 150 } };
  return { text: `the answer #${index % 2}`, usage: { input: 12000, output: 800, cached: 2000 } };
}

async function recorded() {
  fake = await startFakeOpenAI({ script });
  const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/alpha.eval.yaml': ALPHA, 'evals/beta.eval.yaml': BETA });
  const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url };
  const cli = (args: string[], extra: Record<string, string | undefined> = {}) => runCliInProcess(args, { cwd: dir, env: { ...env, ...extra } });
  const run = await cli(['run', '--no-early-stop', '--json']);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return { dir, cli, results: readResults(join(dir, '.out', 'results.json')) };
}

/** Recorded dollars per suite, target and judge together. */
function recordedBySuite(results: Results): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of results.cases) out[c.suite] = (out[c.suite] ?? 0) + c.usage.target.costUsd! + c.usage.judge.costUsd!;
  return out;
}

/** The estimate's `total` column per row of its table. */
function estimatedBySuite(stdout: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of stdout.matchAll(/^ {2}(\S+)\s+\d+\s+\d+\s+\$\S+\s+\$\S+\s+\$(\S+)$/gm)) out[m[1]!] = Number(m[2]);
  return out;
}

describe('run --estimate', () => {
  it('prints per-suite costs within 5% of the recorded run, with zero model requests and no API key', async () => {
    const { cli, results } = await recorded();
    const spent = recordedBySuite(results);
    expect(spent['alpha']).toBeGreaterThan(0);
    // The judged suite paid for its judge too (answers of repeated replies came from the cache).
    expect(results.cases.find((c) => c.suite === 'beta')!.usage.judge.costUsd).toBeGreaterThan(0);
    const before = fake!.count;

    const res = await cli(['run', '--estimate'], { OPENAI_API_KEY: undefined });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(fake!.count).toBe(before);
    // The run's own folder copy of its results: the newest recorded run.
    expect(res.stdout).toContain(`Estimated cost from ${join('.out', 'runs', results.run.id, 'results.json')} (run ${results.run.id}, started `);
    const estimated = estimatedBySuite(res.stdout);
    expect(Object.keys(estimated).sort()).toEqual(['alpha', 'beta', 'total']);
    for (const suite of ['alpha', 'beta']) expect(Math.abs(estimated[suite]! - spent[suite]!) / spent[suite]!).toBeLessThan(0.05);
    expect(res.stdout).toMatch(/judge: \d+% of \d+ recorded answers came from the cache/);
    expect(res.stdout).not.toContain('no history');
  });

  it('scales each case by the trials planned now and lists a case with no history, unpriced', async () => {
    const { dir, cli, results } = await recorded();
    appendFileSync(join(dir, 'evals', 'alpha.eval.yaml'), '  - id: fresh\n    input: new one\n    assert: [{ type: contains, value: answer }]\n');
    const before = fake!.count;
    // --repeat 6: alpha was recorded with 2 trials a case (x3), beta with 3 (x2).
    const res = await cli(['run', '--estimate', '--repeat', '6']);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(fake!.count).toBe(before);
    const spent = recordedBySuite(results);
    const estimated = estimatedBySuite(res.stdout);
    expect(estimated['alpha']! / (3 * spent['alpha']!)).toBeCloseTo(1, 1);
    expect(estimated['beta']! / (2 * spent['beta']!)).toBeCloseTo(1, 1);
    expect(res.stdout).toMatch(/no history: 1 case, not priced:\n {4}alpha\/fresh\n/);
  });

  it('after a 2-case run, prices every case of the suite: each from its newest recorded run, named with its date', async () => {
    const { dir, cli, results: full } = await recorded();
    const spent = recordedBySuite(full);
    // A 2-case run: results.json now holds alpha alone.
    const part = await cli(['run', '--no-early-stop', '--filter', 'alpha', '--json']);
    expect(part.code, part.stdout + part.stderr).toBe(0);
    const before = fake!.count;

    const res = await cli(['run', '--estimate']);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(fake!.count).toBe(before);
    expect(res.stdout).not.toContain('no history');
    const estimated = estimatedBySuite(res.stdout);
    for (const suite of ['alpha', 'beta']) expect(Math.abs(estimated[suite]! - spent[suite]!) / spent[suite]!).toBeLessThan(0.05);
    expect(res.stdout).toContain('Estimated cost from the newest recorded result of each case, in 2 runs');
    // Newest first: alpha's two cases from the filtered run, beta's one from the full run, each with its start.
    const partial = readResults(join(dir, '.out', 'results.json'));
    expect(partial.cases.map((c) => c.id)).toEqual(['a', 'b']);
    const started = (r: Results) => `${r.run.startedAt.slice(0, 10)} ${r.run.startedAt.slice(11, 19)} UTC`;
    expect(res.stdout).toContain(`\n    2 cases from run ${partial.run.id}, started ${started(partial)} (${join('.out', 'runs', partial.run.id, 'results.json')})\n`);
    expect(res.stdout).toContain(`\n     1 case from run ${full.run.id}, started ${started(full)} (${join('.out', 'runs', full.run.id, 'results.json')})\n`);
    expect(res.stdout.indexOf('2 cases from')).toBeLessThan(res.stdout.indexOf('1 case from'));
  });

  it('the CI budget guard after a 2-case run refuses what it refuses after the full run', async () => {
    const { cli, results: full } = await recorded();
    const spent = recordedBySuite(full);
    // Above what the 2 alpha cases cost, below the whole suite: only a guard pricing beta too refuses it.
    const budget = (spent['alpha']! + spent['alpha']! + spent['beta']!) / 2;
    expect(budget).toBeGreaterThan(spent['alpha']!);
    const part = await cli(['run', '--no-early-stop', '--filter', 'alpha', '--json']);
    expect(part.code, part.stdout + part.stderr).toBe(0);
    const before = fake!.count;
    const refused = await cli(['run', '--max-cost', String(budget)], { CI: 'true' });
    expect(refused.code, refused.stdout + refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/--max-cost: the estimated cost of this run, \$0\.\d+, is above the budget of \$0\.\d+; in CI such a run does not start without --force/);
    expect(refused.stderr).not.toContain('no history');
    expect(fake!.count).toBe(before);
  });

  it('--from names the recording; a file that is not one is bad input (exit 2) naming --from', async () => {
    const { dir, cli } = await recorded();
    const copy = join(dir, 'kept.json');
    appendFileSync(copy, readFileSync(join(dir, '.out', 'results.json')));
    const ok = await cli(['run', '--estimate', '--from', 'kept.json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('Estimated cost from kept.json');
    // Another suite's recording prices nothing: bad input, not an estimate of $0.
    const foreign = JSON.parse(readFileSync(copy, 'utf8')) as Results;
    for (const c of foreign.cases) c.suite = 'elsewhere';
    writeFileSync(join(dir, 'foreign.json'), JSON.stringify(foreign));
    const other = await cli(['run', '--estimate', '--from', 'foreign.json']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('foreign.json: --from: holds none of the 3 planned cases');
    const bad = await cli(['run', '--estimate', '--from', 'evals.config.mjs']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/evals\.config\.mjs: --from: not a results file/);
    expect(bad.stderr).not.toMatch(STACK_FRAME);
  });
});

describe('run --max-cost with an estimate above the budget', () => {
  it('in CI exits 2 before any request, asking for --force; --force runs it', async () => {
    const { cli } = await recorded();
    const before = fake!.count;
    const refused = await cli(['run', '--max-cost', '0.001'], { CI: 'true' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--max-cost: the estimated cost of this run, \$0\.\d+, is above the budget of \$0\.001; in CI such a run does not start without --force/);
    expect(refused.stderr).not.toMatch(STACK_FRAME);
    expect(fake!.count).toBe(before);

    const forced = await cli(['run', '--max-cost', '0.001', '--force'], { CI: 'true' });
    expect(forced.stderr).toContain('running it anyway (--force)');
    expect(fake!.count).toBeGreaterThan(before);
    // The budget still stops new trials once spent.
    expect(forced.code).toBe(1);
  });

  it('outside CI warns and runs; under the budget says nothing', async () => {
    const { cli } = await recorded();
    const before = fake!.count;
    const warned = await cli(['run', '--max-cost', '0.001']);
    expect(warned.stderr).toMatch(/is above the budget of \$0\.001: running it/);
    expect(fake!.count).toBeGreaterThan(before);
    // A dry run spends nothing: no estimate stops it (it runs, and its placeholder replies fail `contains: answer`).
    const asked = fake!.count;
    const dry = await cli(['run', '--max-cost', '0.001', '--dry-run'], { CI: 'true' });
    expect(dry.code, dry.stderr).toBe(1);
    expect(dry.stdout).toMatch(/3 cases, 7 trials/);
    expect(fake!.count).toBe(asked);
    expect(dry.stderr).not.toContain('estimated cost');
    const quiet = await cli(['run', '--max-cost', '100'], { CI: 'true' });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('estimated cost');
  });
});
