/**
 * Results files for `agent-evals report --history`: one real run of a small suite (through the
 * runner, validated by ResultsSchema), copied N times with the start, pass rate, cost and one case's
 * verdict varied, so every copy is a results file as a run would have written it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResultsSchema, type Results } from '../../src/core/results-schema.js';
import { runInProcess } from './run-in-process.js';

/** A case id that would make an element if the page put keys in as markup. */
export const HOSTILE_ID = '<img src=x onerror=alert(1)>';

const SUITE = `suite: hist
target: agent
cases:
  - { id: steady, input: steady, assert: [{ type: contains, value: ok }] }
  - { id: flappy, input: flappy, assert: [{ type: contains, value: ok }] }
  - { id: evil, input: evil, assert: [{ type: contains, value: ok }] }
`;

/** One real run of the three-case suite `hist` (steady, flappy, evil), all passing. */
export async function historyRun(): Promise<Results> {
  return (await runInProcess({ files: { 'hist.eval.yaml': SUITE }, config: { targets: { agent: () => 'ok' } } })).results;
}

/** Run `i` of `n`: started i hours after the first, at commit `<i in 4 hex digits>abc0…`, pass rate i/(n-1), cost i cents; `flappy` fails on odd runs; `evil` has HOSTILE_ID as its id. */
export function historyCopy(base: Results, i: number, n: number): Results {
  const r = structuredClone(base);
  r.run.id = `run-${i}`;
  r.run.startedAt = new Date(Date.UTC(2026, 10, 1) + i * 3_600_000).toISOString();
  r.run.gitSha = `${i.toString(16).padStart(4, '0')}abc`.padEnd(40, '0');
  const trials = Math.max(n - 1, 1);
  r.summary.passRate = { passed: i, trials, rate: i / trials, low: 0, high: 1 };
  r.summary.usage.total.costUsd = i / 100;
  for (const c of r.cases) {
    if (c.id === 'evil') c.id = HOSTILE_ID;
    if (c.id !== 'flappy') continue;
    const fails = i % 2 === 1;
    c.verdict = fails ? 'failed' : 'passed';
    c.passed = fails ? 0 : 1;
    for (const t of c.trials) t.verdict = fails ? 'failed' : 'passed';
  }
  return ResultsSchema.parse(r);
}

/**
 * Writes `n` copies of `base` into `dir` (made if absent), named so that their names' order is not their
 * start order (`run-<(i * 37) mod n>.json`, as 37 and n share no factor); returns the paths, by run.
 */
export function writeHistoryFiles(dir: string, base: Results, n: number): string[] {
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: n }, (_, i) => {
    const path = join(dir, `run-${String((i * 37) % n).padStart(3, '0')}.json`);
    writeFileSync(path, JSON.stringify(historyCopy(base, i, n), null, 2));
    return path;
  });
}
