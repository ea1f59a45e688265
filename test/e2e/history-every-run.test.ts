/**
 * Every run is kept and history reads them all: 11 runs of one project (full, filtered, last-failed,
 * and a watch's first run and two re-runs), each through the CLI's `main` in-process, leave 11 run
 * folders with their results, and `report --history .agent-evals` shows 11 runs, the newest (also in
 * results.json) once. The watch waits on its own output, never on elapsed time.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { HistoryData } from '../../src/report/history-data.js';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess, startCliInProcess, type InProcessCli } from '../support/cli-in-process.js';
import { readResults } from '../support/results-helpers.js';
import { writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

// A watch left running by a failed assertion would hold the worker's in-process CLI: end it.
let watching: InProcessCli | undefined;
afterEach(async () => {
  watching?.kill('SIGINT');
  await watching?.done.catch(() => {});
  watching = undefined;
});

const CONFIG = `export default { targets: { echo: (input) => 'echo ' + input } };\n`;
const A = (value: string) => `suite: a
target: echo
cases:
  - id: a1
    input: one
    assert: [{ type: contains, value: ${value} }]
  - id: a2
    input: two
    assert: [{ type: contains, value: two }]
`;
const B = (value: string) => `suite: b
target: echo
cases:
  - id: b1
    input: three
    assert: [{ type: contains, value: ${value} }]
`;

/** The history page's data block. */
function pageData(path: string): HistoryData {
  const html = readFileSync(path, 'utf8');
  const open = '<script type="application/json" id="history">';
  const at = html.indexOf(open) + open.length;
  return JSON.parse(html.slice(at, html.indexOf('</script>', at))) as HistoryData;
}

describe('history of every run', () => {
  it('11 runs (full, filtered, last-failed, watch) → report --history .agent-evals shows 11 runs', async () => {
    // b/b1 fails until the watch fixes it: --last-failed has a case to run.
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/a.eval.yaml': A('one'), 'evals/b.eval.yaml': B('nope') });
    const ids: string[] = [];
    const results = () => readResults(join(dir, '.agent-evals', 'results.json'));
    for (const args of [[], ['--last-failed'], ['--filter', 'a'], [], ['--last-failed'], ['--filter', 'b'], ['--filter', 'a/a1'], []]) {
      const r = await runCliInProcess(['run', ...args], { cwd: dir });
      expect(r.code, r.stdout + r.stderr).toBe(1 - Number(args[1] === 'a' || args[1] === 'a/a1'));
      ids.push(results().run.id);
    }
    expect(results().cases.map((c) => c.id)).toEqual(['a1', 'a2', 'b1']);

    const cli = (watching = startCliInProcess(['run', '--watch'], { cwd: dir }));
    await cli.waitForStderr(/Watching for changes/);
    ids.push(results().run.id);
    writeFileSync(join(dir, 'evals/b.eval.yaml'), B('three'));
    await cli.waitForStderr(/(?:Watching for changes[\s\S]*){2}/);
    ids.push(results().run.id);
    writeFileSync(join(dir, 'evals/a.eval.yaml'), A('on'));
    await cli.waitForStderr(/(?:Watching for changes[\s\S]*){3}/);
    ids.push(results().run.id);
    expect(cli.stderr()).toContain('Changed: evals/a.eval.yaml; re-running 2 of 3 cases');
    expect(cli.kill('SIGINT')).toBe(true);
    const end = await cli.done;
    expect(end.code, end.stdout + end.stderr).toBe(0);
    watching = undefined;

    expect(new Set(ids).size).toBe(11);
    // Each run, the watch's re-runs too, left its folder with its results document.
    const runs = join(dir, '.agent-evals', 'runs');
    expect(readdirSync(runs).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(readResults(join(runs, id, 'results.json')).run.id).toBe(id);

    const r = await runCliInProcess(['report', '--history', '.agent-evals'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const data = pageData(join(dir, 'history.html'));
    expect(data.runs).toHaveLength(11);
    expect(data.runs.map((run) => run.id)).toEqual(ids);
    expect(data.runs.map((run) => run.cases.total)).toEqual([3, 1, 2, 3, 1, 1, 1, 3, 3, 3, 3]);
    expect(data.runs.map((run) => run.kind)).toEqual([null, 'last failed', null, null, 'last failed', null, null, null, null, 'watch: 1 case re-run', 'watch: 2 cases re-run']);
    // Each run's label: its date and time to the second, in UTC (no commit: the project is no git repository).
    for (const run of data.runs) expect(run.label).toBe(`${run.startedAt.slice(0, 10)} ${run.startedAt.slice(11, 19)} UTC`);
    // b/b1 over the runs: failed in each run that ran it until the watch's first re-run fixed it; the
    // second re-run carried it (no point of its own).
    const b1 = data.cases.find((c) => c.key === 'b/b1')!;
    expect(b1.points.map((p) => p?.[0] ?? null)).toEqual(['failed', 'failed', null, 'failed', 'failed', 'failed', null, 'failed', 'failed', 'passed', null]);
    expect(existsSync(join(dir, '.agent-evals', 'results.json'))).toBe(true);
  }, 120_000);
});
