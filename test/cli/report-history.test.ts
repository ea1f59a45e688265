/**
 * `agent-evals report --history` through the CLI's `main`, in-process: what a folder yields (each run
 * folder's results.json, its *.json and baselines/*.json; a run saved twice shown once, from its folder), a folder file that
 * is not a results file passed over with a warning, and bad input refused with exit 2 naming the file:
 * a named file that is not a results file, a missing path, a folder with no results file.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../src/core/results-schema.js';
import type { HistoryData } from '../../src/report/history-data.js';
import { STACK_FRAME, removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { historyCopy, historyRun } from '../support/history-files.js';

afterAll(removeTempDirs);

let base: Results;
beforeAll(async () => {
  base = await historyRun();
});

/** The history page's data block. */
function pageData(path: string): HistoryData {
  const html = readFileSync(path, 'utf8');
  const open = '<script type="application/json" id="history">';
  const at = html.indexOf(open) + open.length;
  return JSON.parse(html.slice(at, html.indexOf('</script>', at))) as HistoryData;
}

/** The run folders of runs 1 and 2 (run 0's pruned: only its saved baseline is left). */
const RUN_1 = '20261101-010000-aaaaaa';
const RUN_2 = '20261101-020000-bbbbbb';

/**
 * A folder laid out as runs leave `.agent-evals`: results.json (the newest run, run 2), a baseline
 * saved by that same run, an older baseline (run 0), the run folders of runs 1 and 2 each with its
 * results.json, a run folder without one (a killed run: its plan only), the html report.
 */
function outputFolder(): string {
  const dir = tempDir();
  const out = join(dir, '.agent-evals');
  mkdirSync(join(out, 'baselines'), { recursive: true });
  const latest = JSON.stringify(historyCopy(base, 2, 3));
  writeFileSync(join(out, 'results.json'), latest);
  writeFileSync(join(out, 'baselines', 'main.json'), latest);
  writeFileSync(join(out, 'baselines', 'old.json'), JSON.stringify(historyCopy(base, 0, 3)));
  for (const [id, doc] of [
    [RUN_1, JSON.stringify(historyCopy(base, 1, 3))],
    [RUN_2, latest],
  ] as const) {
    mkdirSync(join(out, 'runs', id), { recursive: true });
    writeFileSync(join(out, 'runs', id, 'results.json'), doc);
    writeFileSync(join(out, 'runs', id, 'plan.json'), '{}');
  }
  mkdirSync(join(out, 'runs', '20261101-030000-cccccc'), { recursive: true });
  writeFileSync(join(out, 'runs', '20261101-030000-cccccc', 'plan.json'), JSON.stringify(historyCopy(base, 1, 3)));
  writeFileSync(join(out, 'report.html'), '<p>a page</p>');
  return dir;
}

describe('agent-evals report --history', () => {
  it("reads an output folder's run folders, results.json and saved baselines, a run saved three times once (from its folder)", async () => {
    const dir = outputFolder();
    const r = await runCliInProcess(['report', '--history', '.agent-evals'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('history.html');
    const data = pageData(join(dir, 'history.html'));
    expect(data.runs.map((run) => [run.id, run.file])).toEqual([
      ['run-0', join('.agent-evals', 'baselines', 'old.json')],
      ['run-1', join('.agent-evals', 'runs', RUN_1, 'results.json')],
      ['run-2', join('.agent-evals', 'runs', RUN_2, 'results.json')],
    ]);
    expect(data.skipped).toEqual([]);
  });

  it('passes over a folder file that is not a results file, with a warning naming it and why', async () => {
    const dir = outputFolder();
    writeFileSync(join(dir, '.agent-evals', 'notes.json'), '{"note": 1}');
    writeFileSync(join(dir, '.agent-evals', 'baselines', 'broken.json'), '{"schemaVersion": 1,');
    // A run folder's results cut short (a disk that filled up): passed over as well, the other runs shown.
    writeFileSync(join(dir, '.agent-evals', 'runs', RUN_1, 'results.json'), '{"schemaVersion": 1,');
    const r = await runCliInProcess(['report', '--history', '.agent-evals', '-o', 'h.html'], { cwd: dir });
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^agent-evals: skipped \.agent-evals[/\\]runs[/\\]20261101-010000-aaaaaa[/\\]results\.json: not a results file: invalid JSON/);
    expect(lines[1]).toMatch(/^agent-evals: skipped \.agent-evals[/\\]notes\.json: not an agent-evals results file: schemaVersion: /);
    expect(lines[2]).toMatch(/^agent-evals: skipped \.agent-evals[/\\]baselines[/\\]broken\.json: not a results file: invalid JSON/);
    expect(pageData(join(dir, 'h.html')).runs.map((run) => run.id)).toEqual(['run-0', 'run-2']);
  });

  it('passes over a run whose startedAt is not a date, naming the file and the field', async () => {
    const dir = outputFolder();
    const path = join(dir, '.agent-evals', 'runs', RUN_1, 'results.json');
    const results = JSON.parse(readFileSync(path, 'utf8')) as Results;
    writeFileSync(path, JSON.stringify({ ...results, run: { ...results.run, startedAt: 'not a date' } }));
    const r = await runCliInProcess(['report', '--history', '.agent-evals', '-o', 'h.html'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^agent-evals: skipped \.agent-evals[/\\]runs[/\\]20261101-010000-aaaaaa[/\\]results\.json: .*run\.startedAt.*is not a date/m);
    expect(pageData(join(dir, 'h.html')).runs.map((run) => run.id)).toEqual(['run-0', 'run-2']);
  });

  it('refuses a named file that is not a results file: exit 2 naming it, no page written', async () => {
    const dir = outputFolder();
    writeFileSync(join(dir, 'notes.json'), '{"note": 1}');
    const r = await runCliInProcess(['report', '--history', '.agent-evals', 'notes.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^agent-evals: notes\.json: --history: not an agent-evals results file: /);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(existsSync(join(dir, 'history.html'))).toBe(false);
  });

  it('refuses a missing path, and a folder with no results file, exit 2', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'empty'));
    writeFileSync(join(dir, 'empty', 'notes.json'), '[]');
    const missing = await runCliInProcess(['report', '--history', 'nowhere'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('agent-evals: nowhere: --history: no such results file or folder\n');
    const empty = await runCliInProcess(['report', '--history', 'empty'], { cwd: dir });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('agent-evals: --history: no results files in empty');
    expect(existsSync(join(dir, 'history.html'))).toBe(false);
  });

  it('without --history takes one results file only', async () => {
    const dir = outputFolder();
    const r = await runCliInProcess(['report', '.agent-evals/results.json', '.agent-evals/baselines/old.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('agent-evals: <results>: one results file, not 2 (--history reads several)\n');
  });
});
