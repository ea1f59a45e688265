/**
 * A dataset of 300,000 rows plans as 300,000 cases: `list` and `run --dry-run` load it without
 * "Maximum call stack size exceeded" (the planner once spread a dataset's cases into one push call,
 * which throws past ~125,000 arguments). The run selects a few cases with --filter so the test runs
 * 10 trials, not 300,000: every row is still read and planned before the selection. In process: the
 * subject is the planner, not the process (a test worker's stack is a process's main-thread stack).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, STACK_FRAME } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { readResults } from '../support/results-helpers.js';

afterAll(removeTempDirs);

const ROWS = 300_000;

async function writeRows(path: string): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < ROWS; i++) {
    // Short rows with their own ids: the planner's work, not hashing, is what the test is about.
    if (!out.write(`{"id":"r${i}","input":"q${i}"}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

describe('a 300,000-row dataset', () => {
  it('`list` names every case and `run --dry-run` runs the selected ones: exit 0, results written', { timeout: 600_000 }, async () => {
    const dir = writeProject({
      'evals.config.mjs': `export default { evals: ['*.eval.yaml'], outputDir: '.out', targets: { agent: async (input) => 'ok ' + input } };\n`,
      'big.eval.yaml': 'suite: big\ntarget: agent\ndataset: rows.jsonl\nassert:\n  - { type: contains, value: ok }\n',
    });
    await writeRows(join(dir, 'rows.jsonl'));

    const list = await runCliInProcess(['list'], { cwd: dir });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).not.toMatch(STACK_FRAME);
    expect(list.stdout.trimEnd().split('\n').at(-1)).toBe('300000 cases, 300000 trials');
    expect(list.stdout).toContain(`big/r${ROWS - 1}  ×1  rows.jsonl:${ROWS}  → agent`);

    const json = join(dir, 'results.json');
    const run = await runCliInProcess(['run', '--dry-run', '--filter', 'big/r29999?', '--json', json], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(STACK_FRAME);
    const res = readResults(json);
    expect(res.cases.map((c) => c.id)).toEqual(Array.from({ length: 10 }, (_, i) => `r29999${i}`));
    expect(res.cases.every((c) => c.verdict === 'passed')).toBe(true);
  });
});
