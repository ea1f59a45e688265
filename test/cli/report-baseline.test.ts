/**
 * The page's Before and after through the CLI (the built CLI's `main`, in-process): `run --baseline
 * main --reporter html` and `agent-evals report` both put the baseline's side of the moved cases into
 * the page's data block, read from the baseline file; `report --baseline` names the file, and one that
 * cannot be shown (or a run that was never compared) is exit 2 naming the flag.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_FRAME, removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { writeProject } from '../support/temp-project.js';
import { pageParts } from '../support/html-page.js';
import type { BaselineView } from '../../src/report/baseline-view.js';

afterAll(removeTempDirs);

const BEFORE = 'The capital of France is Paris.';
const AFTER = 'The capital of France is Lyon.';
const CONFIG = `export default { targets: { agent: () => process.env.REPLY ?? ${JSON.stringify(BEFORE)} }, concurrency: 1 };\n`;
const EVAL = `suite: d
target: agent
cases:
  - { id: capital, input: capital, assert: [{ type: contains, value: Paris }] }
  - { id: steady, input: steady, assert: [{ type: contains, value: France }] }
`;

/** The baseline's side in a page's data block. */
function baselineOf(page: string): BaselineView | undefined {
  return (JSON.parse(pageParts(readFileSync(page, 'utf8')).data) as { baseline?: BaselineView }).baseline;
}

let dir = '';

beforeAll(async () => {
  dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/d.eval.yaml': EVAL });
  const saved = await runCliInProcess(['run', '--save-baseline'], { cwd: dir });
  expect(saved.code, saved.stdout + saved.stderr).toBe(0);
  // The regressed run, compared with the saved baseline: its page and its results document.
  const head = await runCliInProcess(['run', '--baseline', 'main', '--reporter', 'html=out/run.html', '--reporter', 'json=head.json'], { cwd: dir, env: { REPLY: AFTER } });
  expect(head.code, head.stdout + head.stderr).toBe(1);
}, 120_000);

describe('Before and after through the CLI', () => {
  it('run --baseline main --reporter html: the page holds the baseline\u2019s reply of the regressed case only', () => {
    const view = baselineOf(join(dir, 'out', 'run.html'));
    expect(view?.file).toBe('main');
    expect(view?.missing).toBeUndefined();
    expect(view?.cases.map((c) => [c.key, c.trials.map((t) => t.reply)])).toEqual([['d/capital', [BEFORE]]]);
  });

  it('report: reads the comparison\u2019s own baseline (a saved name) into the page', async () => {
    const r = await runCliInProcess(['report', 'head.json', '-o', 'out/report.html'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(baselineOf(join(dir, 'out', 'report.html'))?.cases.map((c) => c.trials[0]!.reply)).toEqual([BEFORE]);
  });

  it('report --baseline: a file that cannot be shown, or results never compared, is exit 2 naming the flag', async () => {
    const gone = await runCliInProcess(['report', 'head.json', '--baseline', 'nowhere.json', '-o', 'out/x.html'], { cwd: dir });
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('--baseline');
    expect(gone.stderr).toContain('no file at nowhere.json');
    expect(gone.stderr).not.toMatch(STACK_FRAME);
    const plain = await runCliInProcess(['report', '.agent-evals/baselines/main.json', '--baseline', 'main', '-o', 'out/y.html'], { cwd: dir });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('not compared with a baseline');
  });

  it('report: the comparison\u2019s baseline gone, the page is still written and says so', async () => {
    rmSync(join(dir, '.agent-evals', 'baselines', 'main.json'));
    const r = await runCliInProcess(['report', 'head.json', '-o', 'out/gone.html'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(baselineOf(join(dir, 'out', 'gone.html'))).toEqual({ file: 'main', cases: [], missing: `no file at ${join('.agent-evals', 'baselines', 'main.json')}` });
  });
});
