/**
 * `agent-evals report` and `--reporter html=path` through the CLI's `main`, in-process (no process
 * behaviour is the subject here): the page is written whole
 * (no temp file left, a bad input leaves the previous page untouched), bad input is exit 2 naming the
 * file, and a run writes its page at the end and names it.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../src/core/results-schema.js';
import { STACK_FRAME, removeTempDirs, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runFixture } from '../support/fixture-run.js';
import { HOSTILE_REPLY, pageParts } from '../support/html-page.js';
import { FIELD_LIMIT } from '../../src/report/html-cut.js';
import { runInProcess } from '../support/run-in-process.js';

afterAll(removeTempDirs);

let dir = '';
let results: Results;

beforeAll(async () => {
  const run = await runInProcess({
    files: { 'a.eval.yaml': 'suite: a\ntarget: agent\ncases:\n  - { id: one, input: go, assert: [{ type: contains, value: absent }] }\n' },
    config: { targets: { agent: () => HOSTILE_REPLY } },
  });
  results = run.results;
  dir = tempDir();
  writeFileSync(join(dir, 'results.json'), JSON.stringify(results));
});

describe('agent-evals report', () => {
  it('writes the page from a results file, exit 0, nothing left beside it', async () => {
    const r = await runCliInProcess(['report', 'results.json', '-o', 'out/report.html'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(join('out', 'report.html'));
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html).not.toContain(HOSTILE_REPLY);
    const data = JSON.parse(pageParts(html).data) as { results: Results; keys: string[] };
    expect(data.results.cases[0]!.trials[0]!.reply).toBe(HOSTILE_REPLY);
    expect(data.results.run.id).toBe(results.run.id);
    expect(data.keys).toEqual(['a/one']);
    expect(readdirSync(join(dir, 'out'))).toEqual(['report.html']);
  });

  it('names the folder of cut fields beside the page when a reply is over the field limit', async () => {
    const long = 'L'.repeat(FIELD_LIMIT + 1);
    const big = structuredClone(results);
    big.cases[0]!.trials[0]!.reply = long;
    writeFileSync(join(dir, 'big.json'), JSON.stringify(big));
    const r = await runCliInProcess(['report', 'big.json', '-o', 'big/report.html'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(join('big', 'report.html'));
    expect(r.stdout).toContain(join('big', 'report-files'));
    expect(readFileSync(join(dir, 'big', 'report-files', '0.txt'), 'utf8')).toBe(long);
    expect(readFileSync(join(dir, 'big', 'report.html'), 'utf8')).not.toContain(long);
  });

  it('a missing results file is exit 2 naming it, and writes nothing', async () => {
    const r = await runCliInProcess(['report', 'nope.json', '-o', 'missing.html'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope.json');
    expect(r.stderr).toContain('no such results file');
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(existsSync(join(dir, 'missing.html'))).toBe(false);
  });

  it('an invalid results file is exit 2 naming it and the field; the previous page stays as it was', async () => {
    const sub = join(dir, 'bad');
    mkdirSync(sub);
    writeFileSync(join(sub, 'broken.json'), '{"schemaVersion": 1,');
    writeFileSync(join(sub, 'wrong.json'), JSON.stringify({ ...results, summary: 'no' }));
    writeFileSync(join(sub, 'report.html'), 'previous');
    const broken = await runCliInProcess(['report', 'broken.json', '-o', 'report.html'], { cwd: sub });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('broken.json: <results>: not a results file: invalid JSON');
    const wrong = await runCliInProcess(['report', 'wrong.json', '-o', 'report.html'], { cwd: sub });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('wrong.json: <results>: not an agent-evals results file: summary');
    expect(readFileSync(join(sub, 'report.html'), 'utf8')).toBe('previous');
    expect(readdirSync(sub).sort()).toEqual(['broken.json', 'report.html', 'wrong.json']);
  });
});

describe('--reporter html=path', () => {
  it('writes the page at the end of a run, with every case, and the terminal names it', async () => {
    const out = join(tempDir(), 'run.html');
    const r = await runFixture('runner', ['run', 'evals/command.eval.yaml', '--reporter', 'terminal', '--reporter', `html=${out}`, '--json', '$JSON'], runCliInProcess);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    const html = readFileSync(out, 'utf8');
    const data = JSON.parse(pageParts(html).data) as { results: Results; keys: string[] };
    const json = r.results();
    expect(data.keys).toEqual(json.cases.map((c) => `${c.suite}/${c.id}`));
    expect(data.results.summary).toEqual(json.summary);
    expect(data.results.cases.map((c) => c.verdict)).toEqual(json.cases.map((c) => c.verdict));
    expect(r.stdout).toContain('run.html');
  });
});
