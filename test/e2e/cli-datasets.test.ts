/**
 * Bad dataset rows stop `agent-evals run` with exit 2 and the place (file, line or row, field)
 * before any target is called; `--sample n --seed s` lists the same rows on every run.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { expectStoppedBeforeTargets, runMarked, writeProject } from '../support/temp-project.js';

afterAll(removeTempDirs);

const CONFIG = `import { writeFileSync } from 'node:fs';
export default {
  evals: ['evals/**/*.eval.yaml'],
  outputDir: '.out',
  targets: { echo: async (input) => { writeFileSync(process.env.MARKER, 'called'); return 'ok ' + input; } },
};
`;

const SUITE = (dataset: string) => `suite: ds\ntarget: echo\ndataset: ${dataset}\nassert:\n  - { type: contains, value: "{{want}}" }\n`;
const row = (i: number) => JSON.stringify({ input: `question ${i}`, want: 'ok' });

describe.concurrent('datasets on the command line', () => {
  it('a malformed line 7 in a JSONL file exits 2 naming line 7', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => (i === 6 ? '{"input": "question 6", "want": ok}' : row(i)));
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': SUITE('../data/rows.jsonl'), 'data/rows.jsonl': lines.join('\n') + '\n' });
    const err = expectStoppedBeforeTargets(await runMarked(dir, [], {}, runCliInProcess));
    expect(err).toMatch(/data\/rows\.jsonl:7: line 7 is not JSON/);
  });

  it('a CSV row with too few columns exits 2 naming its row', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': SUITE('rows.csv'), 'evals/rows.csv': 'input,want\nq1,ok\nq2,ok\nq3\nq4,ok\n' });
    const err = expectStoppedBeforeTargets(await runMarked(dir, [], {}, runCliInProcess));
    expect(err).toMatch(/evals\/rows\.csv:4: row 3 has 1 columns, the header has 2/);
  });

  it('a {{missing}} variable exits 2 naming the row and field', async () => {
    const text = [row(0), JSON.stringify({ input: 'no want here' }), row(2)].join('\n');
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': SUITE('rows.jsonl'), 'evals/rows.jsonl': text });
    const err = expectStoppedBeforeTargets(await runMarked(dir, [], {}, runCliInProcess));
    expect(err).toMatch(/evals\/rows\.jsonl:2: want: row 2: \{\{want\}\} in assert\[0\]\.value is not a field of this row/);
  });

  it('a CSV header repeating a column, or with an empty one, exits 2 naming the column and its position', async () => {
    const dup = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': SUITE('rows.csv'), 'evals/rows.csv': 'input,want,want\nq1,ok,no\n' });
    expect(expectStoppedBeforeTargets(await runMarked(dup, [], {}, runCliInProcess))).toMatch(/evals\/rows\.csv:1: want: column 3 of the CSV header repeats column 2 \("want"\)/);
    const empty = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': SUITE('rows.csv'), 'evals/rows.csv': 'input,,want\nq1,x,ok\n' });
    expect(expectStoppedBeforeTargets(await runMarked(empty, [], {}, runCliInProcess))).toMatch(/evals\/rows\.csv:1: column 2 of the CSV header has no name/);
  });

  it('{{constructor}} is not a field of a row: exit 2 naming the row and field', async () => {
    const suite = SUITE('rows.jsonl').replace('{{want}}', '{{constructor}}');
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': suite, 'evals/rows.jsonl': row(0) });
    const err = expectStoppedBeforeTargets(await runMarked(dir, [], {}, runCliInProcess));
    expect(err).toMatch(/evals\/rows\.jsonl:1: constructor: row 1: \{\{constructor\}\} in assert\[0\]\.value is not a field of this row/);
  });

  it('--sample 5 --seed 1 picks the same five rows twice; --limit 3 the first three', async () => {
    const dir = writeProject({ 'evals.config.mjs': CONFIG, 'evals/s.eval.yaml': SUITE('rows.jsonl'), 'evals/rows.jsonl': Array.from({ length: 40 }, (_, i) => row(i)).join('\n') });
    const keys = async (...args: string[]) => {
      const r = await runCliInProcess(['list', '--json', ...args], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as Array<{ key: string; line: number }>).map((c) => c.line);
    };
    const first = await keys('--sample', '5', '--seed', '1');
    expect(first).toHaveLength(5);
    expect(await keys('--sample', '5', '--seed', '1')).toEqual(first);
    expect(await keys('--sample', '5', '--seed', '2')).not.toEqual(first);
    expect(await keys('--limit', '3')).toEqual([1, 2, 3]);
    const both = await runCliInProcess(['list', '--limit', '3', '--sample', '2'], { cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--limit and --sample both choose dataset rows/);
  });
});
